// AMD telemetry on Windows through ADL (issue 18): a stand-in atiadlxx.dll built by the Windows tests
// (tests/fixtures/fake_adl/) is loaded by path over the recorded win11-rx7900xtx-py311, and each AMD GPU's
// metrics must arrive from it in the sample's units, matched by PCI bus/device/function, each naming `adl`
// as its source. A missing DLL or a failing ADL2_Main_Control_Create leaves the GPUs unwatched with a note
// (Windows has no sysfs to fall back on). The recording's own ADL answers (.gpudoctor/adl.json) replay under
// --sysroot on every OS, and gather writes them. Only the stand-in has been tested: no Windows AMD machine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_util.h"
#include "gather/gather_windows.h"
#include "gpu/api/adl_api.h"
#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "telemetry/telemetry_json.h"
#include "telemetry/telemetry_reader.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using testing::Joined;
using testing::kMiB;

namespace stdfs = std::filesystem;

const std::string kRx7900 =
    std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/win11-rx7900xtx-py311";

struct AdlSampled {
  std::vector<TelemetrySample> samples;
  std::vector<std::string> setup_warnings;
  std::vector<std::string> warnings;
};

// The recorded Windows machine, read by a reader that loads `adl` as on a live machine (live) or replays
// the recording's answers (not live).
AdlSampled SampleWithAdl(const std::string& sysroot, bool live, const std::vector<std::string>& adl) {
  static const auto db = LoadEmbeddedKnowledge();
  ProbeInputs in = MakeRecordedInputs(sysroot, db.ok() ? &db.value() : nullptr);
  TelemetryLibraries libs;
  libs.nvml = false;
  libs.adl = adl;
  TelemetryReader reader(*in.fs, live, ProbeMachine(in), libs);
  AdlSampled out;
  out.setup_warnings = reader.setup_warnings();
  out.samples = reader.Read(out.warnings);
  return out;
}

// The stand-in copied into the temporary folder, by its full Windows path: the build's path is a Linux one
// under wine, which DynamicLibrary refuses as relative (docs/windows.md, "DLL safety").
std::string LoadablePath(const std::string& built, const std::string& folder) {
  stdfs::path dir = testing::FreshTempDir(folder);
  stdfs::path copy = dir / "atiadlxx.dll";
  stdfs::copy_file(built, copy);
  return copy.string();
}

#define SKIP_WITHOUT_FAKE_ADL()                \
  if (std::string(GPUDOCTOR_FAKE_ADL).empty()) \
  GTEST_SKIP() << "the stand-in atiadlxx.dll is a Windows DLL; built by the windows preset, run under wine"

TEST(TelemetryAdlApi, PciAddressesAndErrorNames) {
  EXPECT_EQ(FormatAdlPciAddress(3, 0, 0), "0000:03:00.0");
  EXPECT_EQ(FormatAdlPciAddress(0x13, 0x1f, 7), "0000:13:1f.7");
  EXPECT_EQ(FormatAdlPciAddress(256, 0, 0), "");  // not a PCI bus number
  EXPECT_EQ(FormatAdlPciAddress(-1, 0, 0), "");
  EXPECT_EQ(AdlErrorText(-8), "ADL_ERR_NOT_SUPPORTED (-8)");
  EXPECT_EQ(AdlErrorText(-1), "ADL_ERR (-1)");
  EXPECT_TRUE(AdlSucceeded(1));  // ADL_OK_WARNING
  EXPECT_FALSE(AdlSucceeded(-2));
}

TEST(TelemetryAdl, EachGpuFromTheStandInDllMatchedByPciLocation) {
  SKIP_WITHOUT_FAKE_ADL();
  AdlSampled r =
      SampleWithAdl(kRx7900, /*live=*/true, {LoadablePath(GPUDOCTOR_FAKE_ADL, "telemetry_adl_fake")});
  EXPECT_TRUE(r.setup_warnings.empty()) << Joined(r.setup_warnings);
  EXPECT_TRUE(r.warnings.empty()) << Joined(r.warnings);
  ASSERT_EQ(r.samples.size(), 2u);

  // The RX 7900 XTX: ADL's first adapter at bus 3 (its second output, adapter 1, logs other numbers).
  const TelemetrySample& dgpu = r.samples[0];
  EXPECT_EQ(dgpu.device.pci_address, "0000:03:00.0");
  EXPECT_EQ(dgpu.device.vendor, "amd");
  EXPECT_EQ(dgpu.source, "adl");
  EXPECT_EQ(dgpu.sm_clock_mhz, 2482u);
  EXPECT_EQ(dgpu.mem_clock_mhz, 1249u);
  EXPECT_DOUBLE_EQ(dgpu.temperature_c.value(), 61.0);
  EXPECT_DOUBLE_EQ(dgpu.temperature_hotspot_c.value(), 78.0);
  EXPECT_DOUBLE_EQ(dgpu.temperature_memory_c.value(), 70.0);
  EXPECT_EQ(dgpu.fan_rpm, 1480u);
  EXPECT_FALSE(dgpu.fan_percent.has_value());  // the sensor says unsupported: its value is not used
  EXPECT_DOUBLE_EQ(dgpu.utilization_percent.value(), 97.0);
  EXPECT_DOUBLE_EQ(dgpu.power_watts.value(), 327.0);  // the ASIC's, as hwmon's on Linux, not the board's
  EXPECT_EQ(dgpu.memory_used_bytes, 18342 * kMiB);    // DedicatedVRAMUsage, MB
  EXPECT_EQ(dgpu.memory_total_bytes, 25753026560u);   // MemoryInfo2, bytes
  EXPECT_TRUE(dgpu.processes.empty());

  // The Raphael iGPU: no PM log, only its memory.
  const TelemetrySample& igpu = r.samples[1];
  EXPECT_EQ(igpu.device.pci_address, "0000:13:00.0");
  EXPECT_EQ(igpu.source, "adl");
  EXPECT_EQ(igpu.memory_used_bytes, 180 * kMiB);
  EXPECT_EQ(igpu.memory_total_bytes, 512 * kMiB);
  EXPECT_FALSE(igpu.temperature_c.has_value());
  EXPECT_FALSE(igpu.sm_clock_mhz.has_value());

  // What `monitor --once --json` prints of them.
  auto line = nlohmann::json::parse(SampleLineJson(1, 0, r.samples, r.warnings));
  const auto& j = line["gpus"][0];
  EXPECT_EQ(j["source"], "adl");
  EXPECT_EQ(j["pci_bus_id"], "0000:03:00.0");
  EXPECT_EQ(j["power_watts"], 327.0);
  EXPECT_EQ(j["metric_sources"]["power_watts"], "adl");
  EXPECT_EQ(j["metric_sources"]["memory_used_bytes"], "adl");
  EXPECT_TRUE(j["fan_percent"].is_null());
  EXPECT_FALSE(j["metric_sources"].contains("fan_percent"));
  EXPECT_TRUE(line["gpus"][1]["temperature_c"].is_null());
}

TEST(TelemetryAdl, FailingContextCreationLeavesTheGpusUnwatchedWithANote) {
  SKIP_WITHOUT_FAKE_ADL();
  AdlSampled r = SampleWithAdl(kRx7900, /*live=*/true,
                               {LoadablePath(GPUDOCTOR_FAKE_ADL_NOCREATE, "telemetry_adl_nocreate")});
  EXPECT_TRUE(r.samples.empty());
  ASSERT_FALSE(r.setup_warnings.empty());
  const std::string all = Joined(r.setup_warnings);
  EXPECT_NE(all.find("ADL2_Main_Control_Create failed: ADL_ERR (-1); no AMD metrics"), std::string::npos)
      << all;
  EXPECT_NE(all.find("the AMD GPU at 0000:03:00.0 is not watched"), std::string::npos) << all;
}

// Without AMD's driver there is no atiadlxx.dll: the GPUs are said to be unwatched, nothing else.
TEST(TelemetryAdl, MissingDllLeavesTheGpusUnwatched) {
  AdlSampled r = SampleWithAdl(kRx7900, /*live=*/true, {kRx7900 + "/no-such-folder/atiadlxx.dll"});
  EXPECT_TRUE(r.samples.empty());
  ASSERT_EQ(r.setup_warnings.size(), 2u) << Joined(r.setup_warnings);
  EXPECT_NE(r.setup_warnings[0].find("the AMD GPU at 0000:03:00.0 is not watched: ADL"), std::string::npos)
      << r.setup_warnings[0];
  EXPECT_NE(r.setup_warnings[1].find("0000:13:00.0"), std::string::npos) << r.setup_warnings[1];
}

// Replay: the recording's ADL answers, for every OS (no library is loaded under a sysroot).
TEST(TelemetryAdl, RecordedAnswersReplay) {
  AdlSampled r = SampleWithAdl(kRx7900, /*live=*/false, {});
  EXPECT_TRUE(r.setup_warnings.empty()) << Joined(r.setup_warnings);
  ASSERT_EQ(r.samples.size(), 2u);
  EXPECT_EQ(r.samples[0].source, "adl-recorded");
  EXPECT_EQ(r.samples[0].device.pci_address, "0000:03:00.0");
  EXPECT_EQ(r.samples[0].memory_used_bytes, 1436549120u);
  EXPECT_DOUBLE_EQ(r.samples[0].power_watts.value(), 41.0);
  EXPECT_EQ(r.samples[0].sm_clock_mhz, 37u);
  EXPECT_EQ(r.samples[1].memory_total_bytes, 512 * kMiB);
  EXPECT_EQ(MetricSource(r.samples[0], "power_watts"), "adl-recorded");
}

// A Windows recording without ADL answers (gathered before ADL was read) watches no AMD GPU and says why.
TEST(TelemetryAdl, RecordingWithoutAdlAnswersSaysSo) {
  AdlSampled r =
      SampleWithAdl(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/win10-rx6700xt", false, {});
  EXPECT_TRUE(r.samples.empty());
  ASSERT_FALSE(r.setup_warnings.empty());
  EXPECT_NE(r.setup_warnings[0].find("no ADL telemetry"), std::string::npos) << r.setup_warnings[0];
}

TEST(TelemetryAdl, MonitorReplaysARecordedWindowsMachine) {
  auto r = testing::Gpudoctor({"monitor", "--once", "--json", "--sysroot", kRx7900});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto line = nlohmann::json::parse(r.stdout_text);
  ASSERT_EQ(line["gpus"].size(), 2u);
  EXPECT_EQ(line["gpus"][0]["source"], "adl-recorded");
  EXPECT_EQ(line["gpus"][0]["temperature_hotspot_c"], 51.0);
  EXPECT_EQ(line["gpus"][0]["metric_sources"]["temperature_hotspot_c"], "adl-recorded");
}

// gather writes the ADL answers it is given, and the new folder replays them.
TEST(TelemetryAdl, GatherRecordsAdlAnswers) {
  ProbeInputs original = MakeRecordedInputs(kRx7900);
  std::ifstream in(kRx7900 + "/.gpudoctor/adl.json", std::ios::binary);
  std::stringstream adl_json;
  adl_json << in.rdbuf();
  stdfs::path dest = testing::FreshTempDir("telemetry_adl_gather");
  stdfs::remove_all(dest);
  std::vector<std::string> notes;
  auto st = GatherWindowsMachine(original, adl_json.str(), dest.string(), notes);
  ASSERT_TRUE(st.ok()) << st.error().message;
  AdlSampled r = SampleWithAdl(dest.string(), /*live=*/false, {});
  stdfs::remove_all(dest);
  ASSERT_EQ(r.samples.size(), 2u) << Joined(r.setup_warnings);
  EXPECT_EQ(r.samples[0].memory_used_bytes, 1436549120u);
  EXPECT_EQ(r.samples[1].source, "adl-recorded");
}

}  // namespace
}  // namespace gpudoctor
