// The Windows rules (rules/windows_rules.cpp) on snapshots built in code, one requirement at a time:
// Windows 10 or an old Adrenalin blocks AMD's wheels, HIP 7 does not see RDNA2, a card left to the
// Microsoft Basic Display Adapter, no Python at all — and no fix ever sets HSA_OVERRIDE_GFX_VERSION.
#include <gtest/gtest.h>

#include "rules/shell.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

// A Windows machine with one AMD GPU as the Windows probe would describe it.
Snapshot Windows(uint32_t build, uint32_t device_id, uint32_t revision, const std::string& gfx,
                 const std::string& adrenalin, const std::string& service = "amdkmdag") {
  Snapshot s;
  s.os.family = OsFamily::kWindows;
  s.os.windows_build = build;
  s.os.distro_name = build >= 22000 ? "Windows 11 Pro" : "Windows 10 Pro";
  s.memory.total_bytes = 64ull << 30;
  PciDevice d;
  d.address = "0000:03:00.0";
  d.vendor_id = 0x1002;
  d.device_id = device_id;
  d.revision = revision;
  d.class_code = 0x030000;
  d.driver = service;
  s.pci_devices.push_back(d);
  Gpu g;
  g.pci_address = d.address;
  g.vendor = GpuVendor::kAmd;
  g.architecture = gfx;
  g.integrated = false;
  g.driver = service;
  s.gpus.push_back(g);
  WindowsAdapter a;
  a.pci_address = d.address;
  a.vendor_id = 0x1002;
  a.device_id = device_id;
  a.driver_service = service;
  a.driver_version = "32.0.22029.1019";
  a.release = adrenalin.empty() ? "" : "Adrenalin " + adrenalin;
  a.release_source = "registry RadeonSoftwareVersion";
  s.windows.adapters.push_back(a);
  s.windows.python_installs.push_back({"3.12", "C:\\Python312", "python.org", "folder"});
  return s;
}

void NoOverrideAdvised(const std::vector<Finding>& fs) {
  for (const auto& f : fs)
    for (const auto& a : f.fix)
      EXPECT_FALSE(a.kind == FixAction::Kind::kSetEnv && a.name == "HSA_OVERRIDE_GFX_VERSION") << f.id;
}

TEST(WindowsRules, Windows10BlocksAmdWheels) {
  auto fs = RunRules(Windows(19045, 0x744c, 0xc8, "gfx1100", "25.12.1"));
  const Finding* f = FindId(fs, "windows.amd_wheels_blocked");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->title, "AMD's Windows PyTorch wheels for gfx1100 need Windows 11 22H2+");
  auto lines = RenderFix(f->fix, Shell::kPowerShell);
  ASSERT_FALSE(lines.empty());
  EXPECT_FALSE(lines[0].command);
  EXPECT_NE(lines[0].text.find("Windows 11 22H2"), std::string::npos);
  NoOverrideAdvised(fs);
}

TEST(WindowsRules, AnOldAdrenalinBlocksAmdWheels) {
  auto fs = RunRules(Windows(26100, 0x7550, 0xc0, "gfx1201", "24.12.1"));
  const Finding* f = FindId(fs, "windows.amd_wheels_blocked");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->title, "AMD's Windows PyTorch wheels for gfx1201 need Adrenalin 25.11.1+");
  EXPECT_NE(std::find(f->evidence.begin(), f->evidence.end(),
                      "required Adrenalin 25.11.1 or newer, found Adrenalin 24.12.1"),
            f->evidence.end());
}

TEST(WindowsRules, AllMetIsReadyWithTheVenvInstall) {
  auto fs = RunRules(Windows(26100, 0x7550, 0xc0, "gfx1201", "26.3.1"));
  const Finding* f = FindId(fs, "windows.amd_wheels_ready");
  ASSERT_NE(f, nullptr) << Ids(fs);
  auto cmd = RenderFix(f->fix, Shell::kCmd);
  EXPECT_EQ(cmd[0].text, "py -3.12 -m venv \"%USERPROFILE%\\venv-rocm\"");  // Python 3.12 is there: no winget
}

TEST(WindowsRules, Hip7DoesNotSeeRdna2) {
  Snapshot s = Windows(26100, 0x73bf, 0xc1, "gfx1030", "25.12.1");
  s.runtimes.push_back({"hip-sdk", "C:\\Program Files\\AMD\\ROCm\\7.1", "7.1", "HIP_PATH"});
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "windows.hip_sdk_gpu");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->link, "https://github.com/ROCm/hip/issues/3899");
  EXPECT_TRUE(Has(fs, "windows.amd_therock"));
  NoOverrideAdvised(fs);
  // HIP SDK 6.2 lists gfx1030: nothing to say.
  s.runtimes.back() = {"hip-sdk", "C:\\Program Files\\AMD\\ROCm\\6.2", "6.2", "HIP_PATH"};
  EXPECT_FALSE(Has(RunRules(s), "windows.hip_sdk_gpu"));
}

// Audit 2026-12-05: amdhip64_7.dll ships with the Adrenalin driver, so a driver with amdhip64_6.dll alone
// predates ROCm 7: the fix is to update Adrenalin first, the HIP SDK being only for building HIP code.
TEST(WindowsRules, NoAmdhip64_7MeansUpdateAdrenalinFirst) {
  Snapshot s = Windows(26100, 0x744c, 0xc8, "gfx1100", "24.12.1");
  s.runtimes.push_back(
      {"hip-runtime", "C:\\Windows\\System32\\amdhip64_6.dll", "6.1.40093.0", "file version"});
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "windows.amd_driver");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_NE(f->title.find("no amdhip64_7.dll"), std::string::npos) << f->title;
  EXPECT_EQ(f->fix_summary.find("update Adrenalin first"), 0u) << f->fix_summary;
  EXPECT_NE(f->fix_summary.find("the HIP SDK is only needed to build HIP code"), std::string::npos)
      << f->fix_summary;
  ASSERT_EQ(f->fix.size(), 1u);
  EXPECT_NE(f->fix[0].text.find("Adrenalin"), std::string::npos) << f->fix[0].text;
  // The driver's own amdhip64_7.dll: nothing to do.
  s.runtimes.push_back(
      {"hip-runtime", "C:\\Windows\\System32\\amdhip64_7.dll", "7.2.53211.0", "file version"});
  fs = RunRules(s);
  f = FindId(fs, "windows.amd_driver");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kOk);
  EXPECT_TRUE(f->fix.empty());
}

// Audit 2026-12-05: ROCm 7.2 reaches WSL through librocdxg with HSA_ENABLE_DXG_DETECTION=1 (the ROCm 6.x
// library swap is gone), and librocdxg 1.1.0 lists the Ryzen AI 9 HX 370's Radeon 890M (gfx1150).
TEST(WindowsRules, WslAlternativeIsRocm72WithLibrocdxg) {
  auto fs = RunRules(Windows(19045, 0x150e, 0xc1, "gfx1150", "25.12.1"));
  const Finding* f = FindId(fs, "windows.amd_wheels_blocked");
  ASSERT_NE(f, nullptr) << Ids(fs);
  std::string evidence;
  for (const auto& e : f->evidence) evidence += e + "\n";
  EXPECT_NE(evidence.find("alternative: ROCm on WSL2 with librocdxg"), std::string::npos) << evidence;
  const TorchRoute* wsl = Db().FindRoute("rocm-wsl2");
  ASSERT_NE(wsl, nullptr);
  EXPECT_NE(wsl->install.bash.find("export HSA_ENABLE_DXG_DETECTION=1"), std::string::npos)
      << wsl->install.bash;
  EXPECT_NE(wsl->install.bash.find("librocdxg"), std::string::npos) << wsl->install.bash;
  EXPECT_EQ(wsl->install.bash.find("libhsa-runtime64"), std::string::npos) << wsl->install.bash;
  EXPECT_EQ(wsl->install.bash.find("--usecase=wsl"), std::string::npos) << wsl->install.bash;
}

TEST(WindowsRules, BasicDisplayAdapterMeansNoDriver) {
  auto fs = RunRules(Windows(22631, 0x744c, 0xc8, "gfx1100", "", "BasicDisplay"));
  const Finding* f = FindId(fs, "windows.display_driver_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_FALSE(Has(fs, "windows.amd_wheels_ready"));
  EXPECT_FALSE(Has(fs, "windows.amd_wheels_blocked"));
}

TEST(WindowsRules, NoPythonAtAll) {
  Snapshot s = Windows(22631, 0x744c, 0xc8, "gfx1100", "25.12.1");
  s.windows.python_installs.clear();
  auto fs = RunRules(s);
  ASSERT_TRUE(Has(fs, "windows.no_python")) << Ids(fs);
  const Finding* f = FindId(fs, "windows.amd_wheels_blocked");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(RenderFix(f->fix, Shell::kPowerShell)[0].text, "winget install -e --id Python.Python.3.12");
}

TEST(WindowsRules, NothingOnLinux) {
  Snapshot s = Windows(22631, 0x744c, 0xc8, "gfx1100", "25.12.1");
  s.os.family = OsFamily::kLinux;
  for (const auto& f : RunRules(s)) EXPECT_NE(f.id.rfind("windows.", 0), 0u) << f.id;
}

}  // namespace
}  // namespace gpudoctor
