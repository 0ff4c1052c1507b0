// NVIDIA Fabric Manager on NVSwitch systems (issue 29's driver-stack model): the dpkg database reader
// (probe/linux/dpkg_status.h), the probe (probe/linux/fabric_manager.h) on built sysroots, the snapshot's
// JSON, and the rules (rules/fabric_manager.h) on snapshots. The recorded machines hgx-h100-* carry the
// whole path (check_recorded_test.cpp).
#include <gtest/gtest.h>

#include "platform/filesystem.h"
#include "probe/linux/dpkg_status.h"
#include "probe/linux/fabric_manager.h"
#include "probe_offline_run.h"
#include "probe_sysroot_builder.h"
#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

constexpr const char* kStatus =
    "Package: nvidia-fabricmanager-dev-570\n"
    "Status: install ok installed\n"
    "Version: 570.124.06-1\n"
    "\n"
    "Package: nvidia-fabricmanager-550\n"
    "Status: deinstall ok config-files\n"
    "Version: 550.127.05-1\n"
    "Description: Fabric Manager\n"
    " Package: not-a-package\n"
    "\n"
    "Package: nvidia-fabricmanager-570\n"
    "Status: install ok installed\n"
    "Version: 570.124.06-0ubuntu0.22.04.1\n"
    "\n"
    "Package: nvlsm\n"
    "Version: 1:2025.03.1-1\n"
    "Status: install ok installed\n";

TEST(DpkgStatus, OnlyInstalledPackagesCount) {
  const auto packages = InstalledDpkgPackages(kStatus);
  ASSERT_EQ(packages.size(), 3u);
  EXPECT_EQ(packages[0], (DpkgPackage{"nvidia-fabricmanager-dev-570", "570.124.06-1"}));
  EXPECT_EQ(packages[1], (DpkgPackage{"nvidia-fabricmanager-570", "570.124.06-0ubuntu0.22.04.1"}));
  EXPECT_EQ(packages[2], (DpkgPackage{"nvlsm", "1:2025.03.1-1"}));  // fields in any order, no blank line
  EXPECT_TRUE(InstalledDpkgPackages("").empty());
  EXPECT_TRUE(InstalledDpkgPackages("Package: x\nStatus: install ok installed\n").empty());  // no version
}

TEST(DpkgStatus, TheUpstreamVersionDropsEpochAndRevision) {
  EXPECT_EQ(DebianUpstreamVersion("570.124.06-0ubuntu0.22.04.1"), "570.124.06");
  EXPECT_EQ(DebianUpstreamVersion("570.124.06-1"), "570.124.06");
  EXPECT_EQ(DebianUpstreamVersion("1:2025.03.1-1"), "2025.03.1");
  EXPECT_EQ(DebianUpstreamVersion("570.124.06"), "570.124.06");
}

TEST(FabricManagerProbe, PackageNamesAndSwitches) {
  for (const char* yes : {"nvidia-fabricmanager", "nvidia-fabricmanager-570"})
    EXPECT_TRUE(IsFabricManagerPackage(yes)) << yes;
  for (const char* no : {"nvidia-fabricmanager-dev-570", "cuda-drivers-fabricmanager-570",
                         "nvidia-fabricmanager-", "nvidia-fabricmanagerx"})
    EXPECT_FALSE(IsFabricManagerPackage(no)) << no;
  EXPECT_TRUE(IsNvSwitchPciFunction(0x10de, 0x068000));
  EXPECT_FALSE(IsNvSwitchPciFunction(0x10de, 0x030200));  // a GPU
  EXPECT_FALSE(IsNvSwitchPciFunction(0x8086, 0x068000));  // another vendor's bridge
}

TEST(FabricManagerKnowledge, EachDistributionFindsItsRowAndBlackwellNeedsNvlsm) {
  const KnowledgeDb& db = Db();
  const FabricManagerInstall* ubuntu = db.FindFabricManagerInstall("ubuntu", {});
  ASSERT_NE(ubuntu, nullptr);
  EXPECT_EQ(ubuntu->package, "nvidia-fabricmanager-BRANCH");
  EXPECT_FALSE(ubuntu->provenance.checked.empty());
  const FabricManagerInstall* alma = db.FindFabricManagerInstall("almalinux", {"rhel", "centos", "fedora"});
  ASSERT_NE(alma, nullptr);
  EXPECT_EQ(alma->package, "nvidia-fabric-manager");
  const FabricManagerInstall* derived = db.FindFabricManagerInstall("neon", {"ubuntu", "debian"});
  EXPECT_EQ(derived, ubuntu) << "ID_LIKE picks the parent's row";
  const FabricManagerInstall* other = db.FindFabricManagerInstall("gentoo", {});
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->distros, std::vector<std::string>{"*"});
  ASSERT_EQ(db.nvlsm_architectures.size(), 1u);
  EXPECT_EQ(db.nvlsm_architectures[0].architecture, "Blackwell");
  EXPECT_EQ(db.nvlsm_architectures[0].package, "nvlsm");
}

void AddSwitch(const testing::SysrootBuilder& root, const std::string& address, const char* vendor) {
  root.Write("/sys/bus/pci/devices/" + address + "/class", "0x068000\n");
  root.Write("/sys/bus/pci/devices/" + address + "/vendor", std::string(vendor) + "\n");
}

Snapshot ProbeFabricManagerHost(const testing::SysrootBuilder& root) {
  return testing::RunProbeOffline(root, testing::WithOneNvidiaGpu(0x030200), ProbeFabricManager);
}

TEST(FabricManagerProbe, ReadsTheSwitchesTheUnitItsLinkAndThePackages) {
  testing::SysrootBuilder root;
  AddSwitch(root, "0000:05:00.0", "0x10de");
  AddSwitch(root, "0000:06:00.0", "0x10de");
  AddSwitch(root, "0000:07:00.0", "0x8086");  // not NVIDIA's
  root.Write("/sys/bus/pci/devices/0000:18:00.0/class", "0x030200\n");
  root.Write("/sys/bus/pci/devices/0000:18:00.0/vendor", "0x10de\n");
  // Without a switch nothing is read.
  {
    testing::SysrootBuilder plain;
    plain.Write("/sys/bus/pci/devices/0000:18:00.0/class", "0x030200\n");
    plain.Write("/sys/bus/pci/devices/0000:18:00.0/vendor", "0x10de\n");
    EXPECT_FALSE(ProbeFabricManagerHost(plain).nvidia.fabric_manager.has_value());
  }
  Snapshot bare = ProbeFabricManagerHost(root);
  ASSERT_TRUE(bare.nvidia.fabric_manager.has_value());
  EXPECT_EQ(bare.nvidia.fabric_manager->nvswitches, 2u);
  EXPECT_EQ(bare.nvidia.fabric_manager->unit, "");
  EXPECT_EQ(bare.nvidia.fabric_manager->version_source, "") << "no dpkg database: unknown";

  root.Write("/usr/bin/nv-fabricmanager", "");
  root.Write("/usr/lib/systemd/system/nvidia-fabricmanager.service", "[Unit]\n");
  root.Write("/var/lib/dpkg/status", kStatus);
  Snapshot installed = ProbeFabricManagerHost(root);
  ASSERT_TRUE(installed.nvidia.fabric_manager.has_value());
  FabricManagerInfo fm = *installed.nvidia.fabric_manager;
  EXPECT_EQ(fm.binary, "/usr/bin/nv-fabricmanager");
  EXPECT_EQ(fm.unit, "/usr/lib/systemd/system/nvidia-fabricmanager.service");
  EXPECT_FALSE(fm.enabled);
  EXPECT_EQ(fm.package, "nvidia-fabricmanager-570");
  EXPECT_EQ(fm.version, "570.124.06");
  EXPECT_EQ(fm.nvlsm_version, "2025.03.1");

  root.Mkdir("/etc/systemd/system/multi-user.target.wants");
  if (!root.Symlink("/etc/systemd/system/multi-user.target.wants/nvidia-fabricmanager.service",
                    "/usr/lib/systemd/system/nvidia-fabricmanager.service"))
    GTEST_SKIP() << "no symbolic links here";
  root.Write("/etc/systemd/system/multi-user.target.wants/other.service", "");
  Snapshot enabled = ProbeFabricManagerHost(root);
  ASSERT_TRUE(enabled.nvidia.fabric_manager.has_value());
  EXPECT_TRUE(enabled.nvidia.fabric_manager->enabled);

  auto back = SnapshotFromJson(SnapshotToJson(enabled), "s.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->nvidia.fabric_manager, enabled.nvidia.fabric_manager);
  auto none = SnapshotFromJson(SnapshotToJson(Linux()), "s.json");
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_FALSE(none->nvidia.fabric_manager.has_value());
}

// An HGX H100 (or B200, cc 10.0) node with its four switches and Fabric Manager as given.
Snapshot Hgx(const std::string& fm_version, bool enabled, uint32_t cc_major = 9) {
  Snapshot s = Linux();
  s.os.distro_id = "ubuntu";
  AddNvidia(s, 0x2330, cc_major, 0, "570.124.06");
  s.nvidia.driver_version_source = "/proc/driver/nvidia/version";
  FabricManagerInfo fm;
  fm.nvswitches = 4;
  if (!fm_version.empty()) {
    fm.binary = "/usr/bin/nv-fabricmanager";
    fm.unit = "/lib/systemd/system/nvidia-fabricmanager.service";
    fm.package = "nvidia-fabricmanager-570";
    fm.version = fm_version;
  }
  fm.enabled = enabled;
  fm.version_source = "/var/lib/dpkg/status";
  s.nvidia.fabric_manager = fm;
  return s;
}

TEST(FabricManagerRules, MissingIsAnErrorWithTheDistributionsInstall) {
  const Finding* f = nullptr;
  auto fs = RunRules(Hgx("", false));
  f = FindId(fs, "runtime.fabric_manager_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(BashFix(*f).find("sudo apt install 'nvidia-fabricmanager-570=570.124.06-*'"), 0u) << BashFix(*f);
  EXPECT_FALSE(Has(fs, "runtime.fabric_manager_disabled")) << "missing says it all";
  // Rocky Linux: dnf, the driver's exact version.
  Snapshot rocky = Hgx("", false);
  rocky.os.distro_id = "rocky";
  fs = RunRules(rocky);
  f = FindId(fs, "runtime.fabric_manager_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(BashFix(*f).find("sudo dnf install nvidia-fabric-manager-570.124.06"), std::string::npos)
      << BashFix(*f);
  EXPECT_FALSE(f->unconfirmed.empty()) << "the dnf row is not confirmed against the guide";
}

TEST(FabricManagerRules, VersionAndServiceAreJudgedApart) {
  auto fs = RunRules(Hgx("570.86.15", true));
  EXPECT_TRUE(Has(fs, "runtime.fabric_manager_version")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "runtime.fabric_manager_disabled")) << Ids(fs);
  fs = RunRules(Hgx("570.124.06", false));
  const Finding* f = FindId(fs, "runtime.fabric_manager_disabled");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(BashFix(*f), "sudo systemctl enable --now nvidia-fabricmanager\n");
  EXPECT_FALSE(Has(fs, "runtime.fabric_manager_version")) << Ids(fs);
  fs = RunRules(Hgx("570.124.06", true));
  for (const char* id : {"runtime.fabric_manager_missing", "runtime.fabric_manager_version",
                         "runtime.fabric_manager_disabled", "runtime.nvlsm_missing"})
    EXPECT_FALSE(Has(fs, id)) << id << ": " << Ids(fs);
}

TEST(FabricManagerRules, NoSwitchOrAContainerSaysNothing) {
  Snapshot no_switch = Hgx("", false);
  no_switch.nvidia.fabric_manager.reset();
  EXPECT_FALSE(Has(RunRules(no_switch), "runtime.fabric_manager_missing"));
  Snapshot in_container = Hgx("", false);
  in_container.os.container = "docker";
  EXPECT_FALSE(Has(RunRules(in_container), "runtime.fabric_manager_missing"));
}

TEST(FabricManagerRules, BlackwellNeedsTheSubnetManagerWhereDpkgCanSay) {
  auto fs = RunRules(Hgx("570.124.06", true, 10));
  const Finding* f = FindId(fs, "runtime.nvlsm_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(BashFix(*f).find("sudo apt install nvlsm"), std::string::npos) << BashFix(*f);
  Snapshot with = Hgx("570.124.06", true, 10);
  with.nvidia.fabric_manager->nvlsm_version = "2025.03.1";
  EXPECT_FALSE(Has(RunRules(with), "runtime.nvlsm_missing"));
  Snapshot rpm = Hgx("570.124.06", true, 10);
  rpm.nvidia.fabric_manager->version_source.clear();  // the rpm database: unknown, never "missing"
  EXPECT_FALSE(Has(RunRules(rpm), "runtime.nvlsm_missing"));
}

}  // namespace
}  // namespace gpudoctor
