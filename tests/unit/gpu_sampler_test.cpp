// The per-GPU sampler (telemetry/gpu_sampler.h) the verify and bench workers read through: on recorded
// machines it gives the sample `monitor` gives for the same GPU, it says which GPU it cannot watch, and the
// scripted sampler the tests and the fake backend use cycles through its samples. The sample codec carries
// the fields verify and bench read.
#include <gtest/gtest.h>

#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "telemetry/gpu_sampler.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_reader.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;

// What `monitor --sysroot` reads for every GPU of a recorded machine.
std::vector<TelemetrySample> MonitorSamples(const std::string& machine) {
  static const auto db = LoadEmbeddedKnowledge();
  ProbeInputs in = MakeRecordedInputs(kFixtures + machine, db.ok() ? &db.value() : nullptr);
  Snapshot snap = ProbeMachine(in);
  TelemetryReader reader(*in.fs, in.live, snap);
  std::vector<std::string> warnings;
  return reader.Read(warnings);
}

// The per-GPU sampler's reading of the GPU at `pci_address` of a recorded machine.
Result<TelemetrySample> SamplerReading(const std::string& machine, const std::string& vendor,
                                       const std::string& pci_address) {
  auto fs = MakeRootedFileSystem(kFixtures + machine);
  auto sampler = OpenGpuSampler(*fs, false, {vendor, pci_address});
  if (!sampler) return sampler.error();
  return (*sampler)->Read();
}

void ExpectSameMetrics(const TelemetrySample& a, const TelemetrySample& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.device.pci_address, b.device.pci_address);
  EXPECT_EQ(a.memory_used_bytes, b.memory_used_bytes);
  EXPECT_EQ(a.power_watts, b.power_watts);
  EXPECT_EQ(a.temperature_c, b.temperature_c);
  EXPECT_EQ(a.sm_clock_mhz, b.sm_clock_mhz);
  EXPECT_EQ(a.mem_clock_mhz, b.mem_clock_mhz);
  EXPECT_EQ(a.throttle_reasons, b.throttle_reasons);
  EXPECT_EQ(a.processes.size(), b.processes.size());
}

TEST(GpuSampler, RecordedNvidiaGpuReadsAsMonitorReadsIt) {
  auto monitor = MonitorSamples("h100-sxm-server");
  ASSERT_EQ(monitor.size(), 8u);
  auto reading = SamplerReading("h100-sxm-server", "nvidia", "0000:18:00.0");
  ASSERT_TRUE(reading.ok()) << reading.error().message;
  ExpectSameMetrics(*reading, monitor[0]);
  EXPECT_DOUBLE_EQ(reading->power_watts.value(), 612.418);
}

TEST(GpuSampler, RecordedAmdGpuReadsAsMonitorReadsIt) {
  auto monitor = MonitorSamples("rx6700xt-desktop");
  ASSERT_EQ(monitor.size(), 1u);
  auto reading = SamplerReading("rx6700xt-desktop", "amd", "0000:03:00.0");
  ASSERT_TRUE(reading.ok()) << reading.error().message;
  ExpectSameMetrics(*reading, monitor[0]);
  EXPECT_EQ(reading->source, "sysfs");
  EXPECT_DOUBLE_EQ(reading->power_watts.value(), 9.0);
}

TEST(GpuSampler, AGpuNoSourceKnowsIsAnErrorNamingIt) {
  auto nvidia = SamplerReading("h100-sxm-server", "nvidia", "0000:ff:00.0");
  ASSERT_FALSE(nvidia.ok());
  EXPECT_NE(nvidia.error().message.find("0000:ff:00.0"), std::string::npos) << nvidia.error().message;
  auto amd = SamplerReading("vm-no-gpu", "amd", "0000:03:00.0");
  ASSERT_FALSE(amd.ok());
  EXPECT_NE(amd.error().message.find("0000:03:00.0"), std::string::npos) << amd.error().message;
  EXPECT_FALSE(SamplerReading("h100-sxm-server", "fake", "0000:18:00.0").ok());
}

TEST(GpuSampler, ScriptedSamplerCyclesAndFailsWhenToldTo) {
  TelemetrySample a, b;
  a.sm_clock_mhz = 1000;
  b.sm_clock_mhz = 2000;
  ScriptedGpuSampler cycling({a, b});
  EXPECT_EQ(cycling.Read()->sm_clock_mhz, 1000u);
  EXPECT_EQ(cycling.Read()->sm_clock_mhz, 2000u);
  EXPECT_EQ(cycling.Read()->sm_clock_mhz, 1000u);
  ScriptedGpuSampler failing({a}, "NVML is gone");
  auto r = failing.Read();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "NVML is gone");
}

TEST(GpuSampler, TheCodecCarriesWhatVerifyAndBenchRead) {
  TelemetrySample s;
  s.sm_clock_max_mhz = 1980;
  s.power_limit_watts = 400.5;
  s.power_default_limit_watts = 700;
  s.throttle_reasons_mask = 0x40;
  s.ecc_corrected = 3;
  s.ecc_uncorrected = 1;
  s.remapped_rows_pending = 2;
  s.remapped_rows_failed = 0;
  s.pcie_gen = 4;
  s.pcie_width = 8;
  s.pcie_gen_max = 5;
  s.pcie_width_max = 16;
  std::vector<std::string> problems;
  auto back = ParseSampleJson(SampleToJsonText(s), problems);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(back->sm_clock_max_mhz, 1980u);
  EXPECT_DOUBLE_EQ(back->power_limit_watts.value(), 400.5);
  EXPECT_DOUBLE_EQ(back->power_default_limit_watts.value(), 700.0);
  EXPECT_EQ(back->throttle_reasons, std::vector<std::string>{"hw_thermal_slowdown"});
  EXPECT_EQ(back->ecc_corrected, 3u);
  EXPECT_EQ(back->ecc_uncorrected, 1u);
  EXPECT_EQ(back->remapped_rows_pending, 2u);
  EXPECT_EQ(back->remapped_rows_failed, 0u);
  EXPECT_EQ(back->pcie_gen, 4u);
  EXPECT_EQ(back->pcie_width, 8u);
  EXPECT_EQ(back->pcie_gen_max, 5u);
  EXPECT_EQ(back->pcie_width_max, 16u);
  EXPECT_FALSE(ParseSampleJson("[1]", problems).ok());
  auto wrong = ParseSampleJson(R"({"power_limit_watts": "lots"})", problems);
  ASSERT_TRUE(wrong.ok());
  EXPECT_FALSE(wrong->power_limit_watts);
  EXPECT_EQ(problems.size(), 1u);
}

TEST(GpuSampler, AlarmingReasonsAreTheSlowdownsInNvmlNames) {
  EXPECT_TRUE(IsAlarmingThrottleReason("hw_slowdown"));
  EXPECT_TRUE(IsAlarmingThrottleReason("sw_thermal_slowdown"));
  EXPECT_TRUE(IsAlarmingThrottleReason("hw_thermal_slowdown"));
  EXPECT_TRUE(IsAlarmingThrottleReason("hw_power_brake_slowdown"));
  EXPECT_FALSE(IsAlarmingThrottleReason("sw_power_cap"));
  EXPECT_FALSE(IsAlarmingThrottleReason("gpu_idle"));
  for (const auto& name : ThrottleReasonNames(0x1ff))
    EXPECT_EQ(IsAlarmingThrottleReason(name), name.find("slowdown") != std::string::npos) << name;
}

}  // namespace
}  // namespace gpudoctor
