// The sustained-load gate: bf16 GEMMs back to back for N seconds while the telemetry is read between
// batches (clocks, temperature, power, throttle reasons, ECC counters). The result of the first GEMM is kept
// and the last one must match it bit for bit: the same inputs through the same library on the same GPU give
// the same bits, so a difference means the GPU computed wrongly under heat or load.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <vector>

#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/gemm_check.h"
#include "gates/sustained_analysis.h"
#include "gates/worker_sampler.h"

namespace gpudoctor {
namespace {

// The GEMM every batch repeats, its buffers (a, b, c) and the bits of its first result.
struct SustainedGemm {
  int n = 0;
  size_t count = 0;  // elements of each matrix
  std::vector<DeviceBuffer> buffers;
  GemmRequest request{};
  std::vector<uint8_t> first;
};

// Picks the size, uploads random bf16 operands, runs the GEMM once and keeps its result.
Result<SustainedGemm> PrepareGemm(GateContext& ctx) {
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return mem.error();
  // Large enough to keep the GPU busy; the quick level takes a smaller one to stay within its 10 s.
  int n = ctx.options.level == VerifyLevel::kQuick ? 4096 : 8192;
  while (n > 64 && 3ull * n * n * 2 > mem->free_bytes / 16) n /= 2;
  SustainedGemm g;
  g.n = n;
  g.count = static_cast<size_t>(n) * n;
  uint64_t seed = FreshSeed();
  GemmOperand a = RandomOperand(GemmType::kBF16, g.count, seed),
              b = RandomOperand(GemmType::kBF16, g.count, ~seed);
  for (int i = 0; i < 3; ++i) {
    auto buffer = AllocateBuffer(ctx.backend, g.count * 2);
    if (!buffer) return buffer.error();
    g.buffers.push_back(std::move(*buffer));
  }
  Status s = ctx.backend.CopyToDevice(g.buffers[0].get(), a.bytes.data(), a.bytes.size());
  if (s) s = ctx.backend.CopyToDevice(g.buffers[1].get(), b.bytes.data(), b.bytes.size());
  g.request = GemmRequest{GemmType::kBF16,   false, n, n, n, g.buffers[0].get(), g.buffers[1].get(),
                          g.buffers[2].get()};
  if (s) s = ctx.backend.Gemm(g.request);
  if (s) s = ctx.backend.Synchronize();
  if (!s) return s.error();
  g.first.resize(g.count * 2);
  if (auto cp = ctx.backend.CopyToHost(g.first.data(), g.buffers[2].get(), g.first.size()); !cp)
    return cp.error();
  return g;
}

// What the load phase saw: how many GEMMs in how much GPU time, and the telemetry before, between the
// batches and after.
struct LoadRun {
  uint64_t gemms = 0;
  double busy_ms = 0;
  double wall_ms = 0;
  std::optional<TelemetrySample> before, after;
  std::string telemetry_error;  // why there was no reading before the load
  std::vector<TelemetrySample> readings;
};

// Batches of about 200 ms for `seconds`, timed by events, with a reading of the GPU's sampler after each.
Result<LoadRun> RunUnderLoad(GateContext& ctx, const GemmRequest& req, double seconds) {
  LoadRun run;
  std::unique_ptr<GpuSampler> sampler;
  if (auto opened = OpenDeviceSampler(ctx.backend, ctx.device_ordinal.value_or(0), ctx.open_sampler); opened)
    sampler = std::move(opened).value();
  else
    run.telemetry_error = opened.error().message;
  if (sampler) {
    if (auto t = sampler->Read(); t)
      run.before = *t;
    else
      run.telemetry_error = t.error().message;
  }
  auto ev0 = ctx.backend.CreateEvent(), ev1 = ctx.backend.CreateEvent();
  if (!ev0) return ev0.error();
  if (!ev1) return ev1.error();
  auto start = std::chrono::steady_clock::now();
  int batch = 1;
  while (MsSince(start) < seconds * 1000.0) {
    Status t = ctx.backend.RecordEvent(*ev0);
    for (int i = 0; t && i < batch; ++i) t = ctx.backend.Gemm(req);
    if (t) t = ctx.backend.RecordEvent(*ev1);
    if (!t) return t.error().With("GEMM " + std::to_string(run.gemms + 1) + " under load");
    auto ms = ctx.backend.ElapsedMs(*ev0, *ev1);
    if (!ms) return ms.error().With("under load");
    run.gemms += static_cast<uint64_t>(batch);
    run.busy_ms += *ms;
    if (*ms > 0) batch = std::clamp(static_cast<int>(batch * 200.0 / *ms), 1, 10000);
    if (run.before) {
      if (auto r = sampler->Read(); r) run.readings.push_back(*r);
    }
  }
  if (auto y = ctx.backend.Synchronize(); !y) return y.error();
  if (run.before) {
    if (auto t = sampler->Read(); t) run.after = *t;
  }
  run.wall_ms = MsSince(start);
  return run;
}

size_t ElementsChanged(const std::vector<uint8_t>& first, const std::vector<uint8_t>& last, size_t count) {
  size_t changed = 0;
  for (size_t i = 0; i < count; ++i)
    if (std::memcmp(first.data() + 2 * i, last.data() + 2 * i, 2) != 0) ++changed;
  return changed;
}

// "83 C", "n/a".
template <typename T>
std::string Reading(const std::optional<T>& x, const char* unit) {
  if (!x) return "n/a";
  char text[32];
  std::snprintf(text, sizeof text, *unit ? "%.0f %s" : "%.0f", static_cast<double>(*x), unit);
  return text;
}

// The verdict: failed when the result changed or the telemetry shows a problem, else passed; the figures
// either way.
GateResult Judge(GateContext& ctx, const SustainedGemm& g, const LoadRun& run, size_t changed,
                 double seconds) {
  SustainedVerdict v = AnalyzeSustained(run.readings, run.before, run.after);
  const int n = g.n;
  double tflops = run.busy_ms > 0 ? 2.0 * n * static_cast<double>(n) * n * static_cast<double>(run.gemms) /
                                        (run.busy_ms * 1e9)
                                  : 0;
  GateResult r;
  r.gate = "sustained";
  r.libraries = ctx.backend.Libraries();
  r.figures.push_back({"bf16 rate under load", tflops, "TFLOP/s"});
  if (v.max_temperature_c) r.figures.push_back({"max temperature", *v.max_temperature_c, "C"});
  if (v.max_power_watts) r.figures.push_back({"max power", *v.max_power_watts, "W"});
  if (v.min_sm_clock_mhz)
    r.figures.push_back({"min SM clock", static_cast<double>(*v.min_sm_clock_mhz), "MHz"});
  if (v.max_sm_clock_mhz)
    r.figures.push_back({"max SM clock", static_cast<double>(*v.max_sm_clock_mhz), "MHz"});
  char line[256];
  std::snprintf(line, sizeof line, "%.1f s of %dx%dx%d bf16 GEMMs (%llu); %d telemetry readings",
                run.wall_ms / 1000.0, n, n, n, static_cast<unsigned long long>(run.gemms), v.readings);
  r.details.push_back(line);
  for (const auto& note : v.notes) r.details.push_back(note);
  if (!run.before) r.findings.push_back("no telemetry under load: " + run.telemetry_error);
  std::vector<std::string> problems = v.problems;
  if (changed)
    problems.push_back("the result changed under load: " + std::to_string(changed) + " of " +
                       std::to_string(g.count) + " elements differ from the first run on the same inputs");
  if (!problems.empty()) {
    r.status = GateStatus::kFail;
    r.summary = problems.front();
    for (size_t i = 1; i < problems.size(); ++i) r.details.push_back(problems[i]);
    r.hint =
        "check the cooling and power delivery (fans, airflow, power cables), then run --level long again";
    return r;
  }
  r.status = GateStatus::kPass;
  std::snprintf(line, sizeof line, "%.0f TFLOP/s for %.0f s; results stable; max %s, %s; SM clock %s-%s",
                tflops, seconds, Reading(v.max_temperature_c, "C").c_str(),
                Reading(v.max_power_watts, "W").c_str(), Reading(v.min_sm_clock_mhz, "").c_str(),
                Reading(v.max_sm_clock_mhz, "MHz").c_str());
  r.summary = line;
  return r;
}

}  // namespace

GateResult RunSustainedGate(GateContext& ctx) {
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("sustained", s.error());
  auto gemm = PrepareGemm(ctx);
  if (!gemm) return FailedGate("sustained", gemm.error());
  const double seconds = EffectiveSustainSeconds(ctx.options);
  auto run = RunUnderLoad(ctx, gemm->request, seconds);
  if (!run) return FailedGate("sustained", run.error());
  std::vector<uint8_t> last(gemm->first.size());
  if (auto cp = ctx.backend.CopyToHost(last.data(), gemm->buffers[2].get(), last.size()); !cp)
    return FailedGate("sustained", cp.error());
  return Judge(ctx, *gemm, *run, ElementsChanged(gemm->first, last, gemm->count), seconds);
}

}  // namespace gpudoctor
