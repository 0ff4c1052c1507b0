// check and setup name the same NVIDIA driver install for the same machine (issue 34: one source,
// rules/nvidia_driver_install.h over data/cuda_drivers.toml [[nvidia_driver_install]]). The machine is
// given both troubles at once: no driver bound to its NVIDIA GPU (check's runtime.driver_missing) and a
// driver version too old for a cu126 wheel (setup's setup.driver_floor step). On every recorded Linux
// machine with an NVIDIA GPU, and on an RTX 3060 under several os-release IDs, the commands agree.
#include <gtest/gtest.h>

#include <filesystem>

#include "probe/probe_inputs.h"
#include "rules_test_util.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing::Joined;
using testing::kFixtures;
using testing_rules::Db;

const char kReboot[] = "reboot, then check with: nvidia-smi";

// Unbinds every NVIDIA GPU and says the (not loaded) driver is 520, below CUDA 12's floor of 525.60.13.
// False when the machine has no NVIDIA GPU on a PCI bus to unbind.
bool GiveDriverTroubles(Snapshot& snap) {
  bool any = false;
  for (PciDevice& d : snap.pci_devices) {
    if (d.vendor_id != 0x10de || (d.class_code >> 16) != 0x03) continue;
    d.driver.clear();
    any = true;
  }
  snap.nvidia.driver_version = "520.61.05";
  snap.nvidia.driver_version_source.clear();
  snap.nvidia.module_kernels.reset();  // not built for another kernel either: simply not installed
  return any;
}

// check's lines for installing the driver: runtime.driver_missing's fix without its closing reboot.
std::vector<std::string> CheckLines(const Snapshot& snap) {
  for (const Finding& f : RunAllRules(snap, Db(), RuleOptions{})) {
    if (f.id != "runtime.driver_missing") continue;
    std::vector<std::string> out;
    for (const FixAction& a : f.fix)
      out.push_back(a.kind == FixAction::Kind::kManual ? a.text : a.commands.bash);
    if (!out.empty() && out.back() == kReboot) out.pop_back();
    return out;
  }
  return {};
}

// setup's lines: the setup.driver_floor step of a cu126 install, without its goal (the first line) and
// the wheel that keeps this driver.
std::vector<std::string> SetupLines(const Snapshot& snap, std::string* text) {
  Finding f;
  f.id = "framework.no_torch";
  f.severity = Severity::kError;
  f.title = "No PyTorch found";
  f.fix = {
      FixAction::Bash("python3 -m pip install torch --index-url https://download.pytorch.org/whl/cu126")};
  PlanRequest request;
  const SetupPlan plan = PlanFromFindings(snap, Db(), {f}, request);
  *text = RenderPlanText(plan);
  for (const ManualStep& m : plan.manual) {
    if (m.finding != "setup.driver_floor" || m.lines.empty()) continue;
    std::vector<std::string> out(m.lines.begin() + 1, m.lines.end());
    if (!out.empty() && out.back().starts_with("or, keeping this driver")) out.pop_back();
    return out;
  }
  return {};
}

void ExpectAgreement(const Snapshot& snap, const std::string& what) {
  std::string plan;
  const std::vector<std::string> setup = SetupLines(snap, &plan);
  const std::vector<std::string> check = CheckLines(snap);
  ASSERT_FALSE(check.empty()) << what << ": no runtime.driver_missing";
  ASSERT_FALSE(setup.empty()) << what << ": no setup.driver_floor step\n" << plan;
  EXPECT_EQ(check, setup) << what << "\n" << plan;
}

TEST(DriverInstallAgreement, EveryRecordedLinuxMachineWithAnNvidiaGpu) {
  std::vector<std::string> compared;
  for (const auto& entry : stdfs::directory_iterator(kFixtures)) {
    Snapshot snap = ProbeMachine(MakeRecordedInputs(entry.path().string()));
    if (snap.os.family != OsFamily::kLinux || !GiveDriverTroubles(snap)) continue;
    const std::string name = entry.path().filename().string();
    ExpectAgreement(snap, name);
    compared.push_back(name);
  }
  // gtx1080-desktop (Pascal: the last branch), rtx3060-desktop, rtx5090-desktop and the others.
  EXPECT_GE(compared.size(), 8u);
}

Snapshot Rtx3060(const std::string& id, std::vector<std::string> like) {
  Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + "rtx3060-desktop"));
  snap.os.distro_id = id;
  snap.os.distro_id_like = std::move(like);
  EXPECT_TRUE(GiveDriverTroubles(snap));
  return snap;
}

TEST(DriverInstallAgreement, OsReleaseIds) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> ids = {
      {"ubuntu", {"debian"}},
      {"pop", {"ubuntu", "debian"}},
      {"debian", {}},
      {"fedora", {}},
      {"arch", {}},
      {"rocky", {"rhel", "centos", "fedora"}},
      {"opensuse-tumbleweed", {"opensuse", "suse"}},
      {"plan9linux", {}}};
  for (const auto& [id, like] : ids) ExpectAgreement(Rtx3060(id, like), id);
  // And each is that distribution's own way.
  EXPECT_NE(Joined(CheckLines(Rtx3060("pop", {"ubuntu"}))).find("sudo ubuntu-drivers install"),
            std::string::npos);
  EXPECT_NE(Joined(CheckLines(Rtx3060("fedora", {}))).find("sudo dnf install akmod-nvidia"),
            std::string::npos);
  EXPECT_NE(Joined(CheckLines(Rtx3060("arch", {}))).find("sudo pacman -Syu nvidia-open"), std::string::npos);
  EXPECT_NE(Joined(CheckLines(Rtx3060("opensuse-tumbleweed", {"opensuse", "suse"}))).find("zypper"),
            std::string::npos);
  EXPECT_NE(Joined(CheckLines(Rtx3060("plan9linux", {}))).find("NVIDIA-Linux-x86_64-NNN.run"),
            std::string::npos);
}

// The special cases the knowledge base derives come before the table, in both.
TEST(DriverInstallAgreement, LastBranchAndDebiansOpenModulesRoute) {
  Snapshot pascal = ProbeMachine(MakeRecordedInputs(kFixtures + "gtx1080-desktop"));
  pascal.os.distro_id = "fedora";
  ASSERT_TRUE(GiveDriverTroubles(pascal));
  ExpectAgreement(pascal, "gtx1080 on fedora");
  EXPECT_NE(Joined(CheckLines(pascal)).find("580 branch"), std::string::npos) << Joined(CheckLines(pascal));

  Snapshot blackwell = ProbeMachine(MakeRecordedInputs(kFixtures + "rtx5090-desktop"));
  blackwell.os.distro_id = "debian";
  blackwell.os.distro_version = "12";
  blackwell.os.distro_id_like.clear();
  ASSERT_TRUE(GiveDriverTroubles(blackwell));
  ExpectAgreement(blackwell, "rtx5090 on debian");
  EXPECT_NE(Joined(CheckLines(blackwell)).find("sudo apt install nvidia-open"), std::string::npos)
      << Joined(CheckLines(blackwell));
}

}  // namespace
}  // namespace gpudoctor
