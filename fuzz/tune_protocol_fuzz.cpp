// libFuzzer target: the reader of `tune`'s framework child (its JSON lines on stdout), the judging of
// the run, the advice built from what was read, both renderings, and the HTML report's reader of a saved
// tune --json, on arbitrary bytes and on the tune --json written from them (what tune writes, report --tune
// must read). Seeds: tests/fixtures/tune/*.jsonl and fuzz/seeds/tune_protocol_fuzz/.
#include <cstddef>
#include <cstdint>
#include <string>

#include "report/tune_input.h"
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
  TuneAdvice advice = BuildTuneAdvice(run.output);
  for (const auto& m : advice.models)
    if (m.recommended_rate && !(*m.recommended_rate > 0)) __builtin_trap();
  (void)RenderTuneText(run, advice, TuneReportContext{});
  const std::string saved = RenderTuneJson(run, advice, TuneReportContext{});
  if (!ParseTuneJson(saved, "tune.json").ok()) __builtin_trap();
  (void)ParseTuneJson(r.stdout_text, "fuzz.json");  // the report's reader of a saved tune --json
  TuneLineSplitter splitter;
  size_t lines = 0;
  splitter.Feed(r.stdout_text, [&](std::string_view) { ++lines; });
  return 0;
}
