// The benchmarks' shared helpers (see bench_support.h).
#include "bench/bench_support.h"

#include <algorithm>
#include <cstdio>

#include "gates/worker_sampler.h"
#include "platform/process.h"
#include "worker/worker_device.h"

namespace gpudoctor {

Status OpenBenchDevice(BenchContext& ctx) {
  auto ordinal = OpenWorkerDevice(ctx.backend, ctx.device);
  if (!ordinal) return ordinal.error();
  ctx.device_ordinal = *ordinal;
  // Opened now, not under load: loading a telemetry library takes longer than a benchmark's busy moment.
  ctx.sampler.reset();
  if (ctx.open_sampler) {
    if (auto sampler = OpenDeviceSampler(ctx.backend, *ordinal, ctx.open_sampler); sampler)
      ctx.sampler = std::move(sampler).value();
    else
      std::fprintf(ctx.log, "gpudoctor worker: no telemetry: %s\n", sampler.error().message.c_str());
  }
  return Ok{};
}

BenchResult ErrorResult(const BenchSpec& spec, const Error& error) {
  BenchResult r;
  r.spec = spec;
  r.run = BenchRun::kError;
  r.note = error.message + (error.hint.empty() ? "" : " (" + error.hint + ")");
  return r;
}

BenchResult SkippedResult(const BenchSpec& spec, std::string why) {
  BenchResult r;
  r.spec = spec;
  r.run = BenchRun::kSkipped;
  r.note = std::move(why);
  return r;
}

const BenchSpec& SpecById(const std::vector<BenchSpec>& specs, const std::string& id) {
  for (const auto& s : specs)
    if (s.id == id) return s;
  return specs.front();
}

void FailAll(BenchContext& ctx, const std::vector<BenchSpec>& specs, const std::vector<std::string>& ids,
             const Error& error) {
  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    ctx.sink.Emit(ErrorResult(SpecById(specs, id), error));
  }
}

Result<std::vector<double>> TimeBackToBack(Backend& backend, int count, const std::function<Status()>& work) {
  std::vector<EventId> events;
  auto release = [&]() {
    for (EventId e : events) (void)backend.DestroyEvent(e);
  };
  for (int i = 0; i <= count; ++i) {
    auto e = backend.CreateEvent();
    if (!e) {
      release();
      return e.error();
    }
    events.push_back(*e);
  }
  Status s = backend.RecordEvent(events[0]);
  for (int i = 0; s && i < count; ++i) {
    s = work();
    if (s) s = backend.RecordEvent(events[static_cast<size_t>(i) + 1]);
  }
  std::vector<double> ms;
  for (int i = 0; s && i < count; ++i) {
    auto t = backend.ElapsedMs(events[static_cast<size_t>(i)], events[static_cast<size_t>(i) + 1]);
    if (!t)
      s = t.error();
    else
      ms.push_back(static_cast<double>(*t));
  }
  if (!s) {
    (void)backend.Synchronize();
    release();
    return s.error();
  }
  release();
  return ms;
}

Result<double> BestTime(Backend& backend, int count, const std::function<Status()>& work) {
  auto ms = TimeBackToBack(backend, count, work);
  if (!ms) return ms.error();
  if (ms->empty()) return InternalError("no timed runs");
  return *std::min_element(ms->begin(), ms->end());
}

Result<PinnedBuffer> PinnedBuffer::Allocate(Backend& backend, uint64_t bytes, uint64_t min_bytes) {
  Error last = EnvError("no pinned memory requested");
  for (uint64_t size = bytes; size >= min_bytes && size > 0; size /= 2) {
    auto p = backend.AllocatePinnedHost(size);
    if (p) return PinnedBuffer(backend, *p, size);
    last = p.error();
  }
  return last;
}

PinnedBuffer::PinnedBuffer(PinnedBuffer&& o) noexcept : backend_(o.backend_), ptr_(o.ptr_), bytes_(o.bytes_) {
  o.ptr_ = nullptr;
}

PinnedBuffer::~PinnedBuffer() {
  if (ptr_) (void)backend_->FreePinnedHost(ptr_);
}

std::vector<uint64_t> GeometricSizes(uint64_t first, uint64_t last, uint64_t factor) {
  std::vector<uint64_t> out;
  for (uint64_t s = first; s > 0 && s <= last; s *= factor) {
    out.push_back(s);
    if (factor < 2) break;
  }
  if (!out.empty() && out.back() != last) out.push_back(last);
  return out;
}

std::vector<uint64_t> FitSizes(const std::vector<uint64_t>& wanted, uint64_t limit, uint64_t floor) {
  std::vector<uint64_t> out;
  for (uint64_t s : wanted)
    if (s <= limit) out.push_back(s);
  if (!out.empty() || limit < floor || floor == 0) return out;
  uint64_t p = floor;
  while (p * 2 <= limit) p *= 2;
  return {p};
}

std::string ShortSize(uint64_t bytes) {
  const char* units[] = {"", "K", "M", "G", "T"};
  int u = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024 && u < 4 && static_cast<uint64_t>(v) % 1024 == 0) {
    v /= 1024;
    ++u;
  }
  char b[32];
  std::snprintf(b, sizeof b, "%.0f%s", v, units[u]);
  return b;
}

double MedianOf(std::vector<double> values) {
  if (values.empty()) return 0;
  size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<long>(mid), values.end());
  double m = values[mid];
  if (values.size() % 2 == 0) {
    double below = *std::max_element(values.begin(), values.begin() + static_cast<long>(mid));
    m = (m + below) / 2;
  }
  return m;
}

void ReadTelemetryUnderLoad(BenchContext& ctx, const std::string& id,
                            const std::function<Status()>& keep_busy) {
  Status queued = keep_busy();
  Result<TelemetrySample> reading =
      ctx.sampler ? ctx.sampler->Read() : Result<TelemetrySample>(EnvError("no telemetry sampler"));
  (void)ctx.backend.Synchronize();
  if (!queued || !reading) return;
  ctx.sink.Telemetry(BenchTelemetry{id, *reading, CurrentProcessId()});
}

}  // namespace gpudoctor
