// The sustained-load gate: bf16 GEMMs back to back for N seconds while the telemetry is read between
// batches (clocks, temperature, power, throttle reasons, ECC counters). The result of the first GEMM is kept
// and the last one must match it bit for bit: the same inputs through the same library on the same GPU give
// the same bits, so a difference means the GPU computed wrongly under heat or load.
#include <algorithm>
#include <cstring>

#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/gemm_check.h"
#include "gates/sustained_analysis.h"

namespace gpudoctor {

GateResult RunSustainedGate(GateContext& ctx) {
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("sustained", s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate("sustained", mem.error());
  // Large enough to keep the GPU busy; the quick level takes a smaller one to stay within its 10 s.
  int n = ctx.options.level == VerifyLevel::kQuick ? 4096 : 8192;
  while (n > 64 && 3ull * n * n * 2 > mem->free_bytes / 16) n /= 2;
  size_t count = static_cast<size_t>(n) * n;
  uint64_t seed = FreshSeed();
  GemmOperand a = RandomOperand(GemmType::kBF16, count, seed),
              b = RandomOperand(GemmType::kBF16, count, ~seed);
  auto da = AllocateBuffer(ctx.backend, count * 2), db = AllocateBuffer(ctx.backend, count * 2),
       dc = AllocateBuffer(ctx.backend, count * 2);
  for (auto* buf : {&da, &db, &dc})
    if (!*buf) return FailedGate("sustained", buf->error());
  Status s = ctx.backend.CopyToDevice(da->get(), a.bytes.data(), a.bytes.size());
  if (s) s = ctx.backend.CopyToDevice(db->get(), b.bytes.data(), b.bytes.size());
  GemmRequest req{GemmType::kBF16, false, n, n, n, da->get(), db->get(), dc->get()};
  if (s) s = ctx.backend.Gemm(req);
  if (s) s = ctx.backend.Synchronize();
  if (!s) return FailedGate("sustained", s.error());
  std::vector<uint8_t> first(count * 2), last(count * 2);
  if (auto cp = ctx.backend.CopyToHost(first.data(), dc->get(), first.size()); !cp)
    return FailedGate("sustained", cp.error());

  std::vector<std::string> findings;
  std::optional<Telemetry> before, after;
  std::string telemetry_error;
  if (auto t = ctx.backend.ReadTelemetry(); t)
    before = *t;
  else
    telemetry_error = t.error().message;

  // Batches of about 200 ms, timed by events, with a reading after each.
  auto ev0 = ctx.backend.CreateEvent(), ev1 = ctx.backend.CreateEvent();
  if (!ev0) return FailedGate("sustained", ev0.error());
  if (!ev1) return FailedGate("sustained", ev1.error());
  double seconds = EffectiveSustainSeconds(ctx.options);
  auto start = std::chrono::steady_clock::now();
  int batch = 1;
  uint64_t gemms = 0;
  double busy_ms = 0;
  std::vector<Telemetry> readings;
  while (MsSince(start) < seconds * 1000.0) {
    Status t = ctx.backend.RecordEvent(*ev0);
    for (int i = 0; t && i < batch; ++i) t = ctx.backend.Gemm(req);
    if (t) t = ctx.backend.RecordEvent(*ev1);
    if (!t)
      return FailedGate("sustained", t.error().With("GEMM " + std::to_string(gemms + 1) + " under load"));
    auto ms = ctx.backend.ElapsedMs(*ev0, *ev1);
    if (!ms) return FailedGate("sustained", ms.error().With("under load"));
    gemms += static_cast<uint64_t>(batch);
    busy_ms += *ms;
    if (*ms > 0) batch = std::clamp(static_cast<int>(batch * 200.0 / *ms), 1, 10000);
    if (before) {
      if (auto r = ctx.backend.ReadTelemetry(); r) readings.push_back(*r);
    }
  }
  if (auto y = ctx.backend.Synchronize(); !y) return FailedGate("sustained", y.error());
  if (before) {
    if (auto t = ctx.backend.ReadTelemetry(); t) after = *t;
  }
  if (auto cp = ctx.backend.CopyToHost(last.data(), dc->get(), last.size()); !cp)
    return FailedGate("sustained", cp.error());
  size_t changed = 0;
  for (size_t i = 0; i < count; ++i)
    if (std::memcmp(first.data() + 2 * i, last.data() + 2 * i, 2) != 0) ++changed;

  SustainedVerdict v = AnalyzeSustained(readings, before, after);
  double tflops =
      busy_ms > 0 ? 2.0 * n * static_cast<double>(n) * n * static_cast<double>(gemms) / (busy_ms * 1e9) : 0;
  GateResult r;
  r.gate = "sustained";
  r.libraries = ctx.backend.Libraries();
  r.figures.push_back({"bf16 rate under load", tflops, "TFLOP/s"});
  if (v.max_temperature_c)
    r.figures.push_back({"max temperature", static_cast<double>(*v.max_temperature_c), "C"});
  if (v.max_power_mw) r.figures.push_back({"max power", *v.max_power_mw / 1000.0, "W"});
  if (v.min_sm_clock_mhz)
    r.figures.push_back({"min SM clock", static_cast<double>(*v.min_sm_clock_mhz), "MHz"});
  if (v.max_sm_clock_mhz)
    r.figures.push_back({"max SM clock", static_cast<double>(*v.max_sm_clock_mhz), "MHz"});
  char line[256];
  std::snprintf(line, sizeof line, "%.1f s of %dx%dx%d bf16 GEMMs (%llu); %d telemetry readings",
                MsSince(start) / 1000.0, n, n, n, static_cast<unsigned long long>(gemms), v.readings);
  r.details.push_back(line);
  for (const auto& note : v.notes) r.details.push_back(note);
  if (!before) r.findings.push_back("no telemetry under load: " + telemetry_error);
  std::vector<std::string> problems = v.problems;
  if (changed)
    problems.push_back("the result changed under load: " + std::to_string(changed) + " of " +
                       std::to_string(count) + " elements differ from the first run on the same inputs");
  auto fmt = [](const std::optional<uint32_t>& x, double scale, const char* unit) {
    if (!x) return std::string("n/a");
    char text[32];
    std::snprintf(text, sizeof text, *unit ? "%.0f %s" : "%.0f", *x / scale, unit);
    return std::string(text);
  };
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
                tflops, seconds, fmt(v.max_temperature_c, 1, "C").c_str(),
                fmt(v.max_power_mw, 1000, "W").c_str(), fmt(v.min_sm_clock_mhz, 1, "").c_str(),
                fmt(v.max_sm_clock_mhz, 1, "MHz").c_str());
  r.summary = line;
  return r;
}

}  // namespace gpudoctor
