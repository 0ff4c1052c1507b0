// The telemetry layer (issue 18): amdgpu's sysfs parsers, the reader on recorded machines of both vendors,
// the recorded NVML samples' codec, and gather recording what the reader reads.
#include <gtest/gtest.h>

#include <filesystem>

#include "gather/gather.h"
#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "probe_sysroot_builder.h"
#include "recorded_fixture_names.h"
#include "telemetry/sysfs_telemetry_parse.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_reader.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;
using testing::ThisBuildMakesLinks;

TEST(TelemetryParse, DpmCurrentLevelIsTheStarredLine) {
  EXPECT_EQ(ParseDpmCurrentMhz("0: 500Mhz\n1: 2424Mhz *\n2: 2855Mhz\n"), 2424u);
  EXPECT_EQ(ParseDpmCurrentMhz("S: 132Mhz *\n0: 500Mhz\n"), 132u);         // an APU's / MI300's sleep level
  EXPECT_EQ(ParseDpmCurrentMhz("0: 96MHz *"), 96u);                        // no final newline, either case
  EXPECT_EQ(ParseDpmCurrentMhz("0: 500Mhz\n1: 1000Mhz\n"), std::nullopt);  // nothing marked
  EXPECT_EQ(ParseDpmCurrentMhz("0: fastMhz *\n"), std::nullopt);
  EXPECT_EQ(ParseDpmCurrentMhz("0: 5000000000Mhz *\n"), std::nullopt);  // more than 9 digits
  EXPECT_EQ(ParseDpmCurrentMhz("0: 500 *\n"), std::nullopt);            // no unit
  EXPECT_EQ(ParseDpmCurrentMhz(""), std::nullopt);
}

TEST(TelemetryParse, SysfsNumbers) {
  EXPECT_EQ(ParseSysfsUnsigned("12884901888\n"), 12884901888ull);
  EXPECT_EQ(ParseSysfsUnsigned(" 7 "), 7u);
  EXPECT_EQ(ParseSysfsUnsigned("-1\n"), std::nullopt);
  EXPECT_EQ(ParseSysfsUnsigned("12 GB"), std::nullopt);
}

TEST(TelemetryParse, HwmonUnitsAndLabels) {
  HwmonReadings r = ParseHwmonFiles({{"power1_average", "95000000\n"},
                                     {"power1_input", "1\n"},  // average wins when both exist
                                     {"temp1_input", "54000\n"},
                                     {"temp1_label", "edge\n"},
                                     {"temp2_input", "61500\n"},
                                     {"temp2_label", "junction\n"},
                                     {"temp3_input", "70000\n"},
                                     {"temp3_label", "mem\n"},
                                     {"fan1_input", "1320\n"},
                                     {"pwm1", "255\n"},
                                     {"freq1_input", "2450000000\n"},
                                     {"freq1_label", "sclk\n"},
                                     {"freq2_input", "1000000000\n"},
                                     {"freq2_label", "mclk\n"}});
  EXPECT_DOUBLE_EQ(r.power_watts.value(), 95.0);
  EXPECT_DOUBLE_EQ(r.temperature_edge_c.value(), 54.0);
  EXPECT_DOUBLE_EQ(r.temperature_junction_c.value(), 61.5);
  EXPECT_DOUBLE_EQ(r.temperature_memory_c.value(), 70.0);
  EXPECT_EQ(r.fan_rpm, 1320u);
  EXPECT_DOUBLE_EQ(r.fan_percent.value(), 100.0);
  EXPECT_EQ(r.sclk_mhz, 2450u);
  EXPECT_EQ(r.mclk_mhz, 1000u);
  // SMU 13: only power1_input; a label missing leaves the sensor as "first" only.
  HwmonReadings r13 =
      ParseHwmonFiles({{"power1_input", "27000000"}, {"temp1_input", "47000"}, {"pwm1", "999"}});
  EXPECT_DOUBLE_EQ(r13.power_watts.value(), 27.0);
  EXPECT_DOUBLE_EQ(r13.temperature_first_c.value(), 47.0);
  EXPECT_FALSE(r13.temperature_edge_c);
  EXPECT_FALSE(r13.fan_percent);  // pwm beyond 255 is not a duty cycle
  EXPECT_TRUE(IsHwmonTelemetryFile("temp2_label"));
  EXPECT_TRUE(IsHwmonTelemetryFile("pwm1"));
  EXPECT_FALSE(IsHwmonTelemetryFile("power1_cap"));
  EXPECT_FALSE(IsHwmonTelemetryFile("uevent"));
}

TEST(TelemetryParse, ThrottleReasonNamesFollowNvmlBits) {
  EXPECT_EQ(ThrottleReasonNames(0x1), std::vector<std::string>{"gpu_idle"});
  EXPECT_EQ(ThrottleReasonNames(0x4 | 0x40),
            (std::vector<std::string>{"sw_power_cap", "hw_thermal_slowdown"}));
  EXPECT_EQ(ThrottleReasonNames(1ull << 40), std::vector<std::string>{"bit_40"});
  EXPECT_TRUE(ThrottleReasonNames(0).empty());
}

std::vector<TelemetrySample> SampleRecorded(const std::string& machine, std::vector<std::string>& warnings) {
  static const auto db = LoadEmbeddedKnowledge();  // GPU names, as the commands probe
  ProbeInputs in = MakeRecordedInputs(kFixtures + machine, db.ok() ? &db.value() : nullptr);
  Snapshot snap = ProbeMachine(in);
  TelemetryReader reader(*in.fs, in.live, snap);
  for (const auto& w : reader.setup_warnings()) warnings.push_back(w);
  return reader.Read(warnings);
}

TEST(TelemetryReplay, Rx6700xtFromSysfs) {
  std::vector<std::string> warnings;
  auto s = SampleRecorded("rx6700xt-desktop", warnings);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s[0].device.vendor, "amd");
  EXPECT_EQ(s[0].device.pci_address, "0000:03:00.0");
  EXPECT_NE(s[0].device.name.find("6700 XT"), std::string::npos) << s[0].device.name;
  EXPECT_EQ(s[0].source, "sysfs");
  EXPECT_EQ(s[0].memory_used_bytes, 1101004800u);
  EXPECT_EQ(s[0].memory_total_bytes, 12884901888u);
  EXPECT_DOUBLE_EQ(s[0].utilization_percent.value(), 0.0);
  EXPECT_DOUBLE_EQ(s[0].power_watts.value(), 9.0);
  EXPECT_DOUBLE_EQ(s[0].temperature_c.value(), 41.0);
  EXPECT_DOUBLE_EQ(s[0].temperature_hotspot_c.value(), 43.0);
  EXPECT_EQ(s[0].sm_clock_mhz, 500u);
  EXPECT_EQ(s[0].mem_clock_mhz, 96u);
  EXPECT_EQ(s[0].fan_rpm, 0u);
}

TEST(TelemetryReplay, Mi300xHasNoEdgeSensorSoJunctionIsTheTemperature) {
  std::vector<std::string> warnings;
  auto s = SampleRecorded("mi300x-8gpu-node", warnings);
  ASSERT_EQ(s.size(), 8u);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(s[i].device.index, i);
  EXPECT_EQ(s[1].device.pci_address, "0000:26:00.0");
  EXPECT_DOUBLE_EQ(s[1].temperature_c.value(), 39.0);
  EXPECT_DOUBLE_EQ(s[1].temperature_memory_c.value(), 34.0);
  EXPECT_DOUBLE_EQ(s[1].power_watts.value(), 133.0);
  EXPECT_EQ(s[1].sm_clock_mhz, 132u);
  EXPECT_EQ(s[1].mem_clock_mhz, 1300u);
  EXPECT_FALSE(s[1].fan_rpm);
}

TEST(TelemetryReplay, H100FromTheRecordedNvmlSamples) {
  std::vector<std::string> warnings;
  auto s = SampleRecorded("h100-sxm-server", warnings);
  ASSERT_EQ(s.size(), 8u);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s[0].device.vendor, "nvidia");
  EXPECT_EQ(s[0].device.uuid, "GPU-6f1d8a52-3c7e-4b19-9a0d-2e5c7b18f403");
  EXPECT_EQ(s[0].device.pci_address, "0000:18:00.0");
  EXPECT_EQ(s[0].source, "nvml-recorded");
  EXPECT_DOUBLE_EQ(s[0].power_watts.value(), 612.418);
  EXPECT_EQ(s[0].sm_clock_mhz, 1980u);
  ASSERT_EQ(s[0].processes.size(), 1u);
  EXPECT_EQ(s[0].processes[0].pid, 48213u);
  EXPECT_EQ(s[3].throttle_reasons, std::vector<std::string>{"gpu_idle"});
  EXPECT_FALSE(s[3].fan_percent);
}

TEST(TelemetryReplay, NoGpuNoSamples) {
  std::vector<std::string> warnings;
  EXPECT_TRUE(SampleRecorded("vm-no-gpu", warnings).empty());
}

TEST(TelemetryJson, RecordedSamplesRoundTripAndBadFieldsAreNamed) {
  TelemetrySample s;
  s.device = {2, "nvidia", "NVIDIA H200", "0000:9a:00.0", "GPU-x"};
  s.memory_used_bytes = 5;
  s.power_watts = 71.25;
  s.throttle_reasons_mask = 0x4;
  s.processes.push_back({77, std::nullopt});
  std::vector<std::string> problems;
  auto back = ParseRecordedTelemetry(AddTelemetryToNvmlJson(R"({"driver_version": "1"})", {s}), problems);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 1u);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ((*back)[0].device.index, 2u);
  EXPECT_EQ((*back)[0].memory_used_bytes, 5u);
  EXPECT_DOUBLE_EQ((*back)[0].power_watts.value(), 71.25);
  EXPECT_FALSE((*back)[0].temperature_c);
  EXPECT_EQ((*back)[0].throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_EQ((*back)[0].processes.at(0).pid, 77u);
  EXPECT_FALSE((*back)[0].processes.at(0).used_bytes);

  auto bad = ParseRecordedTelemetry(
      R"({"telemetry": [{"gpu": 0, "power_watts": "hot", "sm_clock_mhz": -3}, {"name": "x"}, 5]})", problems);
  ASSERT_TRUE(bad.ok());
  ASSERT_EQ(bad->size(), 1u);
  EXPECT_FALSE((*bad)[0].power_watts);
  EXPECT_FALSE((*bad)[0].sm_clock_mhz);
  EXPECT_EQ(problems.size(), 4u);  // power, clock, no index, not an object
  EXPECT_FALSE(ParseRecordedTelemetry("[1]", problems).ok());
  EXPECT_FALSE(ParseRecordedTelemetry("{", problems).ok());
}

// gather records what the telemetry reader reads, so `monitor --sysroot` on the recording shows the same.
TEST(TelemetryGather, RecordingKeepsTheTelemetryFiles) {
  if (!ThisBuildMakesLinks()) GTEST_SKIP() << "this build cannot make symbolic links, which sysfs is made of";
  ProbeInputs machine = MakeRecordedInputs(kFixtures + "rx7900xtx-raphael");
  testing::SysrootBuilder dest_parent;
  std::string dest = dest_parent.root() + "/recorded";
  std::vector<std::string> notes;
  ASSERT_TRUE(GatherMachine(machine, "", dest, notes).ok());
  std::vector<std::string> w1, w2;
  auto before = SampleRecorded("rx7900xtx-raphael", w1);
  static const auto db = LoadEmbeddedKnowledge();
  ProbeInputs in = MakeRecordedInputs(dest, db.ok() ? &db.value() : nullptr);
  TelemetryReader reader(*in.fs, false, ProbeMachine(in));
  auto after = reader.Read(w2);
  ASSERT_EQ(after.size(), 2u);
  ASSERT_EQ(before.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(SampleToJsonText(after[i]), SampleToJsonText(before[i]));
    EXPECT_TRUE(after[i].power_watts);
    EXPECT_TRUE(after[i].sm_clock_mhz);
  }
  EXPECT_DOUBLE_EQ(after[0].power_watts.value(), 27.0);  // power1_input, SMU 13
}

}  // namespace
}  // namespace gpudoctor
