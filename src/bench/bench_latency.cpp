// Kernel launch latency, with a kernel that does next to nothing (thread 0 of block 0 adds one to a
// counter), over a sweep of grid sizes (blocks of 64 threads):
//   submit         host time per launch through gpudoctor's launch path (Backend::Launch), in batches of
//                  32 back-to-back launches, the GPU drained between batches; the median batch
//   driver_submit  the same harness around the vendor's launch call alone, everything resolved ahead
//                  (Backend::PrepareDriverLaunch): the reference for the overhead of gpudoctor's own path;
//                  batches of the two alternate, so drift in clocks or load hits both alike
//   roundtrip      host time of one launch plus the synchronize that waits for it; the median
// The check: every launch and synchronize returned success and the counter equals the number of launches.
#include <algorithm>
#include <chrono>

#include "bench/bench_kernels.h"
#include "bench/bench_support.h"
#include "core/strings.h"
#include "gates/gate_context.h"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kSubmit = "latency.submit";
constexpr const char* kDriverSubmit = "latency.driver_submit";
constexpr const char* kRoundTrip = "latency.roundtrip";
constexpr int kBatch = 32;
constexpr Dim3 kBlock64{64, 1, 1};

double MicrosSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

class LatencyBenchmark final : public Benchmark {
 public:
  std::string Name() const override { return "latency"; }
  std::string Help() const override {
    return "Kernel launch latency: the host time to submit a launch through gpudoctor's path and through "
           "the bare driver call (the reference), and a launch plus synchronize round trip; every launch is "
           "counted on the device.";
  }
  std::vector<BenchSpec> Specs() const override {
    return {{kSubmit, "latency", "Kernel launch: submit time per launch (gpudoctor's launch path)", "us",
             "grid size", "blocks", false},
            {kDriverSubmit, "latency", "Kernel launch: submit time per launch (bare driver call, reference)",
             "us", "grid size", "blocks", false},
            {kRoundTrip, "latency", "Kernel launch + synchronize round trip", "us", "grid size", "blocks",
             false}};
  }
  std::chrono::seconds TimeLimit(BenchLevel level) const override {
    return std::chrono::seconds(level == BenchLevel::kQuick ? 30 : 60);
  }
  void Run(BenchContext& ctx, const std::vector<std::string>& ids) override;
};

// What every measurement shares: the tick kernel, the device counter it adds to, and the sweep's settings.
struct LatencyRig {
  BenchContext& ctx;
  FunctionId tick;
  DevicePtr counter;
  KernelArgs args;
  std::vector<uint32_t> grids;
  int batches;     // submit: alternating batches per grid size
  int roundtrips;  // roundtrip: timed launches per grid size
};

Status ResetCounter(const LatencyRig& rig) {
  return rig.ctx.backend.Memset32(rig.counter, 0, 2);
}

// "" when the counter matches the launches, else what it holds.
Result<std::string> CounterMismatch(const LatencyRig& rig, uint64_t launched, uint32_t grid) {
  if (auto s = rig.ctx.backend.Synchronize(); !s) return s.error();
  uint64_t seen = 0;
  if (auto s = rig.ctx.backend.CopyToHost(&seen, rig.counter, 8); !s) return s.error();
  if (seen == launched) return std::string();
  return "at " + std::to_string(grid) + " blocks the kernel ran " + std::to_string(seen) + " times for " +
         std::to_string(launched) + " launches";
}

void MarkFailed(BenchResult& r, const std::string& why) {
  if (r.check != BenchCheck::kPassed) return;
  r.check = BenchCheck::kFailed;
  r.check_detail = why;
}

// Emits `r`: an error result keeping the points measured before `failure`, or the measured result.
void Finish(BenchContext& ctx, BenchResult r, const std::optional<Error>& failure,
            Clock::time_point started) {
  if (failure) {
    BenchResult e = ErrorResult(r.spec, *failure);
    e.points = r.points;
    r = e;
  } else {
    r.best = BestOf(r.points, false);
  }
  r.elapsed_ms = MsSince(started);
  ctx.sink.Emit(r);
}

// Microseconds per launch of one batch through gpudoctor's launch path.
Result<double> OurBatch(const LatencyRig& rig, uint32_t grid) {
  auto t0 = Clock::now();
  for (int i = 0; i < kBatch; ++i)
    if (auto s = rig.ctx.backend.Launch(rig.tick, Dim3{grid, 1, 1}, kBlock64, rig.args); !s) return s.error();
  return MicrosSince(t0) / kBatch;
}

// Microseconds per launch of one batch of the bare driver call.
Result<double> BareBatch(const DriverLaunch& driver) {
  auto t0 = Clock::now();
  for (int i = 0; i < kBatch; ++i)
    if (int rc = driver(); rc != 0)
      return EnvError("the bare driver launch returned error code " + std::to_string(rc));
  return MicrosSince(t0) / kBatch;
}

// Which submit figures were asked for.
struct SubmitWanted {
  bool ours;
  bool bare;
};

// One grid size's submit times: each batch's microseconds per launch, and the launches the counter must show.
struct SubmitSample {
  std::vector<double> ours_us, bare_us;
  uint64_t launches = 0;
};

// Two warm-up rounds of both, then batches of the two alternating (which goes first alternates too), the
// GPU drained before each batch.
Result<SubmitSample> MeasureSubmit(const LatencyRig& rig, uint32_t grid, SubmitWanted want) {
  auto driver = rig.ctx.backend.PrepareDriverLaunch(rig.tick, Dim3{grid, 1, 1}, kBlock64, rig.args);
  if (!driver) return driver.error();
  if (auto s = ResetCounter(rig); !s) return s.error();
  SubmitSample sample;
  for (int w = 0; w < 2; ++w) {  // loads the function and fills the launch path's caches
    auto a = OurBatch(rig, grid);
    auto b = BareBatch(*driver);
    if (!a) return a.error();
    if (!b) return b.error();
    sample.launches += 2 * kBatch;
  }
  for (int i = 0; i < rig.batches; ++i) {
    if (auto s = rig.ctx.backend.Synchronize(); !s) return s.error();
    bool ours_first = i % 2 == 0;
    for (int half = 0; half < 2; ++half) {
      bool run_ours = (half == 0) == ours_first;
      if (run_ours ? !want.ours : !want.bare) continue;
      auto us = run_ours ? OurBatch(rig, grid) : BareBatch(*driver);
      if (!us) return us.error();
      (run_ours ? sample.ours_us : sample.bare_us).push_back(*us);
      sample.launches += kBatch;
      if (half == 0)
        if (auto s = rig.ctx.backend.Synchronize(); !s) return s.error();
    }
  }
  return sample;
}

// latency.submit and latency.driver_submit: both come out of one interleaved measurement, which runs under
// the first one's name.
void RunSubmit(const LatencyRig& rig, const std::vector<BenchSpec>& specs, SubmitWanted want) {
  BenchContext& ctx = rig.ctx;
  ctx.sink.Begin(want.ours ? kSubmit : kDriverSubmit);
  auto started = Clock::now();
  BenchResult ours, bare;
  ours.spec = SpecById(specs, kSubmit);
  bare.spec = SpecById(specs, kDriverSubmit);
  ours.check = bare.check = BenchCheck::kPassed;
  std::optional<Error> failure;
  std::string ratio_note;
  for (uint32_t grid : rig.grids) {
    auto sample = MeasureSubmit(rig, grid, want);
    if (!sample) {
      failure = sample.error();
      break;
    }
    auto wrong = CounterMismatch(rig, sample->launches, grid);
    if (!wrong) {
      failure = wrong.error();
      break;
    }
    if (!wrong->empty())
      for (BenchResult* r : {&ours, &bare}) MarkFailed(*r, *wrong);
    double m_ours = MedianOf(sample->ours_us), m_bare = MedianOf(sample->bare_us);
    if (want.ours) ours.points.push_back({static_cast<double>(grid), m_ours});
    if (want.bare) bare.points.push_back({static_cast<double>(grid), m_bare});
    if (grid == rig.grids.front() && want.ours && want.bare && m_bare > 0) {
      char line[120];
      std::snprintf(line, sizeof line, "%.3f times the bare driver call at %u block", m_ours / m_bare, grid);
      ratio_note = line;
    }
  }
  std::string how = "median of " + std::to_string(rig.batches) + " batches of " + std::to_string(kBatch) +
                    " back-to-back launches, host clock; batches alternate with the other submit figure";
  ours.note = how + (ratio_note.empty() ? "" : "; " + ratio_note);
  bare.note = how + "; the vendor's launch call with function, shape and arguments resolved ahead";
  if (want.ours) Finish(ctx, ours, failure, started);
  if (want.bare) {
    if (want.ours) ctx.sink.Begin(kDriverSubmit);
    Finish(ctx, bare, failure, started);
  }
}

// One grid size's round trips, after ten untimed: microseconds of each launch plus synchronize.
Result<std::vector<double>> MeasureRoundTrips(const LatencyRig& rig, uint32_t grid, uint64_t& launched) {
  Status s = ResetCounter(rig);
  if (s) s = rig.ctx.backend.Synchronize();
  std::vector<double> us;
  for (int i = 0; s && i < rig.roundtrips + 10; ++i) {
    auto t0 = Clock::now();
    s = rig.ctx.backend.Launch(rig.tick, Dim3{grid, 1, 1}, kBlock64, rig.args);
    if (s) s = rig.ctx.backend.Synchronize();
    double took = MicrosSince(t0);
    ++launched;
    if (i >= 10) us.push_back(took);
  }
  if (!s) return s.error();
  return us;
}

void RunRoundTrip(const LatencyRig& rig, const std::vector<BenchSpec>& specs) {
  rig.ctx.sink.Begin(kRoundTrip);
  auto started = Clock::now();
  BenchResult r;
  r.spec = SpecById(specs, kRoundTrip);
  r.check = BenchCheck::kPassed;
  std::optional<Error> failure;
  for (uint32_t grid : rig.grids) {
    uint64_t launched = 0;
    auto us = MeasureRoundTrips(rig, grid, launched);
    if (!us) {
      failure = us.error();
      break;
    }
    auto wrong = CounterMismatch(rig, launched, grid);
    if (!wrong) {
      failure = wrong.error();
      break;
    }
    if (!wrong->empty()) MarkFailed(r, *wrong);
    r.points.push_back({static_cast<double>(grid), MedianOf(*us)});
  }
  r.note =
      "median of " + std::to_string(rig.roundtrips) + " launches each followed by a synchronize, host clock";
  Finish(rig.ctx, r, failure, started);
}

bool Wants(const std::vector<std::string>& ids, const char* id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

void LatencyBenchmark::Run(BenchContext& ctx, const std::vector<std::string>& ids) {
  const auto specs = Specs();
  if (auto s = OpenBenchDevice(ctx); !s) return FailAll(ctx, specs, ids, s.error());
  auto module = ctx.backend.CompileModule(BenchKernelSource(), kBenchProgramName, {});
  if (!module) return FailAll(ctx, specs, ids, module.error());
  auto tick = ctx.backend.GetFunction(*module, kTickKernel);
  if (!tick) return FailAll(ctx, specs, ids, tick.error());
  auto counter = AllocateBuffer(ctx.backend, 8);
  if (!counter) return FailAll(ctx, specs, ids, counter.error());
  bool quick = ctx.options.level == BenchLevel::kQuick;
  LatencyRig rig{ctx,
                 *tick,
                 counter->get(),
                 {},
                 quick ? std::vector<uint32_t>{1, 64, 4096} : std::vector<uint32_t>{1, 16, 256, 4096, 65536},
                 quick ? 100 : 400,
                 quick ? 300 : 1000};
  rig.args.Ptr(counter->get());
  SubmitWanted want{Wants(ids, kSubmit), Wants(ids, kDriverSubmit)};
  if (want.ours || want.bare) RunSubmit(rig, specs, want);
  if (Wants(ids, kRoundTrip)) RunRoundTrip(rig, specs);
}

}  // namespace

std::unique_ptr<Benchmark> MakeLatencyBenchmark() {
  return std::make_unique<LatencyBenchmark>();
}

}  // namespace gpudoctor
