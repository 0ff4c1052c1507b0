// Issue 31 item 2: AMD's own PyTorch wheel families are named and judged instead of "not a build gpudoctor
// knows": the ROCm 7.2 Windows wheels ("+rocmsdk<date>", built for the route amd-windows-rocm7.2's GPUs)
// and the multi-arch wheels ("+rocmX.Y.Z") whose GPU code comes in per-GPU ROCm SDK packages
// (rocm-sdk-device-gfx1100, amd-torch-device-gfx1100, a family's rocm-sdk-libraries-gfx110X-all). The
// machine is the recorded RX 7900 XTX (gfx1100) on Windows 11 with its Python 3.11's torch swapped.
#include <gtest/gtest.h>

#include "probe/probe_inputs.h"
#include "rules/shell.h"
#include "rules_test_util.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

// The recorded machine with AMD's `torch` in its Python 3.11 and the given ROCm SDK packages beside it.
Snapshot WithAmdTorch(const std::string& version, const std::vector<std::string>& packages) {
  ProbeInputs in = MakeRecordedInputs(
      std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/win11-rx7900xtx-py311", &Db());
  Snapshot s = ProbeMachine(in);
  EXPECT_EQ(s.python_envs.size(), 1u);
  PythonEnv& env = s.python_envs.at(0);
  env.torch->version = version;
  env.torch->hip = "7.2.53211";
  env.frameworks.clear();
  for (const auto& name : packages) {
    FrameworkInstall f;
    f.name = name;
    f.family = "rocm-sdk";
    f.version = "10.1.0";
    f.backend = "rocm";
    env.frameworks.push_back(f);
  }
  return s;
}

TEST(AmdWheelFamily, Rocm72WindowsWheelIsJudgedByItsRoute) {
  auto fs = RunRules(WithAmdTorch("2.9.1+rocmsdk20260116", {"rocm-sdk-core", "rocm-sdk-libraries-custom"}));
  const Finding* ok = FindId(fs, "framework.torch_ok");
  ASSERT_NE(ok, nullptr) << Ids(fs);
  EXPECT_EQ(ok->title, "PyTorch 2.9.1+rocmsdk20260116 has kernels for gfx1100");
  EXPECT_NE(Evidence(*ok).find("AMD's PyTorch wheels for Windows (ROCm 7.2, repo.radeon.com)"),
            std::string::npos)
      << Evidence(*ok);
  EXPECT_FALSE(Has(fs, "framework.torch_unverified")) << Ids(fs);
}

TEST(AmdWheelFamily, Rocm72WindowsWheelWithoutTheGpuIsAnError) {
  Snapshot s = WithAmdTorch("2.9.1+rocmsdk20260116", {"rocm-sdk-core"});
  for (auto& g : s.gpus)
    if (g.architecture == "gfx1100") g.architecture = "gfx1103";  // a Phoenix APU: not in that route
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(Evidence(*f).find("found gfx1100 gfx1101 gfx1102 gfx1200 gfx1201 gfx1151"), std::string::npos)
      << Evidence(*f);
}

TEST(AmdWheelFamily, MultiArchWheelIsJudgedByItsDevicePackages) {
  auto fs = RunRules(WithAmdTorch("2.14.0+rocm10.1.0", {"rocm-sdk-core", "rocm-sdk-device-gfx1100"}));
  const Finding* ok = FindId(fs, "framework.torch_ok");
  ASSERT_NE(ok, nullptr) << Ids(fs);
  EXPECT_NE(Evidence(*ok).find("the device packages installed: rocm-sdk-device-gfx1100"), std::string::npos)
      << Evidence(*ok);

  fs = RunRules(WithAmdTorch("2.14.0+rocm10.1.0", {"rocm-sdk-core", "amd-torch-device-gfx1201"}));
  const Finding* none = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(none, nullptr) << Ids(fs);
  EXPECT_NE(Evidence(*none).find("required gfx1100 in AMD's multi-arch ROCm wheels"), std::string::npos)
      << Evidence(*none);
  EXPECT_NE(Evidence(*none).find("found gfx1201"), std::string::npos) << Evidence(*none);

  fs = RunRules(WithAmdTorch("2.12.0+rocm7.14.0", {"rocm-sdk-core", "rocm-sdk-libraries-gfx110X-all"}));
  EXPECT_TRUE(Has(fs, "framework.torch_ok")) << Ids(fs);  // the family gfx110X-all holds gfx1100
}

TEST(AmdWheelFamily, MultiArchWheelWithoutDevicePackagesIsNamedNotUnknown) {
  auto fs = RunRules(WithAmdTorch("2.14.0+rocm10.1.0", {"rocm-sdk-core"}));
  const Finding* f = FindId(fs, "framework.torch_unverified");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(
      f->title,
      "PyTorch 2.14.0+rocm10.1.0 is from AMD's multi-arch ROCm wheels (the ROCm SDK wheels with per-GPU "
      "device packages): which GPUs it carries code for is unchecked");
  EXPECT_EQ(f->title.find("not a build gpudoctor knows"), std::string::npos);
  // A ROCm build with no SDK package beside it and no record stays unknown.
  fs = RunRules(WithAmdTorch("2.14.0+rocm10.1.0", {}));
  f = FindId(fs, "framework.torch_unverified");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->title.find("not a build gpudoctor knows"), std::string::npos) << f->title;
}

}  // namespace
}  // namespace gpudoctor
