// AMD telemetry through AMD's libraries (issue 18): stand-ins for libamd_smi and librocm_smi64 built by the
// tests (tests/fixtures/fake_smi/) are loaded by path over the recorded mi300x-8gpu-node, and each GPU's
// metrics must come from amd_smi, then rocm_smi, then sysfs, matched by PCI address, in the sample's units,
// each metric naming its source. A library that fails to initialize leaves sysfs in charge, with a note.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "gpu/api/amd_smi_api.h"
#include "gpu/api/rocm_smi_api.h"
#include "gpu_environment.h"
#include "knowledge/knowledge_loader.h"
#include "platform/dynamic_library.h"
#include "probe/probe_inputs.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_reader.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

const std::string kMi300x = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/mi300x-8gpu-node";
using testing::kGiB;

struct Sampled {
  std::vector<TelemetrySample> samples;
  std::vector<std::string> setup_warnings;
  std::vector<std::string> warnings;
};

// The recorded machine's files, with the vendor libraries of `libraries` loaded as on a live machine.
Sampled SampleWith(const TelemetryLibraries& libraries) {
  static const auto db = LoadEmbeddedKnowledge();
  ProbeInputs in = MakeRecordedInputs(kMi300x, db.ok() ? &db.value() : nullptr);
  TelemetryReader reader(*in.fs, /*live=*/true, ProbeMachine(in), libraries);
  Sampled out;
  out.setup_warnings = reader.setup_warnings();
  out.samples = reader.Read(out.warnings);
  return out;
}

TelemetryLibraries Fakes(const std::string& amd_smi, const std::string& rocm_smi) {
  TelemetryLibraries libs;
  libs.nvml = false;  // the GPU machine's NVIDIA GPUs are not the recording's
  if (!amd_smi.empty()) libs.amd_smi = {amd_smi};
  if (!rocm_smi.empty()) libs.rocm_smi = {rocm_smi};
  return libs;
}

#define SKIP_WITHOUT_FAKES()                        \
  if (std::string(GPUDOCTOR_FAKE_ROCM_SMI).empty()) \
  GTEST_SKIP() << "the stand-in SMI libraries are Linux shared objects; not built here"

TEST(TelemetryLibraryApi, PciAddressesOfBothLibraries) {
  EXPECT_EQ(FormatAmdSmiBdf(0x2600), "0000:26:00.0");
  EXPECT_EQ(FormatAmdSmiBdf((1ull << 16) | (0xffull << 8) | (0x1full << 3) | 7), "0001:ff:1f.7");
  EXPECT_EQ(FormatRsmiPciId((1ull << 32) | (0xc1ull << 8) | (2u << 3) | 1), "0001:c1:02.1");
}

TEST(TelemetryLibrary, EachGpuFromAmdSmiThenRocmSmiThenSysfsMatchedByPciAddress) {
  SKIP_WITHOUT_FAKES();
  Sampled r = SampleWith(Fakes(GPUDOCTOR_FAKE_AMD_SMI, GPUDOCTOR_FAKE_ROCM_SMI));
  ASSERT_EQ(r.samples.size(), 8u);
  EXPECT_TRUE(r.setup_warnings.empty()) << r.setup_warnings.front();
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();

  // 0000:05:00.0: amd_smi lists it, rocm_smi does not; the power comes from hwmon.
  const TelemetrySample& g0 = r.samples[0];
  EXPECT_EQ(g0.device.pci_address, "0000:05:00.0");
  EXPECT_EQ(g0.source, "amd_smi+sysfs");
  EXPECT_EQ(g0.memory_used_bytes, 1234567890u);
  EXPECT_EQ(g0.memory_total_bytes, 192 * kGiB);
  EXPECT_DOUBLE_EQ(g0.utilization_percent.value(), 87.0);
  EXPECT_DOUBLE_EQ(g0.temperature_c.value(), 71.0);  // no edge sensor: the hotspot, whole degrees
  EXPECT_DOUBLE_EQ(g0.temperature_hotspot_c.value(), 71.0);
  EXPECT_DOUBLE_EQ(g0.temperature_memory_c.value(), 55.0);
  EXPECT_EQ(g0.sm_clock_mhz, 2100u);
  EXPECT_EQ(g0.mem_clock_mhz, 1300u);
  EXPECT_DOUBLE_EQ(g0.power_watts.value(), 131.0);
  EXPECT_EQ(MetricSource(g0, "power_watts"), "sysfs");
  EXPECT_EQ(MetricSource(g0, "memory_used_bytes"), "amd_smi");
  EXPECT_TRUE(g0.processes.empty());

  // 0000:26:00.0: both list it; amd_smi's answers win, rocm_smi fills what amd_smi left empty.
  const TelemetrySample& g1 = r.samples[1];
  EXPECT_EQ(g1.device.pci_address, "0000:26:00.0");
  EXPECT_EQ(g1.source, "amd_smi+rocm_smi");
  EXPECT_EQ(g1.memory_used_bytes, 2222222222u);              // not rocm_smi's 1
  EXPECT_DOUBLE_EQ(g1.utilization_percent.value(), 13.0);    // amd_smi says all ones: not reported
  EXPECT_DOUBLE_EQ(g1.power_watts.value(), 512.0);           // rsmi_dev_power_get, microwatts
  EXPECT_DOUBLE_EQ(g1.temperature_hotspot_c.value(), 72.0);  // not rocm_smi's 99
  EXPECT_EQ(g1.sm_clock_mhz, 1800u);
  EXPECT_EQ(g1.mem_clock_mhz, 1200u);  // rocm_smi's table, Hz -> MHz
  EXPECT_EQ(MetricSource(g1, "utilization_percent"), "rocm_smi");
  EXPECT_EQ(MetricSource(g1, "temperature_hotspot_c"), "amd_smi");
  ASSERT_EQ(g1.processes.size(), 1u);
  EXPECT_EQ(g1.processes[0].pid, 4242u);
  EXPECT_EQ(g1.processes[0].used_bytes, 2 * kGiB);  // this GPU's share, not the sum over GPUs

  // 0000:46:00.0: rocm_smi alone, with rsmi_dev_power_ave_get where rsmi_dev_power_get is unsupported.
  const TelemetrySample& g2 = r.samples[2];
  EXPECT_EQ(g2.device.pci_address, "0000:46:00.0");
  EXPECT_EQ(g2.source, "rocm_smi");
  EXPECT_EQ(g2.memory_used_bytes, 3333333333u);
  EXPECT_DOUBLE_EQ(g2.utilization_percent.value(), 42.0);
  EXPECT_DOUBLE_EQ(g2.power_watts.value(), 300.5);
  EXPECT_DOUBLE_EQ(g2.temperature_c.value(), 65.5);  // millidegrees
  EXPECT_DOUBLE_EQ(g2.temperature_memory_c.value(), 58.0);
  EXPECT_EQ(g2.sm_clock_mhz, 2100u);
  EXPECT_EQ(g2.mem_clock_mhz, 1300u);
  ASSERT_EQ(g2.processes.size(), 2u);
  EXPECT_EQ(g2.processes[1].pid, 777u);
  EXPECT_EQ(g2.processes[1].used_bytes, kGiB / 2);

  // 0000:65:00.0: no library lists it; sysfs as before.
  const TelemetrySample& g3 = r.samples[3];
  EXPECT_EQ(g3.device.pci_address, "0000:65:00.0");
  EXPECT_EQ(g3.source, "sysfs");
  EXPECT_EQ(g3.memory_used_bytes, 298844160u);
  EXPECT_EQ(g3.sm_clock_mhz, 132u);

  // monitor --json names each metric's source.
  auto j = nlohmann::json::parse(SampleToJsonText(g1));
  EXPECT_EQ(j["source"], "amd_smi+rocm_smi");
  EXPECT_EQ(j["metric_sources"]["power_watts"], "rocm_smi");
  EXPECT_EQ(j["metric_sources"]["memory_used_bytes"], "amd_smi");
  EXPECT_EQ(j["metric_sources"]["processes"], "rocm_smi");
  EXPECT_FALSE(j["metric_sources"].contains("fan_rpm"));  // no value, no source
  EXPECT_EQ(nlohmann::json::parse(SampleToJsonText(g3))["metric_sources"]["power_watts"], "sysfs");
}

// rocm_smi 7 (ROCm 6.0) put a bool before rsmi_frequencies_t's count: the version picks the layout.
TEST(TelemetryLibrary, RocmSmi5ClockTableLayout) {
  SKIP_WITHOUT_FAKES();
  Sampled r = SampleWith(Fakes("", GPUDOCTOR_FAKE_ROCM_SMI5));
  ASSERT_EQ(r.samples.size(), 8u);
  EXPECT_EQ(r.samples[2].source, "rocm_smi");
  EXPECT_EQ(r.samples[2].sm_clock_mhz, 2100u);
  EXPECT_EQ(r.samples[2].mem_clock_mhz, 1300u);
  EXPECT_EQ(r.samples[1].mem_clock_mhz, 1200u);
  EXPECT_EQ(r.samples[1].sm_clock_mhz, 132u);  // rocm_smi has no sclk there: sysfs's
  EXPECT_EQ(MetricSource(r.samples[1], "sm_clock_mhz"), "sysfs");
}

TEST(TelemetryLibrary, InitFailureFallsBackToSysfsWithANote) {
  SKIP_WITHOUT_FAKES();
  Sampled r = SampleWith(Fakes("", GPUDOCTOR_FAKE_ROCM_SMI_NOINIT));
  ASSERT_EQ(r.samples.size(), 8u);
  ASSERT_EQ(r.setup_warnings.size(), 1u);
  EXPECT_NE(r.setup_warnings[0].find("rsmi_init failed: RSMI_STATUS_INIT_ERROR"), std::string::npos)
      << r.setup_warnings[0];
  EXPECT_NE(r.setup_warnings[0].find("AMD metrics from sysfs"), std::string::npos);
  for (const auto& s : r.samples) EXPECT_EQ(s.source, "sysfs");
  EXPECT_DOUBLE_EQ(r.samples[1].power_watts.value(), 133.0);
}

TEST(TelemetryLibrary, AbsentLibrariesAreNoNews) {
  Sampled r = SampleWith(Fakes("/nonexistent/libamd_smi.so.26", "/nonexistent/librocm_smi64.so.7"));
  ASSERT_EQ(r.samples.size(), 8u);
  EXPECT_TRUE(r.setup_warnings.empty()) << r.setup_warnings.front();
  EXPECT_EQ(r.samples[0].source, "sysfs");
}

// Debian 12's librocm-smi64-1 (a test package of dev.sh): on a machine without an AMD GPU rsmi_init fails or
// lists nothing; either way sysfs answers and a note says why, never a crash. Whether it applies is decided
// from the environment (the library loads; no /dev/kfd), never from the note under test: a reader that
// stops writing the note fails.
TEST(TelemetryLibrary, RealRocmSmiWithoutItsGpuFallsBack) {
#ifdef _WIN32
  GTEST_SKIP() << "not on Windows: ROCm SMI is a Linux library";
#endif
  if (!DynamicLibrary::Open("librocm_smi64.so.1").ok())
    GTEST_SKIP() << "librocm_smi64.so.1 is not installed here (apt-get install librocm-smi64-1)";
  if (testing::AmdGpuInEnvironment())
    GTEST_SKIP() << "this machine has an AMD GPU (/dev/kfd): the no-GPU case does not apply";
  Sampled r = SampleWith(Fakes("", "librocm_smi64.so.1"));
  ASSERT_EQ(r.samples.size(), 8u);
  for (const auto& s : r.samples) EXPECT_EQ(s.source, "sysfs");
  ASSERT_FALSE(r.setup_warnings.empty())
      << "librocm_smi64.so.1 loads here and sees no GPU: a note must say so";
  EXPECT_NE(r.setup_warnings[0].find("AMD metrics from sysfs"), std::string::npos) << r.setup_warnings[0];
}

}  // namespace
}  // namespace gpudoctor
