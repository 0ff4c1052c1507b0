// The bench worker (see bench_job.h): builds the backend the request names, runs the group's
// benchmarks through a sink that prints each line as it happens, and turns an exception into results.
#include "bench/bench_job.h"

#include <algorithm>
#include <exception>
#include <set>

#include "bench/bench_fake_kernels.h"
#include "bench/bench_protocol.h"
#include "bench/bench_support.h"
#include "gates/worker_sampler.h"
#include "worker/worker_backend.h"
#include "worker/worker_protocol.h"
#include "worker/worker_watchdog.h"

namespace gpudoctor {
namespace {

// Prints every line through the watchdog, which arms each benchmark's limit on Begin.
class WorkerSink final : public BenchSink {
 public:
  WorkerSink(WorkerWatchdog& watchdog, std::chrono::seconds limit) : watchdog_(watchdog), limit_(limit) {}
  void Begin(const std::string& id) override {
    watchdog_.Start(limit_, WorkerTimeoutLine(id, static_cast<long>(limit_.count())));
    watchdog_.Print(WorkerBeginLine(id));
  }
  void Emit(const BenchResult& result) override {
    answered_.insert(result.spec.id);
    watchdog_.Report(BenchResultLine(result));
  }
  void Telemetry(const BenchTelemetry& reading) override { watchdog_.Print(BenchTelemetryLine(reading)); }
  bool Answered(const std::string& id) const { return answered_.count(id) > 0; }

 private:
  WorkerWatchdog& watchdog_;
  std::chrono::seconds limit_;
  std::set<std::string> answered_;
};

int RunBenchmarks(const WorkerRequest& worker_request, const Environment& env, std::FILE* out,
                  std::FILE* err) {
  auto request = BenchRequestFromWorker(worker_request);
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  auto groups = MakeBenchmarks();
  Benchmark* group = FindGroup(groups, request->group);
  if (!group) {
    std::fprintf(err, "gpudoctor worker: unknown benchmark group %s\n", request->group.c_str());
    return 3;
  }
  const auto specs = group->Specs();
  for (const auto& id : request->ids)
    if (std::none_of(specs.begin(), specs.end(), [&](const BenchSpec& s) { return s.id == id; })) {
      std::fprintf(err, "gpudoctor worker: %s is not a benchmark of group %s\n", id.c_str(),
                   request->group.c_str());
      return 3;
    }
  WorkerWatchdog watchdog(out);
  auto backend = MakeWorkerBackend(worker_request, env, BenchFakeKernels());
  if (!backend) {
    watchdog.Print(WorkerErrorLine(backend.error()));
    return 0;
  }
  WorkerSink sink(watchdog, request->target.limit.value_or(group->TimeLimit(request->options.level)));
  BenchContext ctx{*backend->backend,
                   request->options,
                   sink,
                   request->target.device,
                   err,
                   0,
                   WorkerSamplerOpener(worker_request.backend, *backend, env),
                   nullptr};
  try {
    group->Run(ctx, request->ids);
  } catch (const std::exception& e) {
    Error error = InternalError(std::string("the benchmark raised an exception: ") + e.what());
    for (const auto& id : request->ids)
      if (!sink.Answered(id)) sink.Emit(ErrorResult(SpecById(specs, id), error));
  }
  return 0;
}

}  // namespace

WorkerJob BenchJob() {
  return {kWorkerBench, RunBenchmarks};
}

}  // namespace gpudoctor
