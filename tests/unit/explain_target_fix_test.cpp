// The override advice gated on the GPU's target (target_fix.h, issue 14): a missing code object gets
// HSA_OVERRIDE_GFX_VERSION only with the value the knowledge base records for the target the log states,
// no value for targets that have none (gfx1033, RDNA1), a native build where one exists, PowerShell and no
// override for a Windows log, and how to find the target when the log does not say.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "explain/target_fix.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

Snapshot LinuxMachine(const std::string& arch = "") {
  Snapshot snap;
  snap.os.family = OsFamily::kLinux;
  if (!arch.empty()) {
    Gpu g;
    g.vendor = GpuVendor::kAmd;
    g.name = "Radeon test GPU";
    g.architecture = arch;
    g.pci_address = "0000:03:00.0";
    snap.gpus.push_back(g);
  }
  return snap;
}

// The report's first finding for `log` explained on `machine`.
ExplainedMatch Explain(const std::string& log, const Snapshot& machine, bool here = false) {
  LogScanner scanner(EmbeddedPrefilter(true));
  scanner.Feed(log);
  scanner.Finish();
  ExplainReport r =
      BuildExplainReport(scanner.matches(), scanner.stats(), machine, EmbeddedDb(), scanner.facts(), here);
  EXPECT_FALSE(r.matches.empty()) << log;
  return r.matches.empty() ? ExplainedMatch{} : r.matches.front();
}

std::string TargetFixBash(const ExplainedMatch& m) {
  std::string out;
  for (const TargetFix& t : m.target_fixes) out += t.commands.bash + "\n";
  return out;
}

TEST(ExplainTargetFix, Gfx1031GetsTheRdna2Value) {
  ExplainedMatch m = Explain(
      "rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: No such file or "
      "directory "
      "for GPU arch : gfx1031\n",
      LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  EXPECT_EQ(m.target_fixes[0].gfx, "gfx1031");
  EXPECT_NE(m.target_fixes[0].from.find("line 1"), std::string::npos);
  EXPECT_NE(m.target_fixes[0].advice.find("HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos);
  EXPECT_NE(m.target_fixes[0].advice.find("gfx1030"), std::string::npos);
  EXPECT_EQ(m.target_fixes[0].commands.bash, "export HSA_OVERRIDE_GFX_VERSION=10.3.0");
}

TEST(ExplainTargetFix, Gfx1103PrefersTheWheelThatCarriesIt) {
  ExplainedMatch m = Explain(
      "  Name:                    gfx1103\nhipErrorNoBinaryForGpu: Unable to find code object for "
      "all current devices!\n",
      LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  const TargetFix& f = m.target_fixes[0];
  EXPECT_EQ(f.gfx, "gfx1103");
  const TorchWheel* native = nullptr;
  for (const TorchWheel& w : EmbeddedDb().torch_wheels)
    if (w.rocm && WheelHasGfx(w, "gfx1103") && (!native || w.torch > native->torch)) native = &w;
  ASSERT_NE(native, nullptr);
  EXPECT_NE(f.advice.find("carry gfx1103 itself"), std::string::npos) << f.advice;
  EXPECT_NE(f.advice.find("11.0.0"), std::string::npos) << f.advice;  // only for an older build
  EXPECT_NE(f.commands.bash.find("# export HSA_OVERRIDE_GFX_VERSION=11.0.0"), std::string::npos)
      << f.commands.bash;
  EXPECT_NE(f.commands.bash.find("unset HSA_OVERRIDE_GFX_VERSION"), std::string::npos);
  EXPECT_NE(f.commands.bash.find("pip install"), std::string::npos) << f.commands.bash;
}

// Issue 30 item 2: advice resting on an entry nobody has compared with its source says so where it names
// the entry; a confirmed entry is named plainly. gfx1035's 10.3.0 rule is confirmed = false, gfx1031's is
// not.
TEST(ExplainTargetFix, AdviceOnUnconfirmedDataSaysSo) {
  const OverrideRule* risky = EmbeddedDb().FindOverrideRule("gfx1035");
  const OverrideRule* known = EmbeddedDb().FindOverrideRule("gfx1031");
  ASSERT_TRUE(risky != nullptr && known != nullptr);
  ASSERT_FALSE(risky->provenance.confirmed);
  ASSERT_TRUE(known->provenance.confirmed);
  const std::string risky_at = "overrides.toml:" + std::to_string(risky->provenance.origin.line);
  const std::string known_at = "overrides.toml:" + std::to_string(known->provenance.origin.line);
  TargetFix f = FixForTarget(FixTarget{"gfx1035", "test"}, false, EmbeddedDb());
  EXPECT_NE(f.advice.find(risky_at + ", unconfirmed"), std::string::npos) << f.advice;
  // Issue 30 item 4: the risky override ranks after a build made for gfx1035 ([[fix_ranking]]): the build's
  // command is live, the override only a comment.
  EXPECT_NE(f.advice.find("A build made for gfx1035 comes first"), std::string::npos) << f.advice;
  EXPECT_NE(f.commands.bash.find("pip install"), std::string::npos) << f.commands.bash;
  EXPECT_NE(f.commands.bash.find("# export HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos)
      << f.commands.bash;
  f = FixForTarget(FixTarget{"gfx1031", "test"}, false, EmbeddedDb());
  EXPECT_NE(f.advice.find(known_at + ")"), std::string::npos) << f.advice;
  EXPECT_EQ(f.advice.find("unconfirmed"), std::string::npos) << f.advice;
}

TEST(ExplainTargetFix, Gfx1033GetsNoOverrideAndTheWhy) {
  ExplainedMatch m =
      Explain("Name: gfx1033\nRuntimeError: HIP error: invalid device function\n", LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  const TargetFix& f = m.target_fixes[0];
  EXPECT_EQ(f.gfx, "gfx1033");
  EXPECT_NE(f.advice.find("No HSA_OVERRIDE_GFX_VERSION for gfx1033"), std::string::npos) << f.advice;
  EXPECT_NE(f.advice.find("wrong results"), std::string::npos) << f.advice;
  EXPECT_EQ(f.commands.bash.find("export"), std::string::npos) << f.commands.bash;
  EXPECT_EQ(f.commands.bash.find("pip install"), std::string::npos) << f.commands.bash;
}

TEST(ExplainTargetFix, Rdna1GetsNoOverrideButANativeBuild) {
  ExplainedMatch m = Explain("gpu_type=gfx1010\nhipErrorNoBinaryForGpu\n", LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  EXPECT_NE(m.target_fixes[0].advice.find("No HSA_OVERRIDE_GFX_VERSION for gfx1010"), std::string::npos);
  EXPECT_EQ(TargetFixBash(m).find("export HSA_OVERRIDE"), std::string::npos) << TargetFixBash(m);
}

TEST(ExplainTargetFix, UnknownTargetSaysHowToFindItAndGuessesNoValue) {
  ExplainedMatch m = Explain("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n",
                             LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  EXPECT_TRUE(m.target_fixes[0].gfx.empty());
  EXPECT_NE(m.target_fixes[0].commands.bash.find("rocminfo | grep"), std::string::npos);
  for (const char* value : {"10.3.0", "11.0.0", "9.0.0"})
    EXPECT_EQ(m.target_fixes[0].advice.find(value), std::string::npos) << value;
  EXPECT_TRUE(m.match.entry->commands.bash.empty()) << "the catalog entry carries no fixed override value";
}

TEST(ExplainTargetFix, ATargetNamedByTheGpuName) {
  ExplainedMatch m = Explain(
      "Device 0: AMD Radeon RX 6600, compute capability 10.3\nhipErrorNoBinaryForGpu\n", LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  EXPECT_EQ(m.target_fixes[0].gfx, "gfx1032");
  EXPECT_NE(m.target_fixes[0].from.find("Radeon RX 6600"), std::string::npos);
}

TEST(ExplainTargetFix, ListsOfCompiledTargetsAndTheOverriddenTargetAreNotTheGpu) {
  ExplainedMatch m = Explain(
      "msg=\"amdgpu is not supported\" gpu=0 gpu_type=gfx1032 library=/usr/lib/ollama "
      "supported_types=\"[gfx1030 gfx1100 gfx1101 gfx1102]\"\nhipErrorNoBinaryForGpu\n",
      LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  EXPECT_EQ(m.target_fixes[0].gfx, "gfx1032");

  // The override makes the runtime ask for gfx1030; the GPU's own target is not in the log.
  ExplainedMatch o = Explain(
      "export HSA_OVERRIDE_GFX_VERSION=10.3.0\nrocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/"
      "TensileLibrary.dat: No such file or directory for GPU arch : gfx1030\n",
      LinuxMachine());
  ASSERT_EQ(o.target_fixes.size(), 1u);
  EXPECT_TRUE(o.target_fixes[0].gfx.empty()) << o.target_fixes[0].gfx;
}

TEST(ExplainTargetFix, TheLogsTargetBeforeThisMachinesAndHereTheReverse) {
  const std::string log = "Name: gfx1032\nhipErrorNoBinaryForGpu\n";
  ExplainedMatch from_log = Explain(log, LinuxMachine("gfx1100"));
  ASSERT_FALSE(from_log.target_fixes.empty());
  EXPECT_EQ(from_log.target_fixes[0].gfx, "gfx1032");
  ExplainedMatch here = Explain(log, LinuxMachine("gfx1100"), true);
  ASSERT_FALSE(here.target_fixes.empty());
  EXPECT_EQ(here.target_fixes[0].gfx, "gfx1100");
  EXPECT_NE(here.target_fixes[0].from.find("this machine"), std::string::npos);
  EXPECT_NE(here.target_fixes[0].advice.find("needs no override"), std::string::npos)
      << here.target_fixes[0].advice;

  // A log stating no target, from this machine: this machine's target.
  ExplainedMatch machine = Explain("hipErrorNoBinaryForGpu\n", LinuxMachine("gfx1031"));
  ASSERT_FALSE(machine.target_fixes.empty());
  EXPECT_EQ(machine.target_fixes[0].gfx, "gfx1031");
}

TEST(ExplainTargetFix, WindowsLogGetsABuildInPowerShellAndNoOverride) {
  ExplainedMatch m =
      Explain("File \"C:\\Users\\me\\ComfyUI\\main.py\", line 3\nName: gfx1100\nhipErrorNoBinaryForGpu\n",
              LinuxMachine());
  ASSERT_EQ(m.target_fixes.size(), 1u);
  const TargetFix& f = m.target_fixes[0];
  EXPECT_NE(f.advice.find("does nothing"), std::string::npos) << f.advice;
  EXPECT_TRUE(f.commands.bash.empty());
  EXPECT_NE(f.commands.powershell.find("pip install"), std::string::npos) << f.commands.powershell;
  EXPECT_EQ(f.commands.powershell.find("HSA_OVERRIDE"), std::string::npos);
}

TEST(ExplainTargetFix, TextAndJsonShowTheTargetFix) {
  LogScanner scanner(EmbeddedPrefilter(true));
  scanner.Feed("Name: gfx1031\nhipErrorNoBinaryForGpu\n");
  scanner.Finish();
  ExplainReport r =
      BuildExplainReport(scanner.matches(), scanner.stats(), LinuxMachine(), EmbeddedDb(), scanner.facts());
  r.machine = "this machine";
  const std::string text = RenderExplainText(r, false);
  EXPECT_NE(text.find("For gfx1031 (from the log, line 1)"), std::string::npos) << text;
  EXPECT_NE(text.find("$ export HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos) << text;
  auto doc = nlohmann::json::parse(RenderExplainJson(r));
  const auto& fix = doc["matches"][0]["target_fixes"][0];
  EXPECT_EQ(fix["gfx"], "gfx1031");
  EXPECT_EQ(fix["commands"]["bash"], "export HSA_OVERRIDE_GFX_VERSION=10.3.0");
}

}  // namespace
}  // namespace gpudoctor
