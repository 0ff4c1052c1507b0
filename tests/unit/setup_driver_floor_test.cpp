// The NVIDIA driver floor of the CUDA wheel a setup plan installs (src/setup/driver_floor.h): on the
// recorded machines the driver loads the planned wheel and the plan says so with the floor of its OS; an
// old driver keeps the newest wheel it loads and names the upgrade that opens the newest torch; a wheel
// the driver cannot load puts the driver upgrade first; an unknown driver is said to be unknown.
#include <gtest/gtest.h>

#include <algorithm>

#include "probe/probe_inputs.h"
#include "rules/rules.h"
#include "rules/shell.h"
#include "rules_test_util.h"
#include "setup/driver_floor.h"
#include "setup/pip_line.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"
#include "setup_plan_test_util.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

using testing::Recorded;
using testing::TorchStep;
using testing_rules::Db;

SetupPlan PlanForSnapshot(const Snapshot& snap) {
  PlanRequest request;
  request.shell = DetectShell(snap.os.family, Environment());
  return PlanSetup(snap, Db(), request);
}

const ManualStep* DriverStep(const SetupPlan& plan) {
  auto it = std::find_if(plan.manual.begin(), plan.manual.end(),
                         [](const ManualStep& m) { return m.finding == "setup.driver_floor"; });
  return it == plan.manual.end() ? nullptr : &*it;
}

TEST(SetupDriverFloor, LinuxDriverLoadsTheCu126WheelOfAGtx1080) {
  const SetupPlan plan = PlanForSnapshot(Recorded("gtx1080-desktop"));  // driver 570.153.02
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  ASSERT_TRUE(torch->driver.has_value());
  EXPECT_EQ(torch->driver->verdict, DriverFloorCheck::Verdict::kRuns);
  EXPECT_EQ(torch->driver->cuda, "12.6");
  EXPECT_EQ(torch->driver->needs, "525.60.13");
  EXPECT_EQ(torch->driver->os, "Linux");
  EXPECT_EQ(torch->driver->installed, "570.153.02");
  EXPECT_FALSE(torch->driver->source.empty());
  EXPECT_EQ(DriverStep(plan), nullptr) << RenderPlanText(plan);
  EXPECT_NE(RenderPlanText(plan).find("needs 525.60.13 or newer on Linux"), std::string::npos);
}

TEST(SetupDriverFloor, WindowsDriverBelow580TakesCu126AndNamesTheCu13BuildItCannotLoad) {
  const SetupPlan plan = PlanForSnapshot(Recorded("win11-rtx4090"));  // driver 560.94
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  EXPECT_EQ(torch->variant, "cu126");
  ASSERT_TRUE(torch->driver.has_value());
  EXPECT_EQ(torch->driver->verdict, DriverFloorCheck::Verdict::kRuns);
  EXPECT_EQ(torch->driver->needs, "528.33") << "Windows numbers its drivers apart from Linux";
  EXPECT_EQ(torch->driver->os, "Windows");
  EXPECT_NE(torch->driver->note.find("cu132 build of this release needs 580"), std::string::npos)
      << torch->driver->note;
  EXPECT_EQ(DriverStep(plan), nullptr) << "the newest torch has a build this driver loads";
}

TEST(SetupDriverFloor, Cu13WheelOnA580Driver) {
  const SetupPlan plan = PlanForSnapshot(Recorded("rtx5090-desktop"));  // driver 580.95.05
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  ASSERT_TRUE(torch->driver.has_value());
  EXPECT_EQ(torch->driver->verdict, DriverFloorCheck::Verdict::kRuns);
  EXPECT_EQ(torch->driver->cuda, "13.2");
  EXPECT_EQ(torch->driver->needs, "580");
}

TEST(SetupDriverFloor, OldDriverKeepsTheNewestWheelItLoadsAndRecommendsTheUpgrade) {
  Snapshot snap = Recorded("gtx1080-desktop");
  snap.nvidia.driver_version = "470.256.02";  // R470: CUDA 11 only
  const SetupPlan plan = PlanForSnapshot(snap);
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr) << RenderPlanText(plan);
  EXPECT_EQ(torch->variant, "cu118") << "check's first fix: the newest wheel this driver loads";
  EXPECT_EQ(torch->requirements[0], "torch==2.7.*");
  ASSERT_TRUE(torch->driver.has_value());
  EXPECT_EQ(torch->driver->verdict, DriverFloorCheck::Verdict::kRuns);
  EXPECT_EQ(torch->driver->needs, "450.80.02");
  const ManualStep* upgrade = DriverStep(plan);
  ASSERT_NE(upgrade, nullptr) << RenderPlanText(plan);
  EXPECT_NE(upgrade->title.find("525.60.13"), std::string::npos) << upgrade->title;
  EXPECT_NE(upgrade->title.find("torch 2.14"), std::string::npos) << upgrade->title;
  EXPECT_NE(upgrade->summary.find("torch 2.7 (cu118)"), std::string::npos) << upgrade->summary;
}

TEST(SetupDriverFloor, WheelTheDriverCannotLoadPutsTheDriverUpgradeFirst) {
  const Snapshot snap = Recorded("win11-rtx4090");  // driver 560.94 (Windows)
  Finding f;
  f.id = "framework.no_torch";
  f.severity = Severity::kError;
  f.title = "no torch";
  FixAction install;
  install.kind = FixAction::Kind::kCommand;
  install.commands.powershell =
      "py -m pip install torch torchvision torchaudio --index-url https://download.pytorch.org/whl/cu130";
  install.commands.bash = install.commands.powershell;
  f.fix = {install};
  PlanRequest request;
  request.shell = Shell::kPowerShell;
  const SetupPlan plan = PlanFromFindings(snap, Db(), {f}, request);
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  ASSERT_TRUE(torch->driver.has_value());
  EXPECT_EQ(torch->driver->verdict, DriverFloorCheck::Verdict::kTooOld);
  EXPECT_EQ(torch->driver->needs, "580");
  ASSERT_FALSE(plan.manual.empty());
  EXPECT_EQ(plan.manual[0].finding, "setup.driver_floor");
  // The goal, NVIDIA's driver page (as check's own driver fix on Windows), then the wheel this driver loads.
  ASSERT_EQ(plan.manual[0].lines.size(), 3u);
  EXPECT_NE(plan.manual[0].lines[0].find("580 or newer"), std::string::npos) << plan.manual[0].lines[0];
  EXPECT_NE(plan.manual[0].lines[1].find("https://www.nvidia.com/drivers"), std::string::npos)
      << plan.manual[0].lines[1];
  EXPECT_NE(plan.manual[0].lines[2].find("/whl/cu126"), std::string::npos) << plan.manual[0].lines[2];
}

TEST(SetupDriverFloor, UnknownDriverIsSaidToBeUnknown) {
  Snapshot snap = Recorded("rtx5090-desktop");
  snap.nvidia.driver_version.reset();
  const SetupPlan plan = PlanForSnapshot(snap);
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr) << RenderPlanText(plan);
  ASSERT_TRUE(torch->driver.has_value());
  EXPECT_EQ(torch->driver->verdict, DriverFloorCheck::Verdict::kUnknown);
  EXPECT_TRUE(torch->driver->installed.empty());
  EXPECT_NE(torch->driver->note.find("no NVIDIA driver version is known"), std::string::npos);
  EXPECT_NE(RenderPlanJson(plan).find("\"verdict\": \"unknown\""), std::string::npos);
}

TEST(SetupDriverFloor, AmdWheelHasNoDriverCheck) {
  const SetupPlan plan = PlanForSnapshot(Recorded("rx7800xt-old-wheel"));
  const PackageStep* torch = TorchStep(plan);
  ASSERT_NE(torch, nullptr);
  EXPECT_FALSE(torch->driver.has_value());
  EXPECT_NE(RenderPlanJson(plan).find("\"driver\": null"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
