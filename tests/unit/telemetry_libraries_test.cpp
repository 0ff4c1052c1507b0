// The one search for the telemetry libraries (telemetry/telemetry_libraries.h) that monitor, serve, gather
// and the workers' sampler all use: the framework's own amd_smi/rocm_smi copy before ROCM_PATH's before the
// system loader's, ADL alone on Windows, nothing AMD from a recording.
#include <gtest/gtest.h>

#include "probe_test_sysroot.h"
#include "telemetry/telemetry_libraries.h"

namespace gpudoctor {
namespace {

TEST(TelemetryLibraries, FrameworkCopyThenRocmPathThenSystemLoader) {
  testing::ProbeSysroot root;
  root.Write("/venv/lib/python3.12/site-packages/_rocm_sdk_core/lib/librocm_smi64.so.1", "x");
  root.Write("/opt/rocm-6.4.1/lib/librocm_smi64.so.1", "x");
  root.Write("/opt/rocm-6.4.1/lib/libamd_smi.so.25", "x");
  Environment env({{"VIRTUAL_ENV", "/venv"}, {"ROCM_PATH", "/opt/rocm-6.4.1"}});
  TelemetryLibraries libs = FindTelemetryLibraries(root.fs(), env, true, false);
  ASSERT_GE(libs.rocm_smi.size(), 3u);
  EXPECT_EQ(libs.rocm_smi[0], "/venv/lib/python3.12/site-packages/_rocm_sdk_core/lib/librocm_smi64.so.1");
  EXPECT_EQ(libs.rocm_smi[1], "/opt/rocm-6.4.1/lib/librocm_smi64.so.1");
  EXPECT_EQ(libs.rocm_smi.back(), "librocm_smi64.so");  // the system loader's names come last
  ASSERT_FALSE(libs.amd_smi.empty());
  EXPECT_EQ(libs.amd_smi[0], "/opt/rocm-6.4.1/lib/libamd_smi.so.25");
  EXPECT_TRUE(libs.adl.empty());
  EXPECT_TRUE(libs.nvml);
}

TEST(TelemetryLibraries, WindowsTriesAdlOnly) {
  testing::ProbeSysroot root;
  TelemetryLibraries libs = FindTelemetryLibraries(root.fs(), Environment(), true, true);
  EXPECT_EQ(libs.adl, std::vector<std::string>{"atiadlxx.dll"});
  EXPECT_TRUE(libs.amd_smi.empty());
  EXPECT_TRUE(libs.rocm_smi.empty());
}

TEST(TelemetryLibraries, RecordingLoadsNoAmdLibrary) {
  testing::ProbeSysroot root;
  root.Write("/opt/rocm/lib/librocm_smi64.so.1", "x");
  TelemetryLibraries libs = FindTelemetryLibraries(
      root.fs(), Environment(std::map<std::string, std::string>{{"ROCM_PATH", "/opt/rocm"}}), false, false);
  EXPECT_TRUE(libs.amd_smi.empty());
  EXPECT_TRUE(libs.rocm_smi.empty());
  EXPECT_TRUE(libs.adl.empty());
}

}  // namespace
}  // namespace gpudoctor
