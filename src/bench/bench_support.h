// Pieces every benchmark group uses inside the worker: opening the device, results for a benchmark that
// could not run, timing with device events, pinned host buffers freed on scope exit, size sweeps bounded by
// the memory there is, and the telemetry reading taken while the GPU is busy.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/benchmark.h"

namespace gpudoctor {

// Loads the runtime and opens the device the options name, mapped to the backend's ordinal through its
// device list (ctx.device_ordinal), and opens that GPU's telemetry sampler (ctx.sampler) when the context
// has an opener; a sampler that cannot open is said on the log and leaves the benchmarks without telemetry.
Status OpenBenchDevice(BenchContext& ctx);

// A result for `spec` that did not measure: kError with the error's message (and hint) as its note.
BenchResult ErrorResult(const BenchSpec& spec, const Error& error);
BenchResult SkippedResult(const BenchSpec& spec, std::string why);
// Begin + Emit(ErrorResult) for each of `ids`: the group could not even start.
void FailAll(BenchContext& ctx, const std::vector<BenchSpec>& specs, const std::vector<std::string>& ids,
             const Error& error);
const BenchSpec& SpecById(const std::vector<BenchSpec>& specs, const std::string& id);

// Times `count` runs of `work` queued back to back with a device event between each two, and waits for the
// last: the GPU never waits for the host between runs, so no launch gap enters the figures (the first run
// may include one; the benchmarks take the best run). Milliseconds of each run, in order.
Result<std::vector<double>> TimeBackToBack(Backend& backend, int count, const std::function<Status()>& work);
// The fastest of those runs.
Result<double> BestTime(Backend& backend, int count, const std::function<Status()>& work);

// Page-locked host memory freed on scope exit.
class PinnedBuffer {
 public:
  // Tries `bytes`, then halves down to `min_bytes` when the system refuses (pinning is capped on some
  // machines); the error of the last try when even that fails.
  static Result<PinnedBuffer> Allocate(Backend& backend, uint64_t bytes, uint64_t min_bytes);
  PinnedBuffer(PinnedBuffer&& o) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(PinnedBuffer&&) = delete;
  ~PinnedBuffer();
  uint8_t* data() const { return static_cast<uint8_t*>(ptr_); }
  uint64_t bytes() const { return bytes_; }

 private:
  PinnedBuffer(Backend& backend, void* p, uint64_t bytes) : backend_(&backend), ptr_(p), bytes_(bytes) {}
  Backend* backend_;
  void* ptr_ = nullptr;
  uint64_t bytes_ = 0;
};

// first, first * factor, ... up to last, and last itself when the steps skip it.
std::vector<uint64_t> GeometricSizes(uint64_t first, uint64_t last, uint64_t factor);
// The sizes of `wanted` that are at most `limit`; when none is, the largest power of two at most `limit`
// that is at least `floor` (a small GPU still gets one point); empty when even `floor` does not fit.
std::vector<uint64_t> FitSizes(const std::vector<uint64_t>& wanted, uint64_t limit, uint64_t floor);
// "64K", "1M", "1G": sizes in the text report's sweep.
std::string ShortSize(uint64_t bytes);
double MedianOf(std::vector<double> values);

// Reads telemetry while `keep_busy` has work queued on the GPU, then waits for it; reports the reading
// to the sink under `id`, through the sampler OpenBenchDevice opened. Telemetry is optional: without a
// sampler, or when it answers nothing, nothing is reported.
void ReadTelemetryUnderLoad(BenchContext& ctx, const std::string& id,
                            const std::function<Status()>& keep_busy);

}  // namespace gpudoctor
