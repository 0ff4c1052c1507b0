// Driver/runtime-layer rules on Snapshots built in code: kernel drivers, /dev/kfd access, ROCm trees,
// HSA_OVERRIDE_GFX_VERSION needed / right / not needed (RX 9070 XT on ROCm 7 -> remove it), the NVIDIA
// driver against the wheel's CUDA, and the Strix Halo kernel floor.
#include <gtest/gtest.h>

#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

struct RuntimeRuleCase {
  const char* name;
  Snapshot snap;
  const char* fires;
  Severity severity;
  const char* fix_part;
  const char* must_not;
};

Snapshot Rx9070Xt(const char* override_value) {
  Snapshot s = Linux();
  AddAmd(s, 0x7550, 0xC0, "gfx1201", 16);
  AddRocm(s, "7.0.2-56", "/opt/rocm-7.0.2");
  if (override_value) s.environment["HSA_OVERRIDE_GFX_VERSION"] = override_value;
  return s;
}

std::vector<RuntimeRuleCase> RuntimeRuleCases() {
  std::vector<RuntimeRuleCase> c;
  c.push_back({"Rx9070XtOnRocm7WithOverrideRemoveIt", Rx9070Xt("12.0.1"), "runtime.override_not_needed",
               Severity::kWarning, "unset HSA_OVERRIDE_GFX_VERSION", "runtime.override_ok"});
  {
    Snapshot s = Rx9070Xt("11.0.0");  // another family: the environment layer says so
    c.push_back({"Rx9070XtCrossFamilyIsNotRuntimes", s, "environment.override_cross_family", Severity::kError,
                 "unset HSA_OVERRIDE_GFX_VERSION", "runtime.override_ok"});
  }
  c.push_back({"Rx9070XtOnRocm7WithoutOverride", Rx9070Xt(nullptr), "runtime.rocm_supports_gpu",
               Severity::kOk, "", "runtime.override_needed"});
  {
    Snapshot s = Linux();
    AddAmd(s, 0x7550, 0xC0, "gfx1201", 16);
    AddTorch(s, "2.9.1+rocm6.4", "", "6.4.43484");
    s.environment["HSA_OVERRIDE_GFX_VERSION"] = "12.0.1";
    c.push_back({"Rx9070XtNativeWheelWithOverride", s, "runtime.override_not_needed", Severity::kWarning,
                 "unset", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x73DF, 0xC1, "gfx1031", 12);
    AddTorch(s, "2.5.1+rocm6.2", "", "6.2.41133");
    c.push_back({"Rx6700XtNeedsOverride", s, "runtime.override_needed", Severity::kWarning,
                 "export HSA_OVERRIDE_GFX_VERSION=10.3.0", "runtime.override_not_needed"});
    s.environment["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
    c.push_back(
        {"Rx6700XtOverrideIsRight", s, "runtime.override_ok", Severity::kOk, "", "runtime.override_needed"});
    Snapshot w = s;
    w.os.family = OsFamily::kWindows;
    c.push_back({"OverrideOnWindowsIsIgnored", w, "environment.override_windows", Severity::kInfo, "",
                 "runtime.override_ok"});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x731F, 0xC1, "gfx1010", 8);  // RDNA1: no override exists
    AddTorch(s, "2.5.1+rocm6.2", "", "6.2.41133");
    c.push_back({"Rdna1NeverGetsAnOverride", s, "framework.torch_no_kernels", Severity::kError,
                 "whl-multi-arch", "runtime.override_needed"});
  }
  {
    Snapshot s = Linux();
    AddNvidia(s, 0x1F99, 7, 5, "", "nouveau");
    s.os.distro_id = "fedora";
    c.push_back(
        {"NouveauBound", s, "runtime.driver_nouveau", Severity::kError, "akmod-nvidia", "runtime.driver_ok"});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24, false, "radeon");
    c.push_back({"RadeonBound", s, "runtime.driver_radeon", Severity::kError, "amdgpu.cik_support=1", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24, false, "vfio-pci");
    c.push_back({"VfioBound", s, "runtime.driver_vfio", Severity::kWarning, "", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24, false, "");
    c.push_back({"NoDriver", s, "runtime.driver_missing", Severity::kError, "modprobe amdgpu", ""});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    s.amd.device_nodes[0].accessible = false;
    s.amd.device_nodes[0].reason = "owned by group render; user bob is not a member";
    c.push_back({"KfdNotAccessible", s, "runtime.device_access", Severity::kError,
                 "sudo usermod -aG render,video $USER", "runtime.device_access_ok"});
  }
  {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    AddRocm(s, "6.4.1-1", "/opt/rocm-6.4.1");
    AddRocm(s, "7.0.2-56", "/opt/rocm-7.0.2");
    c.push_back({"TwoRocmTrees", s, "runtime.rocm_mixed", Severity::kWarning, "export ROCM_PATH=", ""});
    Snapshot one = Linux();
    AddAmd(one, 0x744C, 0xC8, "gfx1100", 24);
    AddRocm(one, "6.2.4-139", "/opt/rocm");
    AddRocm(one, "6.2.4-139", "/opt/rocm-6.2.4");
    c.push_back(
        {"LinkAndTreeAreOneRocm", one, "runtime.rocm_supports_gpu", Severity::kOk, "", "runtime.rocm_mixed"});
  }
  // ROCm 7.1 and 7.2 list gfx1030 (the compatibility matrix's 7.1.0, 7.1.1, 7.2.1-7.2.3 columns): an RX 6800
  // XT, W6800 or V620 on them is supported, not "runs only through a sibling target" (audit 2026-12-05).
  const std::pair<const char*, const char*> gfx1030_on[] = {{"Rx6800XtOnRocm71IsListed", "7.1.1-54"},
                                                            {"Rx6800XtOnRocm72IsListed", "7.2.1-81"}};
  for (const auto& [name, rocm] : gfx1030_on) {
    Snapshot s = Linux();
    AddAmd(s, 0x73BF, 0xC1, "gfx1030", 16);
    AddRocm(s, rocm, "/opt/rocm");
    c.push_back({name, s, "runtime.rocm_supports_gpu", Severity::kOk, "", "runtime.rocm_gpu_unlisted"});
  }
  {
    Snapshot s = Linux();
    AddNvidia(s, 0x2330, 9, 0, "520.61.05");
    AddTorch(s, "2.7.1+cu128", "12.8");
    c.push_back({"DriverTooOldForCu128", s, "runtime.cuda_driver_too_old", Severity::kError, "",
                 "runtime.cuda_driver_ok"});
    Snapshot ok = Linux();
    AddNvidia(ok, 0x2330, 9, 0, "570.124.06");
    ok.nvidia.cuda_driver_version = 12080;
    AddTorch(ok, "2.7.1+cu128", "12.8");
    c.push_back({"Driver570RunsCu128", ok, "runtime.cuda_driver_ok", Severity::kOk, "",
                 "runtime.cuda_driver_too_old"});
    Snapshot older = ok;
    older.nvidia.driver_version = "550.54.15";
    older.nvidia.cuda_driver_version = 12040;
    c.push_back({"Driver550RunsCu128ByCompat", older, "runtime.cuda_driver_older_than_wheel",
                 Severity::kWarning, "", "runtime.cuda_driver_too_old"});
  }
  {
    Snapshot s = Linux();
    s.os.kernel_release = "6.14.0-33-generic";
    AddAmd(s, 0x1586, 0xC1, "gfx1151", 0, true);
    c.push_back(
        {"StrixHaloOldKernel", s, "runtime.kernel_too_old", Severity::kWarning, "HSA_ENABLE_SDMA=0", ""});
    s.os.kernel_release = "6.18.4-generic";
    c.push_back({"StrixHaloNewKernel", s, "runtime.driver_ok", Severity::kOk, "", "runtime.kernel_too_old"});
  }
  return c;
}

class RuntimeRule : public ::testing::TestWithParam<RuntimeRuleCase> {};

TEST_P(RuntimeRule, FiresAsExpected) {
  const RuntimeRuleCase& c = GetParam();
  auto fs = RunRules(c.snap);
  const Finding* f = FindId(fs, c.fires);
  ASSERT_NE(f, nullptr) << c.fires << " missing; got " << Ids(fs);
  EXPECT_EQ(f->severity, c.severity) << Ids(fs);
  if (*c.fix_part) {
    EXPECT_NE(BashFix(*f).find(c.fix_part), std::string::npos) << BashFix(*f);
  }
  if (*c.must_not) {
    EXPECT_FALSE(Has(fs, c.must_not)) << Ids(fs);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, RuntimeRule, ::testing::ValuesIn(RuntimeRuleCases()),
                         [](const ::testing::TestParamInfo<RuntimeRuleCase>& p) {
                           return std::string(p.param.name);
                         });

TEST(RuntimeRules, OverrideNeverOnANativeTarget) {
  // Every target a current wheel carries: no "override needed" whatever the GPU.
  for (const char* gfx : {"gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1200", "gfx1201", "gfx942"}) {
    Snapshot s = Linux();
    AddAmd(s, 0x744C, 0xC8, gfx, 24);
    AddTorch(s, "2.9.1+rocm6.4", "", "6.4.43484");
    auto fs = RunRules(s);
    EXPECT_FALSE(Has(fs, "runtime.override_needed")) << gfx << ": " << Ids(fs);
  }
}

// torch 2.13's rocm7.1 and rocm7.2 wheels carry gfx1103 (release/2.13's build script; audit 2026-12-05): on
// a Radeon 780M the 11.0.0 override is to be removed there, never advised; 2.12's wheels still lack gfx1103.
TEST(RuntimeRules, Gfx1103OnTorch213RocmDropsTheOverride) {
  for (const char* torch : {"2.13.0+rocm7.2", "2.13.0+rocm7.1"}) {
    Snapshot s = Linux();
    AddAmd(s, 0x15BF, 0xC1, "gfx1103", 0, true);
    AddTorch(s, torch, "", "7.2.53211");
    s.environment["HSA_OVERRIDE_GFX_VERSION"] = "11.0.0";
    auto fs = RunRules(s);
    const Finding* f = FindId(fs, "runtime.override_not_needed");
    ASSERT_NE(f, nullptr) << torch << ": " << Ids(fs);
    EXPECT_NE(BashFix(*f).find("unset HSA_OVERRIDE_GFX_VERSION"), std::string::npos) << BashFix(*f);
    EXPECT_NE(f->evidence.back().find("from torch 2.13 rocm7.2 on"), std::string::npos) << f->evidence.back();
    EXPECT_FALSE(Has(fs, "runtime.override_ok")) << torch << ": " << Ids(fs);
    s.environment.erase("HSA_OVERRIDE_GFX_VERSION");
    fs = RunRules(s);
    EXPECT_FALSE(Has(fs, "runtime.override_needed")) << torch << ": " << Ids(fs);
    EXPECT_FALSE(Has(fs, "framework.torch_no_kernels")) << torch << ": " << Ids(fs);
  }
  Snapshot older = Linux();
  AddAmd(older, 0x15BF, 0xC1, "gfx1103", 0, true);
  AddTorch(older, "2.12.0+rocm7.2", "", "7.2.53211");
  auto fs = RunRules(older);
  const Finding* f = FindId(fs, "runtime.override_needed");
  ASSERT_NE(f, nullptr) << Ids(fs);
  // A wheel carrying gfx1103 exists: it comes first; the override is the last fallback (issue 30 item 4).
  EXPECT_NE(BashFix(*f).find("whl/rocm7.14"), std::string::npos) << BashFix(*f);
  EXPECT_NE(f->title.find("install a build that carries it"), std::string::npos) << f->title;
  ASSERT_FALSE(f->alternatives.empty());
  EXPECT_EQ(f->alternatives.back().fix,
            std::vector<FixAction>{FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "11.0.0")});
}

// Issue 13: R580 is the last driver branch for Maxwell, Pascal and Volta (cuda_drivers.toml last_for).
// A newer branch on a GTX 1080 is an error whose fix names R580; a Turing card on it is fine.
TEST(RuntimeRules, DriverNewerThanR580OnPascalIsAnError) {
  Snapshot s = Linux();
  AddNvidia(s, 0x1B80, 6, 1, "590.44.01");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "runtime.driver_branch_drops_gpu");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->title.find("Pascal"), std::string::npos) << f->title;
  EXPECT_NE(f->fix_summary.find("R580"), std::string::npos) << f->fix_summary;
  EXPECT_NE(BashFix(*f).find("sudo ubuntu-drivers install nvidia:580"), std::string::npos) << BashFix(*f);
  // On the last branch itself: no finding.
  Snapshot ok = Linux();
  AddNvidia(ok, 0x1B80, 6, 1, "580.105.08");
  EXPECT_FALSE(Has(RunRules(ok), "runtime.driver_branch_drops_gpu"));
  // Turing (RTX 2080, 7.5) is not dropped by 590.
  Snapshot turing = Linux();
  AddNvidia(turing, 0x1E87, 7, 5, "590.44.01");
  EXPECT_FALSE(Has(RunRules(turing), "runtime.driver_branch_drops_gpu"));
}

// Windows numbers R580's drivers 580.xx and 581.xx (cuda_drivers.toml [[nvidia_windows_branch]]): a GTX
// 1080 on Windows 581.57 is on its last branch (no false error); on 590.xx it gets the real finding, whose
// fix names both Windows numbers of R580.
TEST(RuntimeRules, WindowsDriver581IsStillR580) {
  Snapshot s = Linux();
  s.os.family = OsFamily::kWindows;
  AddNvidia(s, 0x1B80, 6, 1, "581.57");
  auto fs = RunRules(s);
  EXPECT_FALSE(Has(fs, "runtime.driver_branch_drops_gpu")) << Ids(fs);

  Snapshot newer = Linux();
  newer.os.family = OsFamily::kWindows;
  AddNvidia(newer, 0x1B80, 6, 1, "591.86");
  fs = RunRules(newer);
  const Finding* f = FindId(fs, "runtime.driver_branch_drops_gpu");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  std::string fix;
  for (const FixAction& a : f->fix) fix += a.text + "\n";
  EXPECT_NE(fix.find("580.xx or 581.xx"), std::string::npos) << fix;

  // On Linux a 581 driver would be a newer branch: the Windows numbering stays on Windows.
  Snapshot linux_581 = Linux();
  AddNvidia(linux_581, 0x1B80, 6, 1, "581.10");
  EXPECT_TRUE(Has(RunRules(linux_581), "runtime.driver_branch_drops_gpu"));
}

// A plain "update the driver" advice on a Pascal card says to stay on R580.
TEST(RuntimeRules, DriverUpdateAdviceOnPascalNamesR580) {
  Snapshot s = Linux();
  AddNvidia(s, 0x1B80, 6, 1, "470.256.02");
  AddTorch(s, "2.7.1+cu126", "12.6");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "runtime.cuda_driver_too_old");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->fix_summary.find("R580 branch"), std::string::npos) << f->fix_summary;
  // The branch by number, never the plain `ubuntu-drivers install` that would take a newer branch.
  const std::string fix = BashFix(*f);
  const size_t at = fix.find("ubuntu-drivers install");
  ASSERT_NE(at, std::string::npos) << fix;
  EXPECT_EQ(fix.substr(at, 33), "ubuntu-drivers install nvidia:580") << fix;
  EXPECT_EQ(fix.find("ubuntu-drivers install", at + 1), std::string::npos) << fix;
}

}  // namespace
}  // namespace gpudoctor
