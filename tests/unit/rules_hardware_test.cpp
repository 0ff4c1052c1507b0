// Hardware-layer rules on Snapshots built in code: no GPU, unknown GPU, the route per OS, VRAM, RAM,
// disk, and an iGPU beside a dGPU (with the dGPU's index among the AMD KFD nodes).
#include <gtest/gtest.h>

#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

TEST(HardwareRules, NoGpuIsAnErrorWithTheCpuCommand) {
  Snapshot s = Linux();
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "hardware.no_gpu");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(BashFix(*f).find("whl/cpu"), std::string::npos);
}

TEST(HardwareRules, KnownGpuIsOkAndUnknownIsAWarning) {
  Snapshot s = Linux();
  AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
  auto fs = RunRules(s);
  EXPECT_TRUE(Has(fs, "hardware.gpu_known")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "hardware.gpu_unknown"));
  Snapshot u = Linux();
  AddNvidia(u, 0xFFFF, 0, 0, "", "");  // no NVML, not in the DB
  auto fu = RunRules(u);
  const Finding* f = FindId(fu, "hardware.gpu_unknown");
  ASSERT_NE(f, nullptr) << Ids(fu);
  EXPECT_EQ(f->severity, Severity::kWarning);
}

struct RouteCase {
  const char* name;
  const char* os;  // linux, windows, wsl
  uint32_t device;
  uint32_t revision;
  const char* gfx;
  const char* route_title_part;
  Severity severity;
};

class HardwareRoute : public ::testing::TestWithParam<RouteCase> {};

TEST_P(HardwareRoute, PicksTheRouteAnExpertWould) {
  const RouteCase& c = GetParam();
  Snapshot s = Linux();
  if (std::string(c.os) == "windows") s.os.family = OsFamily::kWindows;
  if (std::string(c.os) == "wsl") s.os.wsl = true;
  AddAmd(s, c.device, c.revision, c.gfx, 16);
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "hardware.route");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->title.find(c.route_title_part), std::string::npos) << f->title;
  EXPECT_EQ(f->severity, c.severity);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, HardwareRoute,
    ::testing::Values(
        RouteCase{"Rx7900XtxLinux", "linux", 0x744C, 0xC8, "gfx1100", "PyTorch ROCm wheels", Severity::kOk},
        RouteCase{"Rx6700XtLinux", "linux", 0x73DF, 0xC1, "gfx1031", "TheRock", Severity::kInfo},
        RouteCase{"Rx9070XtWindows", "windows", 0x7550, 0xC0, "gfx1201", "AMD's PyTorch wheels for Windows",
                  Severity::kOk},
        RouteCase{"Rx6700XtWindows", "windows", 0x73DF, 0xC1, "gfx1031", "TheRock", Severity::kInfo},
        RouteCase{"Rx7900XtxWsl", "wsl", 0x744C, 0xC8, "gfx1100", "ROCm on WSL2", Severity::kOk}),
    [](const ::testing::TestParamInfo<RouteCase>& p) { return std::string(p.param.name); });

TEST(HardwareRules, VramBelow8GiBWarnsOnlyForDiscreteGpus) {
  Snapshot s = Linux();
  AddAmd(s, 0x7480, 0xCF, "gfx1102", 4);
  auto fs = RunRules(s);
  EXPECT_TRUE(Has(fs, "hardware.vram_low")) << Ids(fs);
  Snapshot big = Linux();
  AddAmd(big, 0x744C, 0xC8, "gfx1100", 24);
  EXPECT_FALSE(Has(RunRules(big), "hardware.vram_low"));
  Snapshot apu = Linux();
  AddAmd(apu, 0x1586, 0xC1, "gfx1151", 0, true);
  EXPECT_FALSE(Has(RunRules(apu), "hardware.vram_low"));
}

// Audit 2026-12-05: GB10 (DGX Spark) and the RTX Spark N1X are integrated GPUs sharing the system's
// memory (chip GB20B, cc 12.1), not discrete cards: what the driver reports as their memory is no VRAM to
// warn about, and the report says "integrated". A discrete Blackwell card with as little still gets the
// warning.
TEST(HardwareRules, Gb10IsIntegratedLikeAnApu) {
  Snapshot gb10 = Linux();
  AddNvidia(gb10, 0x2E12, 12, 1, "580.95.05");
  gb10.gpus.back().vram_bytes = 4ull << 30;
  auto fs = RunRules(gb10);
  EXPECT_FALSE(Has(fs, "hardware.vram_low")) << Ids(fs);
  const Finding* f = FindId(fs, "hardware.gpu_known");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->title.find("integrated"), std::string::npos) << f->title;
  Snapshot rtx = Linux();
  AddNvidia(rtx, 0x2D83, 12, 0, "580.95.05");  // GeForce RTX 5050
  rtx.gpus.back().vram_bytes = 4ull << 30;
  EXPECT_TRUE(Has(RunRules(rtx), "hardware.vram_low"));
}

TEST(HardwareRules, RamAndDisk) {
  Snapshot s = Linux();
  AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
  s.memory.total_bytes = 8ull << 30;
  s.disk.path = "/home/u";
  s.disk.free_bytes = 10ull << 30;
  auto fs = RunRules(s);
  ASSERT_NE(FindId(fs, "hardware.ram_low"), nullptr);
  EXPECT_EQ(FindId(fs, "hardware.ram_low")->severity, Severity::kInfo);
  ASSERT_NE(FindId(fs, "hardware.disk_low"), nullptr);
  EXPECT_EQ(FindId(fs, "hardware.disk_low")->severity, Severity::kWarning);
  s.memory.total_bytes = 64ull << 30;
  s.disk.free_bytes = 500ull << 30;
  auto ok = RunRules(s);
  EXPECT_FALSE(Has(ok, "hardware.ram_low"));
  EXPECT_FALSE(Has(ok, "hardware.disk_low"));
}

TEST(HardwareRules, IntegratedBesideDiscreteGetsTheDiscreteIndex) {
  Snapshot s = Linux();
  AddAmd(s, 0x164E, 0xC1, "gfx1036", 0, true);  // KFD node 1: the iGPU comes first here
  AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);       // KFD node 2
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "hardware.igpu_with_dgpu");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(BashFix(*f).find("export HIP_VISIBLE_DEVICES=1"), std::string::npos) << BashFix(*f);
  s.environment["ROCR_VISIBLE_DEVICES"] = "1";
  auto hidden_all = RunRules(s);
  const Finding* hidden = FindId(hidden_all, "hardware.igpu_with_dgpu");
  ASSERT_NE(hidden, nullptr);
  EXPECT_EQ(hidden->severity, Severity::kOk);
}

TEST(HardwareRules, IdenticalGpusAreReportedOnce) {
  Snapshot s = Linux();
  for (int i = 0; i < 4; ++i) AddNvidia(s, 0x2330, 9, 0);
  auto fs = RunRules(s);
  size_t known = 0;
  for (const auto& f : fs) known += f.id == "hardware.gpu_known";
  EXPECT_EQ(known, 1u) << Ids(fs);
  EXPECT_EQ(FindId(fs, "hardware.gpu_known")->subject.rfind("4 x ", 0), 0u);
}

TEST(RuleCatalogue, EveryIdTheRulesProduceIsExplained) {
  std::vector<Snapshot> machines;
  machines.push_back(Linux());
  for (const auto& f : RunRules(machines.back())) EXPECT_NE(FindRuleInfo(f.id), nullptr) << f.id;
  for (const auto& info : AllRuleInfo()) {
    EXPECT_FALSE(info.checks.empty()) << info.id;
    EXPECT_NE(info.id.find('.'), std::string_view::npos) << info.id;
  }
}

// Every install or fix command of every finding, in every shell, joined.
std::string AllCommands(const std::vector<Finding>& fs) {
  std::string out;
  for (const auto& f : fs)
    for (const auto& a : f.fix)
      out += a.commands.bash + "\n" + a.commands.powershell + "\n" + a.commands.cmd + "\n" + a.value + "\n";
  return out;
}

// Issue 13: on the Steam Deck (gfx1033) AMD's native gfx1033 build trains to wrong results as the
// borrowed gfx1030 code does (unsloth PR 8412), so even with no override set check offers no GPU
// route (TheRock lists gfx1033): an error with the evidence, and the CPU build as the way out.
TEST(HardwareRules, Gfx1033GetsNoRouteEvenWithoutAnOverride) {
  Snapshot s = Linux();
  AddAmd(s, 0x163F, 0xAE, "gfx1033", 1, true);
  AddTorch(s, "2.9.1+cpu");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "hardware.gpu_wrong_results");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  std::string evidence;
  for (const auto& e : f->evidence) evidence += e + "\n";
  EXPECT_NE(evidence.find("native gfx1033 build"), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("gfx1033-wrong-results"), std::string::npos) << evidence;
  EXPECT_EQ(f->link, "https://github.com/unslothai/unsloth/pull/8412");
  EXPECT_NE(BashFix(*f).find("whl/cpu"), std::string::npos) << BashFix(*f);
  EXPECT_FALSE(Has(fs, "hardware.route")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "hardware.gpu_not_usable")) << Ids(fs);
  const std::string commands = AllCommands(fs);
  EXPECT_EQ(commands.find("gfx1033"), std::string::npos) << commands;
  EXPECT_EQ(commands.find("rocm"), std::string::npos) << commands;
  EXPECT_EQ(commands.find("HSA_OVERRIDE"), std::string::npos) << commands;
  // gfx1030, the same family without the pitfall, keeps its route.
  Snapshot d = Linux();
  AddAmd(d, 0x73BF, 0xC1, "gfx1030", 16);
  EXPECT_TRUE(Has(RunRules(d), "hardware.route")) << Ids(RunRules(d));
  EXPECT_FALSE(Has(RunRules(d), "hardware.gpu_wrong_results"));
}

// The same on native Windows: no TheRock, ZLUDA or WSL2 door is offered for gfx1033.
TEST(HardwareRules, Gfx1033GetsNoRouteOnWindows) {
  Snapshot s;
  s.os.family = OsFamily::kWindows;
  s.os.windows_build = 26100;
  s.os.distro_name = "Windows 11 Pro";
  s.memory.total_bytes = 16ull << 30;
  AddAmd(s, 0x163F, 0xAE, "gfx1033", 1, true, "amdkmdag");
  s.amd = {};
  auto fs = RunRules(s);
  ASSERT_TRUE(Has(fs, "hardware.gpu_wrong_results")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "windows.amd_therock")) << Ids(fs);
  const std::string commands = AllCommands(fs);
  EXPECT_EQ(commands.find("gfx1033"), std::string::npos) << commands;
  EXPECT_EQ(commands.find("nightlies"), std::string::npos) << commands;
}

}  // namespace
}  // namespace gpudoctor
