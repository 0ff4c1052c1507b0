// The judgements gates make, on prepared data: GEMM tolerances and the Frobenius check, the sustained-load
// verdict from telemetry readings, and the fake backend running the gates in-process.
#include <gtest/gtest.h>

#include <cstring>

#include "gates/gate_context.h"
#include "gates/gate_fake_kernels.h"
#include "gates/gemm_check.h"
#include "gates/sustained_analysis.h"
#include "gpu/api/nvml_api.h"
#include "gpu/fake/fake_backend.h"
#include "gpu/numeric.h"
#include "telemetry/telemetry_json.h"

namespace gpudoctor {
namespace {

std::vector<uint8_t> ReferenceGemm(GemmType type, int n, const std::vector<float>& a,
                                   const std::vector<float>& b, float perturb) {
  std::vector<uint8_t> out(static_cast<size_t>(n) * n * ElementBytes(type));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      double acc = 0;
      for (int p = 0; p < n; ++p) acc += static_cast<double>(a[i + p * n]) * b[p + j * n];
      float v = static_cast<float>(acc) * (1.0f + perturb);
      size_t idx = static_cast<size_t>(i + j * n);
      if (type == GemmType::kF32) {
        std::memcpy(out.data() + idx * 4, &v, 4);
      } else {
        uint16_t h = type == GemmType::kF16 ? FloatToHalfBits(v) : FloatToBf16Bits(v);
        std::memcpy(out.data() + idx * 2, &h, 2);
      }
    }
  return out;
}

TEST(GemmCheck, TolerancesAreStated) {
  EXPECT_DOUBLE_EQ(GemmTolerance(GemmType::kF32, false, 4096), 1e-6 * 64);
  EXPECT_DOUBLE_EQ(GemmTolerance(GemmType::kF32, true, 4096), 5e-3);
  EXPECT_DOUBLE_EQ(GemmTolerance(GemmType::kF16, false, 4096), 2e-3);
  EXPECT_DOUBLE_EQ(GemmTolerance(GemmType::kBF16, false, 4096), 1e-2);
}

TEST(GemmCheck, RightResultsPassAndPerturbedOnesFail) {
  const int n = 48;
  for (GemmType t : {GemmType::kF32, GemmType::kF16, GemmType::kBF16}) {
    auto a = RandomOperand(t, n * n, 1), b = RandomOperand(t, n * n, 2);
    auto good = ReferenceGemm(t, n, a.values, b.values, 0);
    EXPECT_TRUE(CheckGemm(t, false, n, n, n, a.values, b.values, good, 500, 3).passed) << ToString(t);
    auto bad = ReferenceGemm(t, n, a.values, b.values, 0.05f);
    EXPECT_FALSE(CheckGemm(t, false, n, n, n, a.values, b.values, bad, 500, 3).passed) << ToString(t);
  }
}

TEST(GemmCheck, NanFails) {
  const int n = 8;
  auto a = RandomOperand(GemmType::kF32, n * n, 1), b = RandomOperand(GemmType::kF32, n * n, 2);
  auto c = ReferenceGemm(GemmType::kF32, n, a.values, b.values, 0);
  std::memset(c.data(), 0xff, 4);
  auto check = CheckGemm(GemmType::kF32, false, n, n, n, a.values, b.values, c, 1000, 3);
  EXPECT_FALSE(check.passed);
  EXPECT_EQ(check.non_finite, 1u);
  EXPECT_EQ(check.samples, 64u);  // all entries when the matrix is small
}

TelemetrySample TelemetryReading(uint32_t clock, double temp, uint64_t reasons_mask) {
  TelemetrySample t;
  t.sm_clock_mhz = clock;
  t.temperature_c = temp;
  t.power_watts = 650;
  t.throttle_reasons_mask = reasons_mask;
  t.throttle_reasons = ThrottleReasonNames(reasons_mask);
  return t;
}

TEST(SustainedAnalysis, PowerCapIsFineThermalSlowdownFails) {
  auto ok = AnalyzeSustained(
      {TelemetryReading(1980, 60, 0), TelemetryReading(1755, 70, kNvmlClocksEventSwPowerCap)}, std::nullopt,
      std::nullopt);
  EXPECT_FALSE(ok.failed);
  EXPECT_EQ(ok.notes, std::vector<std::string>{"sw_power_cap in 1 of 2 readings"});
  EXPECT_EQ(*ok.min_sm_clock_mhz, 1755u);
  EXPECT_DOUBLE_EQ(*ok.max_temperature_c, 70.0);
  EXPECT_DOUBLE_EQ(*ok.max_power_watts, 650.0);
  auto hot = AnalyzeSustained(
      {TelemetryReading(1200, 92, kNvmlClocksEventHwThermalSlowdown | kNvmlClocksEventSwThermalSlowdown)},
      std::nullopt, std::nullopt);
  EXPECT_TRUE(hot.failed);
  ASSERT_EQ(hot.problems.size(), 2u);
  EXPECT_EQ(hot.problems[0], "clocks held down by hw_thermal_slowdown in 1 of 1 readings");
  EXPECT_EQ(hot.problems[1], "clocks held down by sw_thermal_slowdown in 1 of 1 readings");
}

TEST(SustainedAnalysis, NewUncorrectableEccErrorsFail) {
  TelemetrySample before, after;
  before.ecc_uncorrected = 0;
  after.ecc_uncorrected = 2;
  auto v = AnalyzeSustained({}, before, after);
  EXPECT_TRUE(v.failed);
  EXPECT_EQ(v.problems, std::vector<std::string>{"2 new uncorrectable ECC errors during the load"});
}

// The gates themselves, in-process on the fake backend (the worker path is gates_worker_test.cpp).
class FakeGates : public ::testing::Test {
 protected:
  GateResult Run(GateId id, const std::string& script = "{}", InjectedFault fault = InjectedFault::kNone) {
    auto b = FakeBackend::FromScript(script, GateFakeKernels());
    EXPECT_TRUE(b.ok());
    options_.inject = fault;
    options_.sustain_seconds = 0.3;
    GateContext ctx{**b,          options_,
                    "",           stderr,
                    std::nullopt, [script](const std::string&) { return ScriptedSamplerFromJson(script); }};
    return RunGate(id, ctx);
  }
  GateOptions options_;
};

TEST_F(FakeGates, EveryGatePassesOnAHealthyFake) {
  for (const auto& spec : AllGates()) {
    GateResult r = Run(spec.id);
    EXPECT_EQ(r.status, GateStatus::kPass) << spec.name << ": " << r.summary;
    EXPECT_EQ(r.gate, spec.name);
  }
}

TEST_F(FakeGates, CorruptedDataIsCaught) {
  EXPECT_EQ(Run(GateId::kCopy, R"({"corrupt": "copy_to_host"})").status, GateStatus::kFail);
  EXPECT_EQ(Run(GateId::kGemmBf16, R"({"corrupt": "gemm_bf16"})").status, GateStatus::kFail);
  GateResult mem = Run(GateId::kMemtest, R"({"corrupt": "launch"})");
  EXPECT_EQ(mem.status, GateStatus::kFail);
  EXPECT_NE(mem.summary.find("bad words"), std::string::npos) << mem.summary;
}

TEST_F(FakeGates, PlantedFaultsInProcess) {
  GateResult wrong = Run(GateId::kKernel, "{}", InjectedFault::kWrongResult);
  EXPECT_EQ(wrong.status, GateStatus::kFail);
  EXPECT_NE(wrong.summary.find("wrong result: 1 of"), std::string::npos) << wrong.summary;
  GateResult oom = Run(GateId::kAlloc, "{}", InjectedFault::kOversizeAlloc);
  EXPECT_EQ(oom.status, GateStatus::kFail);
  EXPECT_NE(oom.summary.find("out of memory"), std::string::npos) << oom.summary;
}

TEST_F(FakeGates, ThrottlingUnderLoadFailsTheSustainedGate) {
  GateResult r = Run(GateId::kSustained, R"({"telemetry": [{"sm_clock_mhz": 900, "temperature_c": 95,
                                              "throttle_reasons_mask": 8}]})");
  EXPECT_EQ(r.status, GateStatus::kFail);
  EXPECT_NE(r.summary.find("hw_slowdown"), std::string::npos) << r.summary;
}

TEST_F(FakeGates, TheSustainedGateReportsTheSampleInWatts) {
  GateResult r = Run(GateId::kSustained, R"({"telemetry": [{"sm_clock_mhz": 1980, "temperature_c": 61,
                                              "power_watts": 612.5, "throttle_reasons_mask": 4}]})");
  EXPECT_EQ(r.status, GateStatus::kPass) << r.summary;
  bool saw_power = false;
  for (const auto& f : r.figures) {
    if (f.label != "max power") continue;
    saw_power = true;
    EXPECT_DOUBLE_EQ(f.value, 612.5);
    EXPECT_EQ(f.unit, "W");
  }
  EXPECT_TRUE(saw_power);
}

TEST_F(FakeGates, NoTelemetryIsAFindingAndTheLoadStillRuns) {
  GateResult r = Run(GateId::kSustained, R"({"fail": {"telemetry": "NVML is gone"}})");
  EXPECT_EQ(r.status, GateStatus::kPass) << r.summary;
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(r.findings.front(), "no telemetry under load: NVML is gone");
}

TEST_F(FakeGates, ScriptErrorsAreNamed) {
  EXPECT_FALSE(FakeBackend::FromScript("[1]").ok());
  EXPECT_NE(FakeBackend::FromScript(R"({"crash": "explode"})").error().message.find("explode"),
            std::string::npos);
  GateResult r = Run(GateId::kGemmFp16, R"js({"fail": {"gemm_fp16": "CUBLAS_STATUS_NOT_SUPPORTED (15)"}})js");
  EXPECT_EQ(r.status, GateStatus::kFail);
  EXPECT_NE(r.summary.find("CUBLAS_STATUS_NOT_SUPPORTED"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
