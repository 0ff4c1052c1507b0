// The live NVIDIA code against a stand-in NVML (issue 37): tests/fixtures/fake_nvml/ is loaded by path in
// place of libnvidia-ml, so the telemetry session, the live probe and the NVLink topology read its fixed
// answers (listed at the top of fake_nvml.cpp) on a machine without a GPU. Each value asserted here is one
// the stand-in planted, in the unit gpudoctor converts it to; a second build whose nvmlInit fails gives an
// error that names the call and NVML's message.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "probe/linux/nvidia_live.h"
#include "telemetry/nvml_telemetry.h"
#include "test_common.h"
#include "topo/nvml_topology.h"

namespace gpudoctor {
namespace {

using testing::kGiB;

#define SKIP_WITHOUT_FAKE_NVML()                \
  if (std::string(GPUDOCTOR_FAKE_NVML).empty()) \
  GTEST_SKIP() << "the stand-in NVML library is a Linux shared object; not built here"

std::vector<std::string> Fake() {
  return {GPUDOCTOR_FAKE_NVML};
}
std::vector<std::string> FakeNoInit() {
  return {GPUDOCTOR_FAKE_NVML_NOINIT};
}

// The live probe with the stand-in NVML and no CUDA driver library (a path that does not exist), so every
// answer is the stand-in's whatever the machine has installed.
NvidiaInfo ProbeWithNvml(const std::vector<std::string>& nvml, std::vector<std::string>& warnings) {
  NvidiaInfo info;
  QueryNvidiaLive(info, warnings, NvidiaLibraries{nvml, {"/nonexistent/gpudoctor/libcuda.so.1"}});
  return info;
}

TEST(NvmlLiveTelemetry, ListsBothGpusWithNamesUuidsAndNormalizedAddresses) {
  SKIP_WITHOUT_FAKE_NVML();
  auto session = NvmlTelemetrySession::Open(Fake());
  ASSERT_TRUE(session.ok()) << session.error().message;
  std::vector<std::string> warnings;
  auto devices = (*session)->Devices(warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(devices.size(), 2u);
  EXPECT_EQ(devices[0].index, 0u);
  EXPECT_EQ(devices[0].vendor, "nvidia");
  EXPECT_EQ(devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(devices[0].uuid, "GPU-0fa1e000-1111-2222-3333-444455556666");
  EXPECT_EQ(devices[0].pci_address, "0000:18:00.0");
  EXPECT_EQ(devices[1].index, 1u);
  EXPECT_EQ(devices[1].name, "NVIDIA H100 PCIe");
  EXPECT_EQ(devices[1].uuid, "GPU-0fa1e001-7777-8888-9999-aaaabbbbcccc");
  EXPECT_EQ(devices[1].pci_address, "0000:2a:00.0");  // NVML's upper-case hex, lowered
}

TEST(NvmlLiveTelemetry, SampleValuesInTheSampleUnits) {
  SKIP_WITHOUT_FAKE_NVML();
  auto session = NvmlTelemetrySession::Open(Fake());
  ASSERT_TRUE(session.ok()) << session.error().message;
  std::vector<std::string> warnings;
  auto devices = (*session)->Devices(warnings);
  ASSERT_EQ(devices.size(), 2u);

  TelemetrySample s0 = (*session)->Read(devices[0], warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s0.source, "nvml");
  EXPECT_EQ(s0.device.uuid, devices[0].uuid);
  EXPECT_EQ(s0.memory_used_bytes, 1234567890u);  // nvmlDeviceGetMemoryInfo_v2's, not v1's 2345678901
  EXPECT_EQ(s0.memory_total_bytes, 80 * kGiB);
  EXPECT_DOUBLE_EQ(s0.power_watts.value(), 123.456);  // 123456 mW
  EXPECT_DOUBLE_EQ(s0.temperature_c.value(), 41.0);
  EXPECT_DOUBLE_EQ(s0.utilization_percent.value(), 87.0);  // the GPU's, not the memory's 33
  EXPECT_FALSE(s0.fan_percent.has_value());                // NVML: not supported
  EXPECT_EQ(s0.sm_clock_mhz, 1980u);
  EXPECT_EQ(s0.mem_clock_mhz, 2619u);
  EXPECT_EQ(s0.throttle_reasons_mask, 0x24u);
  EXPECT_EQ(s0.throttle_reasons, (std::vector<std::string>{"sw_power_cap", "sw_thermal_slowdown"}));
  ASSERT_EQ(s0.processes.size(), 2u);
  EXPECT_EQ(s0.processes[0].pid, 4242u);
  EXPECT_EQ(s0.processes[0].used_bytes, 2 * kGiB);
  EXPECT_EQ(s0.processes[1].pid, 777u);
  EXPECT_FALSE(s0.processes[1].used_bytes.has_value());  // NVML_VALUE_NOT_AVAILABLE

  TelemetrySample s1 = (*session)->Read(devices[1], warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s1.memory_used_bytes, 4000000000u);
  EXPECT_DOUBLE_EQ(s1.power_watts.value(), 350.0);
  EXPECT_DOUBLE_EQ(s1.temperature_c.value(), 58.0);
  EXPECT_DOUBLE_EQ(s1.utilization_percent.value(), 12.0);
  EXPECT_DOUBLE_EQ(s1.fan_percent.value(), 45.0);
  EXPECT_EQ(s1.sm_clock_mhz, 1410u);
  EXPECT_EQ(s1.mem_clock_mhz, 1593u);
  EXPECT_EQ(s1.throttle_reasons, (std::vector<std::string>{"gpu_idle"}));
  EXPECT_TRUE(s1.processes.empty());
}

TEST(NvmlLiveTelemetry, FailingInitIsAnErrorNamingTheCallAndNvmlsMessage) {
  SKIP_WITHOUT_FAKE_NVML();
  auto session = NvmlTelemetrySession::Open(FakeNoInit());
  ASSERT_FALSE(session.ok());
  EXPECT_NE(session.error().message.find("nvmlInit failed: Driver Not Loaded (9)"), std::string::npos)
      << session.error().message;
  auto absent = NvmlTelemetrySession::Open({"/nonexistent/gpudoctor/libnvidia-ml.so.1"});
  ASSERT_FALSE(absent.ok());
  EXPECT_NE(absent.error().message.find("NVML not found"), std::string::npos) << absent.error().message;
}

TEST(NvmlLiveProbe, ListsTheStandInsGpusAndVersions) {
  SKIP_WITHOUT_FAKE_NVML();
  std::vector<std::string> warnings;
  NvidiaInfo info = ProbeWithNvml(Fake(), warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(info.libraries.size(), 2u);
  EXPECT_EQ(info.libraries[0].library, "nvml");
  EXPECT_EQ(info.libraries[0].status, LoadStatus::kLoaded) << info.libraries[0].detail;
  EXPECT_EQ(info.libraries[0].loaded_path, GPUDOCTOR_FAKE_NVML);
  EXPECT_EQ(info.libraries[1].library, "cuda");
  EXPECT_EQ(info.libraries[1].status, LoadStatus::kAbsent);
  EXPECT_EQ(info.driver_version, "550.54.15");
  EXPECT_EQ(info.driver_version_source, "nvml");
  EXPECT_EQ(info.cuda_driver_version, 12040u);  // NVML's, as the driver API is absent
  ASSERT_EQ(info.devices.size(), 2u);
  const NvidiaDevice& d0 = info.devices[0];
  EXPECT_EQ(d0.index, 0u);
  EXPECT_EQ(d0.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(d0.uuid, "GPU-0fa1e000-1111-2222-3333-444455556666");
  EXPECT_EQ(d0.pci_address, "0000:18:00.0");
  EXPECT_EQ(d0.memory_total_bytes, 80 * kGiB);
  EXPECT_EQ(d0.cc_major, 9u);
  EXPECT_EQ(d0.cc_minor, 0u);
  const NvidiaDevice& d1 = info.devices[1];
  EXPECT_EQ(d1.index, 1u);
  EXPECT_EQ(d1.name, "NVIDIA H100 PCIe");
  EXPECT_EQ(d1.uuid, "GPU-0fa1e001-7777-8888-9999-aaaabbbbcccc");
  EXPECT_EQ(d1.pci_address, "0000:2a:00.0");
}

TEST(NvmlLiveProbe, FailingInitMarksNvmlBrokenWithNvmlsMessageAndListsNoGpu) {
  SKIP_WITHOUT_FAKE_NVML();
  std::vector<std::string> warnings;
  NvidiaInfo info = ProbeWithNvml(FakeNoInit(), warnings);
  ASSERT_FALSE(info.libraries.empty());
  EXPECT_EQ(info.libraries[0].library, "nvml");
  EXPECT_EQ(info.libraries[0].status, LoadStatus::kBroken);
  EXPECT_NE(info.libraries[0].detail.find("nvmlInit failed: Driver Not Loaded (9)"), std::string::npos)
      << info.libraries[0].detail;
  EXPECT_TRUE(info.devices.empty());
  EXPECT_FALSE(info.driver_version.has_value());
}

TEST(NvmlLiveTopology, NvLinkEdgesToTheOtherGpuAndTheSwitch) {
  SKIP_WITHOUT_FAKE_NVML();
  std::vector<std::string> warnings;
  NvmlTopologyRecord topo = QueryNvmlTopologyLive(warnings, Fake());
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_TRUE(topo.present);
  ASSERT_EQ(topo.devices.size(), 2u);

  const NvmlDeviceLinks& g0 = topo.devices[0];
  EXPECT_EQ(g0.pci_address, "0000:18:00.0");
  ASSERT_EQ(g0.nvlinks.size(), 4u);  // link 4 answers "invalid argument": the end
  for (unsigned link : {0u, 1u}) {
    EXPECT_EQ(g0.nvlinks[link].link, link);
    EXPECT_TRUE(g0.nvlinks[link].active);
    EXPECT_EQ(g0.nvlinks[link].remote_pci_address, "0000:2a:00.0");
    EXPECT_EQ(g0.nvlinks[link].remote_type, "gpu");
  }
  EXPECT_TRUE(g0.nvlinks[2].active);
  EXPECT_EQ(g0.nvlinks[2].remote_pci_address, "0000:c1:00.0");
  EXPECT_EQ(g0.nvlinks[2].remote_type, "switch");
  EXPECT_FALSE(g0.nvlinks[3].active);
  EXPECT_EQ(g0.nvlinks[3].remote_pci_address, "");

  const NvmlDeviceLinks& g1 = topo.devices[1];
  EXPECT_EQ(g1.pci_address, "0000:2a:00.0");
  ASSERT_EQ(g1.nvlinks.size(), 3u);
  EXPECT_TRUE(g1.nvlinks[0].active);
  EXPECT_EQ(g1.nvlinks[0].remote_pci_address, "0000:18:00.0");
  EXPECT_TRUE(g1.nvlinks[1].active);
  EXPECT_FALSE(g1.nvlinks[2].active);

  ASSERT_EQ(topo.pairs.size(), 1u);
  const NvmlPairRecord& p = topo.pairs[0];
  EXPECT_EQ(p.a, "0000:18:00.0");
  EXPECT_EQ(p.b, "0000:2a:00.0");
  EXPECT_EQ(p.common_ancestor, LinkKind::kPhb);  // NVML_TOPOLOGY_HOSTBRIDGE (30)
  EXPECT_EQ(p.p2p.at("read"), "ok");
  EXPECT_EQ(p.p2p.at("nvlink"), "ok");
  EXPECT_EQ(p.p2p.at("atomics"), "gpu_not_supported");
}

TEST(NvmlLiveTopology, FailingInitIsAWarningAndNoTopology) {
  SKIP_WITHOUT_FAKE_NVML();
  std::vector<std::string> warnings;
  NvmlTopologyRecord topo = QueryNvmlTopologyLive(warnings, FakeNoInit());
  EXPECT_FALSE(topo.present);
  EXPECT_TRUE(topo.devices.empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "NVML: nvmlInit failed: Driver Not Loaded (9)");
}

}  // namespace
}  // namespace gpudoctor
