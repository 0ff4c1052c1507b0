// One recorded machine (h100-sxm-server's NVML answers, .gpudoctor/nvml.json) read by all four users of
// telemetry: monitor (the TelemetryReader and its JSON), serve (the Prometheus page), verify (the sustained
// gate, through the per-GPU sampler its worker opens) and bench (the readings under load, through the
// worker's telemetry line). They must report the same values, in the same units, under the same names.
#include <gtest/gtest.h>

#include "bench/bench_protocol.h"
#include "bench_test_util.h"
#include "exporter/prometheus_text.h"
#include "gates/gate_context.h"
#include "gates/gate_fake_kernels.h"
#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_reader.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;

constexpr const char* kAgreementMachine = "h100-sxm-server";
constexpr const char* kAgreementGpu = "0000:18:00.0";

// A fake GPU at the recorded GPU 0's address, so the worker's sampler is opened for that GPU.
std::string FakeAtTheRecordedGpu() {
  return std::string(R"({"devices": [{"name": "Fake GPU", "pci_address": ")") + kAgreementGpu +
         R"(", "arch": "sm_90", "compute_units": 4, "memory_total_bytes": 16777216}]})";
}

class TelemetryAgreement : public ::testing::Test {
 protected:
  void SetUp() override {
    static const auto db = LoadEmbeddedKnowledge();
    inputs_ = MakeRecordedInputs(kFixtures + kAgreementMachine, db.ok() ? &db.value() : nullptr);
    TelemetryReader reader(*inputs_.fs, inputs_.live, ProbeMachine(inputs_));
    std::vector<std::string> warnings;
    monitor_ = reader.Read(warnings);
    ASSERT_FALSE(monitor_.empty());
    ASSERT_EQ(monitor_[0].device.pci_address, kAgreementGpu);
  }

  // The opener a worker on this recorded machine would have.
  GpuSamplerOpener RecordedOpener() const {
    const FileSystem& fs = *inputs_.fs;
    return [&fs](const std::string& pci) { return OpenGpuSampler(fs, false, {"nvidia", pci}); };
  }

  ProbeInputs inputs_;
  std::vector<TelemetrySample> monitor_;
};

TEST_F(TelemetryAgreement, MonitorAndServeShowTheRecordedWatts) {
  const TelemetrySample& gpu0 = monitor_[0];
  ASSERT_TRUE(gpu0.power_watts.has_value());
  EXPECT_DOUBLE_EQ(*gpu0.power_watts, 612.418);
  EXPECT_NE(SampleToJsonText(gpu0).find(R"("power_watts":612.418)"), std::string::npos);
  std::string page = RenderPrometheusText(monitor_, 0, 0.01);
  EXPECT_NE(page.find("gpudoctor_power_watts{"), std::string::npos);
  EXPECT_NE(page.find("} 612.418\n"), std::string::npos) << page.substr(0, 2000);
}

TEST_F(TelemetryAgreement, VerifysSustainedGateReportsWhatMonitorShows) {
  auto backend = FakeBackend::FromScript(FakeAtTheRecordedGpu(), GateFakeKernels());
  ASSERT_TRUE(backend.ok()) << backend.error().message;
  GateOptions options;
  options.sustain_seconds = 0.2;
  GateContext ctx{**backend, options, "", stderr, std::nullopt, RecordedOpener()};
  GateResult r = RunGate(GateId::kSustained, ctx);
  ASSERT_EQ(r.status, GateStatus::kPass) << r.summary;
  const TelemetrySample& gpu0 = monitor_[0];
  std::map<std::string, std::pair<double, std::string>> figures;
  for (const auto& f : r.figures) figures[f.label] = {f.value, f.unit};
  EXPECT_EQ(figures["max power"], std::make_pair(*gpu0.power_watts, std::string("W")));
  EXPECT_EQ(figures["max temperature"], std::make_pair(*gpu0.temperature_c, std::string("C")));
  EXPECT_EQ(figures["max SM clock"],
            std::make_pair(static_cast<double>(*gpu0.sm_clock_mhz), std::string("MHz")));
}

TEST_F(TelemetryAgreement, BenchsReadingsUnderLoadAreMonitorsSample) {
  auto backend = FakeBackend::FromScript(FakeAtTheRecordedGpu(), BenchFakeKernels());
  ASSERT_TRUE(backend.ok()) << backend.error().message;
  auto groups = MakeBenchmarks();
  Benchmark* memory = FindGroup(groups, "memory");
  ASSERT_NE(memory, nullptr);
  std::vector<std::string> ids;
  for (const auto& s : memory->Specs()) ids.push_back(s.id);
  CollectingSink sink;
  BenchOptions options;
  BenchContext ctx{**backend, options, sink, "", stderr, 0, RecordedOpener(), nullptr};
  memory->Run(ctx, ids);
  ASSERT_FALSE(sink.telemetry.empty());
  // What the parent reads back from the worker's line is the sample monitor prints, field for field.
  auto line = BenchTelemetryFromLine(BenchTelemetryLine(sink.telemetry.front()));
  ASSERT_TRUE(line.ok()) << line.error().message;
  EXPECT_EQ(SampleToJsonText(line->reading), SampleToJsonText(monitor_[0]));
}

}  // namespace
}  // namespace gpudoctor
