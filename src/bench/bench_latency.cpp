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

struct Tally {
  uint64_t launches = 0;  // launches issued since the counter was reset
};

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
  std::vector<uint32_t> grids =
      quick ? std::vector<uint32_t>{1, 64, 4096} : std::vector<uint32_t>{1, 16, 256, 4096, 65536};
  const int batches = quick ? 100 : 400;
  const int roundtrips = quick ? 300 : 1000;
  KernelArgs args;
  args.Ptr(counter->get());

  auto reset = [&]() { return ctx.backend.Memset32(counter->get(), 0, 2); };
  // "" when the counter matches the launches, else what it holds.
  auto verify = [&](uint64_t launched, uint32_t grid) -> Result<std::string> {
    if (auto s = ctx.backend.Synchronize(); !s) return s.error();
    uint64_t seen = 0;
    if (auto s = ctx.backend.CopyToHost(&seen, counter->get(), 8); !s) return s.error();
    if (seen == launched) return std::string();
    return "at " + std::to_string(grid) + " blocks the kernel ran " + std::to_string(seen) + " times for " +
           std::to_string(launched) + " launches";
  };
  auto finish = [&](BenchResult& r, std::optional<Error>& failure, Clock::time_point started) {
    if (failure) {
      BenchResult e = ErrorResult(r.spec, *failure);
      e.points = r.points;
      r = e;
    } else {
      r.best = BestOf(r.points, false);
    }
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  };

  bool want_submit = std::find(ids.begin(), ids.end(), kSubmit) != ids.end();
  bool want_driver = std::find(ids.begin(), ids.end(), kDriverSubmit) != ids.end();
  if (want_submit || want_driver) {
    // Both submit figures come out of one interleaved measurement; it runs under the first one's name.
    ctx.sink.Begin(want_submit ? kSubmit : kDriverSubmit);
    auto started = Clock::now();
    BenchResult ours, bare;
    ours.spec = SpecById(specs, kSubmit);
    bare.spec = SpecById(specs, kDriverSubmit);
    ours.check = bare.check = BenchCheck::kPassed;
    std::optional<Error> failure;
    std::string ratio_note;
    for (uint32_t grid : grids) {
      if (failure) break;
      auto driver = ctx.backend.PrepareDriverLaunch(*tick, Dim3{grid, 1, 1}, kBlock64, args);
      if (!driver) {
        failure = driver.error();
        break;
      }
      auto ours_batch = [&]() -> Result<double> {
        auto t0 = Clock::now();
        for (int i = 0; i < kBatch; ++i)
          if (auto s = ctx.backend.Launch(*tick, Dim3{grid, 1, 1}, kBlock64, args); !s) return s.error();
        return MicrosSince(t0) / kBatch;
      };
      auto bare_batch = [&]() -> Result<double> {
        auto t0 = Clock::now();
        for (int i = 0; i < kBatch; ++i)
          if (int rc = (*driver)(); rc != 0)
            return EnvError("the bare driver launch returned error code " + std::to_string(rc));
        return MicrosSince(t0) / kBatch;
      };
      Status s = reset();
      Tally tally;
      std::vector<double> ours_us, bare_us;
      // Warm-up: loads the function and fills the launch path's caches.
      for (int w = 0; s && w < 2; ++w) {
        auto a = ours_batch();
        auto b = bare_batch();
        if (!a) s = a.error();
        if (s && !b) s = b.error();
        tally.launches += 2 * kBatch;
      }
      for (int i = 0; s && i < batches; ++i) {
        if (s) s = ctx.backend.Synchronize();
        bool ours_first = i % 2 == 0;
        for (int half = 0; s && half < 2; ++half) {
          bool run_ours = (half == 0) == ours_first;
          if (run_ours && !want_submit) continue;
          if (!run_ours && !want_driver) continue;
          auto us = run_ours ? ours_batch() : bare_batch();
          if (!us) {
            s = us.error();
            break;
          }
          (run_ours ? ours_us : bare_us).push_back(*us);
          tally.launches += kBatch;
          if (half == 0 && s) s = ctx.backend.Synchronize();
        }
      }
      if (!s) {
        failure = s.error();
        break;
      }
      auto wrong = verify(tally.launches, grid);
      if (!wrong) {
        failure = wrong.error();
        break;
      }
      if (!wrong->empty()) {
        for (BenchResult* r : {&ours, &bare})
          if (r->check == BenchCheck::kPassed) {
            r->check = BenchCheck::kFailed;
            r->check_detail = *wrong;
          }
      }
      double m_ours = MedianOf(ours_us), m_bare = MedianOf(bare_us);
      if (want_submit) ours.points.push_back({static_cast<double>(grid), m_ours});
      if (want_driver) bare.points.push_back({static_cast<double>(grid), m_bare});
      if (grid == grids.front() && want_submit && want_driver && m_bare > 0) {
        char line[120];
        std::snprintf(line, sizeof line, "%.3f times the bare driver call at %u block", m_ours / m_bare,
                      grid);
        ratio_note = line;
      }
    }
    std::string how = "median of " + std::to_string(batches) + " batches of " + std::to_string(kBatch) +
                      " back-to-back launches, host clock; batches alternate with the other submit figure";
    ours.note = how + (ratio_note.empty() ? "" : "; " + ratio_note);
    bare.note = how + "; the vendor's launch call with function, shape and arguments resolved ahead";
    if (want_submit) {
      std::optional<Error> f = failure;
      finish(ours, f, started);
    }
    if (want_driver) {
      if (want_submit) ctx.sink.Begin(kDriverSubmit);
      std::optional<Error> f = failure;
      finish(bare, f, started);
    }
  }

  if (std::find(ids.begin(), ids.end(), kRoundTrip) != ids.end()) {
    ctx.sink.Begin(kRoundTrip);
    auto started = Clock::now();
    BenchResult r;
    r.spec = SpecById(specs, kRoundTrip);
    r.check = BenchCheck::kPassed;
    std::optional<Error> failure;
    for (uint32_t grid : grids) {
      if (failure) break;
      Status s = reset();
      if (s) s = ctx.backend.Synchronize();
      uint64_t launched = 0;
      std::vector<double> us;
      for (int i = 0; s && i < roundtrips + 10; ++i) {
        auto t0 = Clock::now();
        s = ctx.backend.Launch(*tick, Dim3{grid, 1, 1}, kBlock64, args);
        if (s) s = ctx.backend.Synchronize();
        double took = MicrosSince(t0);
        ++launched;
        if (i >= 10) us.push_back(took);  // the first ten warm up
      }
      if (!s) {
        failure = s.error();
        break;
      }
      auto wrong = verify(launched, grid);
      if (!wrong) {
        failure = wrong.error();
        break;
      }
      if (!wrong->empty() && r.check == BenchCheck::kPassed) {
        r.check = BenchCheck::kFailed;
        r.check_detail = *wrong;
      }
      r.points.push_back({static_cast<double>(grid), MedianOf(us)});
    }
    r.note =
        "median of " + std::to_string(roundtrips) + " launches each followed by a synchronize, host clock";
    finish(r, failure, started);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeLatencyBenchmark() {
  return std::make_unique<LatencyBenchmark>();
}

}  // namespace gpudoctor
