// A setup plan that installs torch from PyPI itself (no index): on Linux the driver is judged against the
// CUDA build PyPI carries for that torch release (data/pytorch_wheels.toml [[torch_pypi_default]]), the
// same verdict as an indexed cuXYZ wheel; on Windows PyPI's torch is CPU-only and the step says so. A
// driver too old (or none) names the commands of the machine's own distribution ([[nvidia_driver_install]]
// by os-release ID, then ID_LIKE). The plans are also compared with tests/golden/setup-*.txt / .json.
#include <gtest/gtest.h>

#include "golden_test_util.h"
#include "probe/probe_inputs.h"
#include "rules_test_util.h"
#include "setup/pip_line.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"
#include "setup_plan_test_util.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

using testing::kGolden;
using testing::Recorded;
using testing_rules::Db;

// A finding whose fix installs `requirements` from PyPI with the shell's python.
Finding PypiInstall(const std::string& requirements) {
  Finding f;
  f.id = "framework.no_torch";
  f.severity = Severity::kError;
  f.title = "No PyTorch found";
  FixAction install;
  install.kind = FixAction::Kind::kCommand;
  install.commands.bash = "python3 -m pip install " + requirements;
  install.commands.powershell = "py -m pip install " + requirements;
  install.commands.cmd = install.commands.powershell;
  f.fix = {install};
  return f;
}

SetupPlan PlanOf(const Snapshot& snap, const Finding& f, Shell shell = Shell::kBash) {
  PlanRequest request;
  request.shell = shell;
  return PlanFromFindings(snap, Db(), {f}, request);
}

const PackageStep& SolePackageStep(const SetupPlan& plan) {
  EXPECT_EQ(plan.packages.size(), 1u) << RenderPlanText(plan);
  static const PackageStep none;
  return plan.packages.empty() ? none : plan.packages.front();
}

// A Linux machine with an RTX 3060 (sm_86) and driver `driver` on distribution `id` (ID_LIKE `like`).
Snapshot Rtx3060OnLinux(const std::string& driver, const std::string& id,
                        std::vector<std::string> like = {}) {
  Snapshot snap = Recorded("rtx3060-desktop");
  snap.nvidia.driver_version = driver;
  snap.os.distro_id = id;
  snap.os.distro_id_like = std::move(like);
  return snap;
}

TEST(SetupPypiDriver, NewestPypiTorchIsCu130AndNeeds580) {
  const SetupPlan plan =
      PlanOf(Rtx3060OnLinux("570.153.02", "ubuntu", {"debian"}), PypiInstall("torch torchvision"));
  const PackageStep& torch = SolePackageStep(plan);
  EXPECT_TRUE(torch.index_url.empty());
  EXPECT_TRUE(torch.variant.empty());
  ASSERT_TRUE(torch.driver.has_value()) << RenderPlanText(plan);
  EXPECT_EQ(torch.driver->verdict, DriverFloorCheck::Verdict::kTooOld);
  EXPECT_EQ(torch.driver->cuda, "13.0");
  EXPECT_EQ(torch.driver->needs, "580");
  EXPECT_NE(torch.driver->note.find("PyPI's torch 2.14 wheel (cu130 on Linux)"), std::string::npos)
      << torch.driver->note;
  ASSERT_FALSE(plan.manual.empty());
  EXPECT_EQ(plan.manual[0].finding, "setup.driver_floor") << "a driver too old comes first";
}

TEST(SetupPypiDriver, PinnedOlderReleaseIsJudgedByItsOwnPypiBuild) {
  // torch 2.7 on PyPI is cu126: a 570 driver loads it, as it would the cu126 index wheel.
  const SetupPlan plan =
      PlanOf(Rtx3060OnLinux("570.153.02", "ubuntu"), PypiInstall("torch==2.7.1 torchvision"));
  const PackageStep& torch = SolePackageStep(plan);
  ASSERT_TRUE(torch.driver.has_value()) << RenderPlanText(plan);
  EXPECT_EQ(torch.driver->verdict, DriverFloorCheck::Verdict::kRuns);
  EXPECT_EQ(torch.driver->cuda, "12.6");
  EXPECT_EQ(torch.driver->needs, "525.60.13");
  for (const ManualStep& m : plan.manual) EXPECT_NE(m.finding, "setup.driver_floor");
}

TEST(SetupPypiDriver, SameVerdictAsTheIndexedWheelOfThatCuda) {
  const Snapshot snap = Rtx3060OnLinux("560.35.03", "ubuntu");
  const SetupPlan pypi = PlanOf(snap, PypiInstall("torch==2.12.*"));
  const SetupPlan indexed =
      PlanOf(snap, PypiInstall("torch --index-url https://download.pytorch.org/whl/cu130"));
  ASSERT_TRUE(SolePackageStep(pypi).driver.has_value());
  ASSERT_TRUE(SolePackageStep(indexed).driver.has_value());
  EXPECT_EQ(SolePackageStep(pypi).driver->verdict, SolePackageStep(indexed).driver->verdict);
  EXPECT_EQ(SolePackageStep(pypi).driver->needs, SolePackageStep(indexed).driver->needs);
  EXPECT_EQ(SolePackageStep(pypi).driver->verdict, DriverFloorCheck::Verdict::kTooOld);
}

TEST(SetupPypiDriver, WindowsPypiTorchIsCpuOnly) {
  const SetupPlan plan =
      PlanOf(Recorded("win11-rtx4090"), PypiInstall("torch torchvision"), Shell::kPowerShell);
  const PackageStep& torch = SolePackageStep(plan);
  EXPECT_FALSE(torch.driver.has_value()) << "no CUDA runtime to judge the driver against";
  EXPECT_NE(torch.note.find("CPU-only"), std::string::npos) << RenderPlanText(plan);
  EXPECT_NE(RenderPlanJson(plan).find("PyPI's torch wheels for Windows are CPU-only"), std::string::npos);
}

TEST(SetupPypiDriver, CheckNeverPlansAPypiTorchOnWindowsMachines) {
  for (const char* name : {"win11-rtx4090", "win11-gtx1080", "win11-kvm-rtx4090-passthrough"}) {
    PlanRequest request;
    request.shell = Shell::kPowerShell;
    const SetupPlan plan = PlanSetup(Recorded(name), Db(), request);
    for (const PackageStep& p : plan.packages) {
      EXPECT_FALSE(p.index_url.empty() && p.find_links.empty()) << name << ": " << RenderPlanText(plan);
      EXPECT_TRUE(p.note.empty()) << name;
    }
  }
}

// The driver step names the distribution's own commands.
std::string DriverLines(const SetupPlan& plan) {
  std::string out;
  for (const ManualStep& m : plan.manual)
    if (m.finding == "setup.driver_floor")
      for (const std::string& l : m.lines) out += l + "\n";
  return out;
}

TEST(SetupPypiDriver, DriverStepUsesTheDistributionsCommands) {
  const Finding f = PypiInstall("torch");
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "ubuntu"), f)).find("sudo ubuntu-drivers install"),
            std::string::npos);
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "fedora"), f)).find("sudo dnf install akmod-nvidia"),
            std::string::npos);
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "arch"), f)).find("sudo pacman -Syu nvidia-open"),
            std::string::npos);
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "rocky", {"rhel", "centos", "fedora"}), f))
                .find("sudo dnf install nvidia-open"),
            std::string::npos);
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "opensuse-tumbleweed", {"opensuse", "suse"}), f))
                .find("zypper install-new-recommends"),
            std::string::npos);
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "debian"), f)).find("apt install nvidia-driver"),
            std::string::npos);
}

TEST(SetupPypiDriver, IdLikeChoosesTheParentsCommandsAndOthersGetNvidiasInstaller) {
  const Finding f = PypiInstall("torch");
  // elementary OS: ID_LIKE="ubuntu debian".
  EXPECT_NE(DriverLines(PlanOf(Rtx3060OnLinux("570.1", "elementary", {"ubuntu", "debian"}), f))
                .find("ubuntu-drivers"),
            std::string::npos);
  const std::string other = DriverLines(PlanOf(Rtx3060OnLinux("570.1", "gentoo"), f));
  EXPECT_NE(other.find("NVIDIA-Linux-x86_64-NNN.run"), std::string::npos) << other;
  EXPECT_EQ(other.find("ubuntu-drivers"), std::string::npos) << other;
}

TEST(SetupPypiDriver, WindowsDriverStepPointsAtNvidiasDriverPage) {
  Finding f = PypiInstall("torch --index-url https://download.pytorch.org/whl/cu130");
  const SetupPlan plan = PlanOf(Recorded("win11-rtx4090"), f, Shell::kPowerShell);  // driver 560.94
  const std::string lines = DriverLines(plan);
  EXPECT_NE(lines.find("https://www.nvidia.com/drivers"), std::string::npos) << lines;
  EXPECT_EQ(lines.find("sudo"), std::string::npos) << lines;
}

TEST(SetupPypiDriver, MissingDriverOnArchGivesPacmanInCheckAndInThePlan) {
  Snapshot snap = Recorded("rtx3060-desktop");  // no driver bound
  snap.os.distro_id = "endeavouros";
  snap.os.distro_id_like = {"arch"};
  PlanRequest request;
  const SetupPlan plan = PlanSetup(snap, Db(), request);
  std::string lines;
  for (const ManualStep& m : plan.manual)
    if (m.finding == "runtime.driver_missing")
      for (const std::string& l : m.lines) lines += l + "\n";
  EXPECT_NE(lines.find("sudo pacman -Syu nvidia-open"), std::string::npos) << RenderPlanText(plan);
  EXPECT_EQ(lines.find("ubuntu-drivers"), std::string::npos) << lines;
}

// Goldens of the text and JSON of two such plans.
TEST(SetupGolden, PypiTorchOnFedoraWithA570Driver) {
  const SetupPlan plan =
      PlanOf(Rtx3060OnLinux("570.153.02", "fedora"), PypiInstall("torch torchvision torchaudio"));
  testing::CompareWithGolden(kGolden + "setup-pypi-fedora-570.setup.txt", RenderPlanText(plan));
  testing::CompareWithGolden(kGolden + "setup-pypi-fedora-570.setup.json", RenderPlanJson(plan));
}

TEST(SetupGolden, PypiTorchOnWindows) {
  const SetupPlan plan =
      PlanOf(Recorded("win11-rtx4090"), PypiInstall("torch torchvision torchaudio"), Shell::kPowerShell);
  testing::CompareWithGolden(kGolden + "setup-pypi-windows.setup.txt", RenderPlanText(plan));
  testing::CompareWithGolden(kGolden + "setup-pypi-windows.setup.json", RenderPlanJson(plan));
}

}  // namespace
}  // namespace gpudoctor
