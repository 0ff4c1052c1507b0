// Framework-layer rules on Snapshots built in code: each case names the machine, the torch build and
// the finding that must (or must not) fire. Pins the issue-3 cases: GTX 1080 + cu128 -> cu126,
// RX 6700 XT + rocm6.2 -> override 10.3.0, a CPU wheel on a GPU machine -> the right index URL.
#include <gtest/gtest.h>

#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

struct FrameworkRuleCase {
  const char* name;
  Snapshot snap;
  const char* fires;     // id that must be present ("" for none)
  Severity severity;     // its severity
  const char* fix_part;  // text the bash fix must contain ("" for none)
  const char* must_not;  // id that must be absent ("" for none)
};

Snapshot Gtx1080(const std::string& torch, const std::string& cuda) {
  Snapshot s = Linux();
  AddNvidia(s, 0x1B80, 6, 1);
  AddTorch(s, torch, cuda);
  return s;
}

Snapshot Rx6700Xt(const std::string& torch, const std::string& hip, const char* override_value) {
  Snapshot s = Linux();
  AddAmd(s, 0x73DF, 0xC1, "gfx1031", 12);
  AddTorch(s, torch, "", hip);
  if (override_value) s.environment["HSA_OVERRIDE_GFX_VERSION"] = override_value;
  return s;
}

std::vector<FrameworkRuleCase> FrameworkRuleCases() {
  std::vector<FrameworkRuleCase> c;
  c.push_back({"Gtx1080WithCu128NeedsCu126", Gtx1080("2.7.1+cu128", "12.8"), "framework.torch_no_kernels",
               Severity::kError, "whl/cu126", "framework.torch_ok"});
  c.push_back({"Gtx1080WithCu126IsFine", Gtx1080("2.7.1+cu126", "12.6"), "framework.torch_ok", Severity::kOk,
               "", "framework.torch_no_kernels"});
  {
    Snapshot s = Linux();
    AddNvidia(s, 0x2330, 9, 0);
    AddTorch(s, "2.7.1+cu128", "12.8");
    c.push_back(
        {"H100WithCu128IsFine", s, "framework.torch_ok", Severity::kOk, "", "framework.torch_no_kernels"});
  }
  c.push_back({"Rx6700XtRocm62WithoutOverride", Rx6700Xt("2.5.1+rocm6.2", "6.2.41133", nullptr),
               "framework.torch_no_kernels", Severity::kError, "HSA_OVERRIDE_GFX_VERSION=10.3.0", ""});
  c.push_back({"Rx6700XtRocm62WithOverride", Rx6700Xt("2.5.1+rocm6.2", "6.2.41133", "10.3.0"),
               "framework.torch_via_override", Severity::kOk, "", "framework.torch_no_kernels"});
  c.push_back({"Rx6700XtCpuWheel", Rx6700Xt("2.7.1+cpu", "", nullptr), "framework.torch_cpu_only",
               Severity::kError, "rocm.nightlies.amd.com/whl-multi-arch", ""});
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    AddTorch(s, "2.7.1+cpu");
    c.push_back({"Rx7900XtxCpuWheelGetsRocmIndex", s, "framework.torch_cpu_only", Severity::kError,
                 "download.pytorch.org/whl/rocm", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    AddTorch(s, "2.7.1+cu128", "12.8");
    c.push_back({"CudaWheelOnAmd", s, "framework.torch_wrong_vendor", Severity::kError,
                 "pip uninstall -y torch", ""});
  }
  {
    Snapshot s = Linux();
    AddNvidia(s, 0x2330, 9, 0);
    AddTorch(s, "2.5.1+rocm6.2", "", "6.2.41133");
    c.push_back({"RocmWheelOnNvidia", s, "framework.torch_wrong_vendor", Severity::kError, "whl/cu", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    c.push_back({"NoTorchGetsInstallCommand", s, "framework.no_torch", Severity::kInfo, "whl/rocm7.14", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    AddTorch(s, "2.14.0+rocm10.1.0", "", "10.1.0");
    c.push_back({"TheRockBuildIsUnverified", s, "framework.torch_unverified", Severity::kInfo, "",
                 "framework.torch_no_kernels"});
  }
  return c;
}

class FrameworkRule : public ::testing::TestWithParam<FrameworkRuleCase> {};

TEST_P(FrameworkRule, FiresAsExpected) {
  const FrameworkRuleCase& c = GetParam();
  auto fs = RunRules(c.snap);
  if (*c.fires) {
    const Finding* f = FindId(fs, c.fires);
    ASSERT_NE(f, nullptr) << c.fires << " missing; got " << Ids(fs);
    EXPECT_EQ(f->severity, c.severity) << Ids(fs);
    if (*c.fix_part) {
      EXPECT_NE(BashFix(*f).find(c.fix_part), std::string::npos) << BashFix(*f);
    }
  }
  if (*c.must_not) {
    EXPECT_FALSE(Has(fs, c.must_not)) << Ids(fs);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, FrameworkRule, ::testing::ValuesIn(FrameworkRuleCases()),
                         [](const ::testing::TestParamInfo<FrameworkRuleCase>& p) {
                           return std::string(p.param.name);
                         });

TEST(FrameworkRules, CpuWheelFixUninstallsAllThreeFirst) {
  Snapshot s = Rx6700Xt("2.7.1+cpu", "", nullptr);
  auto f_all = RunRules(s);
  const Finding* f = FindId(f_all, "framework.torch_cpu_only");
  ASSERT_NE(f, nullptr);
  ASSERT_GE(f->fix.size(), 2u);
  EXPECT_NE(f->fix[0].commands.bash.find("uninstall -y torch torchvision torchaudio"), std::string::npos);
  // A venv's own interpreter, so the fix lands in that environment.
  EXPECT_EQ(f->fix[0].commands.bash.rfind("/home/u/.venv/bin/python -m pip", 0), 0u)
      << f->fix[0].commands.bash;
  EXPECT_NE(f->fix_summary.find("torchvision"), std::string::npos);
}

TEST(FrameworkRules, MakeTorchViewReadsVariantAndRocm) {
  PythonEnv e;
  e.torch = TorchInstall{"2.5.1+rocm6.2", "", "6.2.41133-dd7f95766", "/x/torch"};
  TorchView t = MakeTorchView(e, Db());
  EXPECT_EQ(t.variant, "rocm6.2");
  EXPECT_EQ(t.build, TorchBuild::kRocm);
  ASSERT_TRUE(t.rocm);
  EXPECT_EQ(t.rocm->ToString(), "6.2");
  EXPECT_NE(t.wheel, nullptr);
  e.torch = TorchInstall{"2.8.0a0+gitfc14c65", "", "", "/x/torch"};
  t = MakeTorchView(e, Db());
  ASSERT_TRUE(t.version);
  EXPECT_EQ(t.version->ToString(), "2.8.0");
  EXPECT_EQ(t.wheel, nullptr);
}

}  // namespace
}  // namespace gpudoctor
