// `gpudoctor setup`'s plan (issue 36) on every recorded machine: the PyTorch it installs comes from the same
// index as check's first fix that installs torch, a machine where check finds nothing to do gets an empty
// plan, and what an expert would install is asserted for the machines that show each case. The plan's text
// is compared with tests/golden/<machine>.setup.txt (`./dev.sh update-goldens` rewrites them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "golden_test_util.h"
#include "platform/filesystem.h"
#include "probe/probe_inputs.h"
#include "recorded_fixture_names.h"
#include "rules/pinned_fixes.h"
#include "rules/shell.h"
#include "rules_test_util.h"
#include "setup/pip_line.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"
#include "setup_plan_test_util.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing::kFixtures;
using testing::kGolden;
using testing::TorchStep;
using testing_rules::Db;

struct Machine {
  Snapshot snap;
  Shell shell = Shell::kBash;
  std::vector<Finding> findings;  // check's, worst first, without the "ok" ones
};

Machine RecordedMachine(const std::string& name) {
  Machine m;
  m.snap = ProbeMachine(MakeRecordedInputs(kFixtures + name));
  m.shell = DetectShell(m.snap.os.family, Environment());
  RuleOptions options;
  options.include_ok = false;
  m.findings = RunAllRules(m.snap, Db(), options);
  SortWorstFirst(m.findings);
  return m;
}

SetupPlan Plan(const Machine& m, PlanMode mode = PlanMode::kNewEnvironment) {
  PlanRequest request;
  request.mode = mode;
  request.shell = m.shell;
  return PlanSetup(m.snap, Db(), request);
}

std::string Line(const ShellCommands& c, Shell shell) {
  const std::string& own = shell == Shell::kBash ? c.bash : c.powershell;
  return own.empty() ? (c.bash.empty() ? c.powershell : c.bash) : own;
}

// check's first fix line that installs torch, read the way a user reads the report: a `pip install` line
// naming torch. "" when no fix installs torch.
std::string FirstTorchInstall(const Machine& m) {
  for (const Finding& f : m.findings) {
    for (const FixAction& a : f.fix) {
      if (a.kind != FixAction::Kind::kCommand) continue;
      const std::string line = Line(a.commands, m.shell);
      if (line.find("pip install") == std::string::npos) continue;
      if (line.find(" torch ") != std::string::npos || line.find("\"torch[") != std::string::npos ||
          line.find("\"torch==") != std::string::npos)
        return line;
    }
  }
  return "";
}

bool NeedsSomething(const Machine& m) {
  if (!FirstTorchInstall(m).empty()) return true;
  return std::any_of(m.findings.begin(), m.findings.end(), [](const Finding& f) {
    return f.severity >= Severity::kWarning && !f.id.starts_with("knowledge.") && !f.fix.empty();
  });
}

class SetupRecordedMachine : public ::testing::TestWithParam<std::string> {};

TEST_P(SetupRecordedMachine, InstallsFromTheIndexOfChecksFirstFix) {
  const Machine m = RecordedMachine(GetParam());
  const SetupPlan plan = Plan(m);
  const std::string line = FirstTorchInstall(m);
  const PackageStep* torch = TorchStep(plan);
  if (line.empty()) {
    EXPECT_EQ(torch, nullptr) << "check installs no torch here, the plan does: " << RenderPlanText(plan);
    return;
  }
  ASSERT_NE(torch, nullptr) << "check's fix installs torch (" << line << "), the plan does not";
  const std::string index = IndexUrlOf(line);
  EXPECT_EQ(torch->index_url, index) << line;
  if (line.find("--find-links ") != std::string::npos) {
    EXPECT_NE(line.find("--find-links " + torch->find_links), std::string::npos) << line;
  }
  if (!torch->variant.empty()) {
    EXPECT_TRUE(index.ends_with("/" + torch->variant)) << index;
  }
  EXPECT_TRUE(torch->uninstall.empty()) << "a new environment has nothing to remove";
  EXPECT_EQ(plan.environment, ".venv");
}

TEST_P(SetupRecordedMachine, IsEmptyExactlyWhereNothingIsNeeded) {
  const Machine m = RecordedMachine(GetParam());
  const SetupPlan plan = Plan(m);
  EXPECT_EQ(plan.Empty(), !NeedsSomething(m)) << RenderPlanText(plan);
}

TEST_P(SetupRecordedMachine, MatchesGoldenPlan) {
  if (GetParam() == "rx6700xt-x8-slot" && !testing::ThisBuildSeesLinks()) GTEST_SKIP() << testing::kLinkSkip;
  testing::CompareWithGolden(kGolden + GetParam() + ".setup.txt",
                             RenderPlanText(Plan(RecordedMachine(GetParam()))));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SetupRecordedMachine, ::testing::ValuesIn(testing::RecordedMachineNames()),
                         testing::MachineTestName);

bool HasVariable(const SetupPlan& plan, const std::string& name) {
  return std::any_of(plan.variables.begin(), plan.variables.end(),
                     [&](const VariableStep& v) { return v.name == name; });
}

// What an expert installs, machine by machine.
TEST(SetupPlan, HealthyMachinesGetNothing) {
  for (const char* name : {"h100-sxm-server", "mi300x-8gpu-node", "win11-rtx4090-conda"})
    EXPECT_TRUE(Plan(RecordedMachine(name)).Empty()) << name;
}

TEST(SetupPlan, Gtx1080GetsACu126TorchPinnedToAReleaseWithSm61) {
  const SetupPlan plan = Plan(RecordedMachine("gtx1080-desktop"));
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->variant, "cu126");
  EXPECT_EQ(torch->index_url, "https://download.pytorch.org/whl/cu126");
  ASSERT_EQ(torch->requirements.size(), 3u);
  EXPECT_TRUE(torch->requirements[0].starts_with("torch==2.")) << torch->requirements[0];
  EXPECT_TRUE(torch->requirements[1].starts_with("torchvision==0.")) << torch->requirements[1];
  EXPECT_TRUE(torch->requirements[1].ends_with(".*")) << torch->requirements[1];
  EXPECT_TRUE(torch->requirements[2].starts_with("torchaudio==2.")) << torch->requirements[2];
  // The pinned release's cu126 wheel carries sm_61 code (the knowledge base's record of it).
  std::string pin = torch->requirements[0].substr(7);  // "2.14.*": the series
  if (pin.ends_with(".*")) pin.resize(pin.size() - 2);
  const auto pinned = Version::Parse(pin);
  ASSERT_TRUE(pinned.has_value()) << torch->requirements[0];
  const TorchWheel* w = Db().FindTorchWheel(*pinned, "cu126");
  ASSERT_NE(w, nullptr);
  const CcSupport s = WheelSupportsCc(*w, *Version::Parse("6.1"));
  EXPECT_TRUE(s == CcSupport::kExactCubin || s == CcSupport::kCompatibleCubin);
  EXPECT_FALSE(plan.python_versions.empty());
  EXPECT_TRUE(plan.manual.empty());
  EXPECT_TRUE(plan.variables.empty());
}

TEST(SetupPlan, Rx7800xtGetsItsOwnBuildAndNoOverride) {
  const SetupPlan plan = Plan(RecordedMachine("rx7800xt-old-wheel"));
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->variant, "rocm7.14");
  EXPECT_FALSE(HasVariable(plan, "HSA_OVERRIDE_GFX_VERSION")) << "a build carrying gfx1101 needs no override";
  EXPECT_EQ(plan.packages.size(), 1u) << "two findings with the same fix install once";
}

TEST(SetupPlan, DriverStepsAreNamedNotPackages) {
  const SetupPlan plan = Plan(RecordedMachine("rtx3060-desktop"));
  EXPECT_TRUE(plan.packages.empty()) << "its torch is fine";
  ASSERT_EQ(plan.manual.size(), 1u);
  EXPECT_EQ(plan.manual[0].finding, "runtime.driver_missing");
  EXPECT_NE(RenderPlanText(plan).find("sudo ubuntu-drivers install"), std::string::npos);
}

TEST(SetupPlan, IgpuBesideADgpuHidesItAndAsksForTheGroups) {
  const SetupPlan plan = Plan(RecordedMachine("rx7900xtx-raphael"));
  ASSERT_TRUE(HasVariable(plan, "HIP_VISIBLE_DEVICES"));
  EXPECT_EQ(plan.variables[0].value, "0");
  ASSERT_FALSE(plan.manual.empty());
  EXPECT_NE(plan.manual[0].lines[0].find("usermod -aG render,video"), std::string::npos);
  ASSERT_NE(TorchStep(plan), nullptr);
  EXPECT_EQ(TorchStep(plan)->variant, "rocm7.14");
}

TEST(SetupPlan, RepairRemovesTheWrongBuildFromTheJudgedEnvironment) {
  const SetupPlan plan = Plan(RecordedMachine("phoenix-apu-laptop"), PlanMode::kRepair);
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->uninstall, (std::vector<std::string>{"torch", "torchvision", "torchaudio"}));
  EXPECT_EQ(plan.environment, "/home/greta/ai/.venv");
}

TEST(SetupPlan, RepairTakesAddOnFixesANewEnvironmentLeavesOut) {
  const Machine m = RecordedMachine("rtx4090-xformers-desktop");
  EXPECT_TRUE(Plan(m).packages.empty());
  const SetupPlan repair = Plan(m, PlanMode::kRepair);
  ASSERT_EQ(repair.packages.size(), 1u);
  EXPECT_EQ(repair.packages[0].requirements, (std::vector<std::string>{"xformers==0.0.29.post3"}));
  EXPECT_EQ(repair.packages[0].options, (std::vector<std::string>{"--no-deps"}));
}

TEST(SetupPlan, JsonNamesItsSchemaAndSteps) {
  const std::string json = RenderPlanJson(Plan(RecordedMachine("gtx1080-desktop")));
  EXPECT_NE(json.find("\"schema\": \"gpudoctor.setup/1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"variant\": \"cu126\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"empty\": false"), std::string::npos) << json;
}

TEST(PipLine, ReadsPythonVerbIndexAndRequirements) {
  auto p = ParsePipLine(
      "& \"C:\\Py\\python.exe\" -m pip install --index-url https://x/whl/ \"torch[device-gfx1100]\" "
      "torchaudio");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->python, "C:\\Py\\python.exe");
  EXPECT_EQ(p->index_url, "https://x/whl/");
  EXPECT_EQ(p->requirements, (std::vector<std::string>{"torch[device-gfx1100]", "torchaudio"}));
  auto u = ParsePipLine("python3 -m pip uninstall -y torch torchvision");
  ASSERT_TRUE(u.has_value());
  EXPECT_TRUE(u->uninstall);
  EXPECT_EQ(u->options, (std::vector<std::string>{"-y"}));
  EXPECT_FALSE(ParsePipLine("sudo apt install x && python3 -m pip install torch").has_value());
  EXPECT_FALSE(ParsePipLine("uv sync --project /p").has_value());
  EXPECT_FALSE(ParsePipLine("# edit requirements.txt").has_value());
  EXPECT_EQ(RequirementName("Torch_Vision==0.22.*"), "torch-vision");
  EXPECT_EQ(RequirementName("torch[device-gfx1101]"), "torch");
}

}  // namespace
}  // namespace gpudoctor
