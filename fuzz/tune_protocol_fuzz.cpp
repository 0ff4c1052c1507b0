// libFuzzer target: the reader of `tune`'s framework child (its JSON lines on stdout), the judging of
// the run, the advice built from what was read, and the text written. The saved `tune --json` document (its
// writer and the reader `report --tune` uses, each other's inverse) is result_documents_fuzz's: parsed back
// here on every input, the written JSON took two thirds of this target's time.
#include <cstddef>
#include <cstdint>
#include <string>

#include "tune/tune_advice.h"
#include "tune/tune_report.h"
#include "tune/tune_runner.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  ProcessResult r;
  r.exit_code = 0;
  r.stdout_text.assign(reinterpret_cast<const char*>(data), size);
  TuneRun run = InterpretTuneRun("python3", r, std::chrono::seconds(1));
  if (run.status.empty()) __builtin_trap();
  for (const auto& s : run.output.searches)
    if (s.tried.size() > 256) __builtin_trap();
  // The same lines as the allocator's second run too: the allocator row on arbitrary figures.
  run.allocator = TuneAllocatorRun{"PYTORCH_CUDA_ALLOC_CONF", kAllocatorSetting, run.status, run.output};
  TuneAdvice advice = BuildTuneAdvice(run.output, &*run.allocator);
  for (const auto& m : advice.models)
    if (m.recommended_rate && !(*m.recommended_rate > 0)) __builtin_trap();
  (void)RenderTuneText(run, advice, TuneReportContext{});
  TuneLineSplitter splitter;
  size_t lines = 0;
  splitter.Feed(r.stdout_text, [&](std::string_view) { ++lines; });
  return 0;
}
