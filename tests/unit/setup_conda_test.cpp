// `setup --installer conda` (issue 36: conda only when asked): the plan makes a conda environment with
// a Python the wheels are built for and installs the same wheels from the same index through its pip.
#include <gtest/gtest.h>

#include "probe/probe_inputs.h"
#include "rules/shell.h"
#include "rules_test_util.h"
#include "setup/conda_commands.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;
using testing_rules::Db;

SetupPlan PlanWithInstaller(const std::string& machine, const std::string& installer) {
  const Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + machine));
  PlanRequest request;
  request.shell = DetectShell(snap.os.family, Environment());
  request.installer = installer;
  return PlanSetup(snap, Db(), request);
}

TEST(SetupConda, SameWheelsAndIndexAsPipInACondaPrefix) {
  const SetupPlan pip = PlanWithInstaller("gtx1080-desktop", "pip");
  const SetupPlan conda = PlanWithInstaller("gtx1080-desktop", "conda");
  ASSERT_EQ(conda.packages.size(), pip.packages.size());
  ASSERT_FALSE(conda.packages.empty());
  EXPECT_EQ(conda.packages[0].requirements, pip.packages[0].requirements);
  EXPECT_EQ(conda.packages[0].index_url, pip.packages[0].index_url);
  EXPECT_EQ(conda.installer, "conda");
  EXPECT_EQ(conda.environment, ".conda");
  EXPECT_EQ(pip.environment, ".venv") << "other installers keep their folder";
  EXPECT_EQ(pip.python, "python3");
  // torch 2.14's wheels are built for 3.10 to 3.15: conda takes the newest but one.
  EXPECT_EQ(conda.python, "3.14");
  const std::string text = RenderPlanText(conda);
  EXPECT_NE(text.find("conda create -y -p .conda python=3.14 pip"), std::string::npos) << text;
  EXPECT_NE(text.find("conda run -p .conda python -m pip"), std::string::npos) << text;
  const std::string json = RenderPlanJson(conda);
  EXPECT_NE(json.find("\"installer\": \"conda\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"create\": \"conda create -y -p .conda python=3.14 pip\""), std::string::npos)
      << json;
  EXPECT_NE(RenderPlanJson(pip).find("\"conda\": null"), std::string::npos);
}

TEST(SetupConda, WindowsLauncherVersionBecomesCondasPython) {
  const Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + "win11-rtx4090"));
  Finding f;
  f.id = "framework.no_torch";
  f.severity = Severity::kError;
  FixAction install;
  install.kind = FixAction::Kind::kCommand;
  install.commands.powershell =
      "py -3.12 -m pip install torch --index-url https://download.pytorch.org/whl/cu126";
  f.fix = {install};
  PlanRequest request;
  request.shell = Shell::kPowerShell;
  request.installer = "conda";
  EXPECT_EQ(PlanFromFindings(snap, Db(), {f}, request).python, "3.12");
  request.installer = "pip";
  EXPECT_EQ(PlanFromFindings(snap, Db(), {f}, request).python, "py -3.12");
}

TEST(SetupConda, CondaPythonIsTheNewestButOne) {
  EXPECT_EQ(CondaPython({"3.10", "3.11", "3.12"}), "3.11");
  EXPECT_EQ(CondaPython({"3.12"}), "3.12");
  EXPECT_EQ(CondaPython({}), "");
}

TEST(SetupConda, NoVersionKnownLeavesCondasDefaultPython) {
  SetupPlan plan;
  plan.installer = "conda";
  plan.environment = "my env";
  EXPECT_EQ(CondaCreateCommand(plan), "conda create -y -p 'my env' python pip");
  EXPECT_EQ(CondaPipCommand(plan), "conda run -p 'my env' python -m pip");
}

}  // namespace
}  // namespace gpudoctor
