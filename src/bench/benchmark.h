// One benchmark group as a small class (name, help, run), and what it sees inside the worker: the backend,
// the options, and where its results and telemetry go. The groups are one explicit list (bench_list.cpp);
// each lives in its own file (bench_memory.cpp, bench_transfer.cpp, bench_gemm.cpp, bench_latency.cpp).
#pragma once

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/bench_types.h"
#include "gpu/backend.h"
#include "telemetry/gpu_sampler.h"

namespace gpudoctor {

struct BenchOptions {
  BenchLevel level = BenchLevel::kQuick;
  bool plant_wrong = false;  // --inject wrong-result: the triad writes one wrong element
};

// Where a running benchmark reports. The worker's sink prints JSON lines for the parent; tests collect.
class BenchSink {
 public:
  virtual ~BenchSink() = default;
  // `id` starts now: a crash or a hang from here on is blamed on it, and its time limit starts.
  virtual void Begin(const std::string& id) = 0;
  // `id` is done (whatever its outcome).
  virtual void Emit(const BenchResult& result) = 0;
  virtual void Telemetry(const BenchTelemetry& reading) = 0;
};

struct BenchContext {
  Backend& backend;
  const BenchOptions& options;
  BenchSink& sink;
  std::string device;       // the request's: a PCI address, an index, or "" for the first (worker_device.h)
  std::FILE* log = stderr;  // diagnostics only
  int device_ordinal = 0;   // the backend's ordinal of `device`, set by OpenBenchDevice
  // Opens the telemetry sampler of the GPU at a PCI address (gates/worker_sampler.h in the worker, a
  // scripted one in tests); empty: no telemetry.
  GpuSamplerOpener open_sampler;
  std::unique_ptr<GpuSampler> sampler;  // the open device's, opened by OpenBenchDevice; null: none
};

class Benchmark {
 public:
  virtual ~Benchmark() = default;
  virtual std::string Name() const = 0;  // the group: "memory"
  virtual std::string Help() const = 0;  // what it measures and how it checks itself, one paragraph
  virtual std::vector<BenchSpec> Specs() const = 0;  // its benchmarks, in the order they run
  // The time one of its benchmarks may take at `level` before the worker gives up on it.
  virtual std::chrono::seconds TimeLimit(BenchLevel level) const = 0;
  // Runs `ids` (some of Specs(), in that order): sink.Begin(id) before each, sink.Emit(result) after each,
  // whatever happens; never throws on a GPU error (it becomes the result).
  virtual void Run(BenchContext& ctx, const std::vector<std::string>& ids) = 0;
};

// The groups, in the order `bench` runs them: memory, transfer, gemm, latency.
std::vector<std::unique_ptr<Benchmark>> MakeBenchmarks();
// Every benchmark's spec, in order; the one with `id`, or nullptr.
std::vector<BenchSpec> AllBenchSpecs();
Benchmark* FindGroup(const std::vector<std::unique_ptr<Benchmark>>& groups, const std::string& name);

}  // namespace gpudoctor
