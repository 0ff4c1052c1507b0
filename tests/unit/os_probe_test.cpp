// Tests of the Linux machine probe (distribution, kernel, WSL2, containers, CPU, memory, disk, host name)
// and its pure parsers, on synthetic sysroots; one test on the live root asserts only what holds anywhere.
#include "probe/linux/os_probe.h"

#include <gtest/gtest.h>

#include "core/strings.h"
#include "probe/linux/procfs_parse.h"
#include "probe/probe_inputs.h"
#include "probe_test_sysroot.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

using testing::HasWarning;
using testing::LookedAt;
using testing::ProbeSysroot;

// Two sockets, two cores each, two threads per core: 8 logical, 4 physical.
std::string TwoSocketCpuInfo() {
  std::string out;
  int n = 0;
  for (int socket = 0; socket < 2; ++socket) {
    for (int thread = 0; thread < 2; ++thread) {
      for (int core = 0; core < 2; ++core) {
        out += "processor\t: " + std::to_string(n++) + "\n";
        out += "vendor_id\t: AuthenticAMD\n";
        out += "model name\t: AMD EPYC 9654 96-Core Processor\n";
        out += "physical id\t: " + std::to_string(socket) + "\n";
        out += "core id\t\t: " + std::to_string(core) + "\n";
        out += "flags\t\t: fpu vme de pse\n\n";
      }
    }
  }
  return out;
}

void WriteDebianMachine(const ProbeSysroot& root) {
  root.Write("/etc/os-release",
             "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n"
             "VERSION_ID=\"12\"\nVERSION=\"12 (bookworm)\"\nID=debian\n# a comment\n");
  root.Write("/proc/sys/kernel/osrelease", "6.1.0-26-amd64\n");
  root.Write("/proc/version",
             "Linux version 6.1.0-26-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14) "
             "12.2.0) #1 SMP "
             "PREEMPT_DYNAMIC Debian 6.1.112-1 (2024-09-30)\n");
  root.Write("/proc/cpuinfo", TwoSocketCpuInfo());
  root.Write("/proc/meminfo",
             "MemTotal:       65536000 kB\nMemFree:         1000000 kB\nMemAvailable:   32768000 kB\n"
             "HugePages_Total:       0\n");
  root.Write("/proc/sys/kernel/hostname", "gpu-node-07\n");
  root.Write("/proc/1/cgroup", "0::/init.scope\n");
  root.MakeDir("/home/alice");
}

TEST(OsProbe, ReadsAWholeDebianMachine) {
  ProbeSysroot root;
  WriteDebianMachine(root);
  root.env = testing::MakeEnv({{"HOME", "/home/alice"}});
  root.Write("/.gpudoctor/disk", "path=/home/alice\ntotal_bytes=1000000000000\nfree_bytes=400000000000\n");
  Snapshot snap = root.Run(ProbeOs);

  EXPECT_EQ(snap.os.family, OsFamily::kLinux);
  EXPECT_EQ(snap.os.distro_id, "debian");
  EXPECT_EQ(snap.os.distro_name, "Debian GNU/Linux 12 (bookworm)");
  EXPECT_EQ(snap.os.distro_version, "12");
  EXPECT_EQ(snap.os.kernel_release, "6.1.0-26-amd64");
  EXPECT_TRUE(StartsWith(snap.os.kernel_version_text, "Linux version 6.1.0-26-amd64"));
  EXPECT_FALSE(snap.os.wsl);
  EXPECT_TRUE(snap.os.wsl_evidence.empty());
  EXPECT_FALSE(snap.os.container.has_value());
  EXPECT_TRUE(snap.os.container_evidence.empty());
  EXPECT_EQ(snap.cpu.model, "AMD EPYC 9654 96-Core Processor");
  EXPECT_EQ(snap.cpu.logical_cores, 8u);
  EXPECT_EQ(snap.cpu.physical_cores, 4u);
  EXPECT_EQ(snap.cpu.sockets, 2u);
  EXPECT_EQ(snap.memory.total_bytes, 65536000ull * 1024);
  EXPECT_EQ(snap.memory.available_bytes, 32768000ull * 1024);
  EXPECT_EQ(snap.disk.path, "/home/alice");
  EXPECT_EQ(snap.disk.total_bytes, 1000000000000ull);
  EXPECT_EQ(snap.disk.free_bytes, 400000000000ull);
  EXPECT_EQ(snap.host_name, "gpu-node-07");
  EXPECT_TRUE(snap.warnings.empty()) << snap.warnings.front();
  EXPECT_TRUE(LookedAt(snap, "/proc/cpuinfo"));
  EXPECT_TRUE(LookedAt(snap, "/etc/os-release"));
  EXPECT_TRUE(LookedAt(snap, "/dev/dxg"));
}

TEST(OsProbe, FallsBackToUsrLibOsReleaseAndEtcHostname) {
  ProbeSysroot root;
  root.Write("/usr/lib/os-release", "NAME='Fedora Linux'\nID=fedora\nVERSION_ID=40\n");
  root.Write("/etc/hostname", "  workstation \n");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_EQ(snap.os.distro_id, "fedora");
  EXPECT_EQ(snap.os.distro_name, "Fedora Linux");  // NAME stands in for a missing PRETTY_NAME
  EXPECT_EQ(snap.os.distro_version, "40");
  EXPECT_EQ(snap.host_name, "workstation");
  EXPECT_FALSE(HasWarning(snap, "os-release"));
}

TEST(OsProbe, KernelReleaseFallsBackToProcVersion) {
  ProbeSysroot root;
  root.Write("/proc/version", "Linux version 6.8.0-45-generic (buildd@lcy02) #45-Ubuntu SMP\n");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_EQ(snap.os.kernel_release, "6.8.0-45-generic");
  EXPECT_TRUE(HasWarning(snap, "/proc/sys/kernel/osrelease"));
}

TEST(OsProbe, RecordsEachPieceOfWslEvidence) {
  ProbeSysroot root;
  root.Write(
      "/proc/version",
      "Linux version 5.15.167.4-microsoft-standard-WSL2 (root@f9c826d3017f) (gcc (GCC) 11.2.0) #1 SMP\n");
  root.Write("/dev/dxg", "");
  root.MakeDir("/usr/lib/wsl/lib");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_TRUE(snap.os.wsl);
  ASSERT_EQ(snap.os.wsl_evidence.size(), 3u);
  EXPECT_NE(snap.os.wsl_evidence[0].find("/proc/version"), std::string::npos);
  EXPECT_EQ(snap.os.wsl_evidence[1], "/dev/dxg exists");
  EXPECT_EQ(snap.os.wsl_evidence[2], "/usr/lib/wsl/lib exists");
}

TEST(OsProbe, WslLibraryFolderAloneIsNotWsl) {
  ProbeSysroot root;
  root.MakeDir("/usr/lib/wsl/lib");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_FALSE(snap.os.wsl);
  EXPECT_EQ(snap.os.wsl_evidence.size(), 1u);
}

TEST(OsProbe, DevDxgAloneIsWsl) {
  ProbeSysroot root;
  root.Write("/dev/dxg", "");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_TRUE(snap.os.wsl);
}

TEST(OsProbe, DetectsContainers) {
  {
    ProbeSysroot root;
    root.Write("/.dockerenv", "");
    Snapshot snap = root.Run(ProbeOs);
    EXPECT_EQ(snap.os.container, "docker");
    EXPECT_EQ(snap.os.container_evidence.size(), 1u);
  }
  {
    ProbeSysroot root;
    root.Write("/run/.containerenv", "engine=\"podman-4.9.3\"\n");
    EXPECT_EQ(root.Run(ProbeOs).os.container, "podman");
  }
  {
    ProbeSysroot root;
    root.Write("/proc/1/cgroup",
               "12:pids:/kubepods/besteffort/pod1234/abcd\n11:memory:/kubepods/besteffort\n");
    root.Write("/.dockerenv", "");
    Snapshot snap = root.Run(ProbeOs);
    EXPECT_EQ(snap.os.container, "docker");  // the first hint names it; the rest is evidence
    EXPECT_EQ(snap.os.container_evidence.size(), 2u);
  }
  {
    ProbeSysroot root;
    root.Write("/proc/1/cgroup", "1:name=systemd:/lxc/container1\n");
    EXPECT_EQ(root.Run(ProbeOs).os.container, "lxc");
  }
  {
    ProbeSysroot root;
    root.env = testing::MakeEnv({{"KUBERNETES_SERVICE_HOST", "10.96.0.1"}});
    root.Write("/.dockerenv", "");
    EXPECT_EQ(root.Run(ProbeOs).os.container, "kubernetes");
  }
}

TEST(OsProbe, CpuWithoutTopologyKeepsLogicalCoresOnly) {
  ProbeSysroot root;
  root.Write("/proc/cpuinfo",
             "processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\n\nprocessor\t: 1\nBogoMIPS\t: 50.00\n\n"
             "Hardware\t: Ampere Altra\n");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_EQ(snap.cpu.logical_cores, 2u);
  EXPECT_FALSE(snap.cpu.physical_cores.has_value());
  EXPECT_FALSE(snap.cpu.sockets.has_value());
  EXPECT_EQ(snap.cpu.model, "Ampere Altra");
}

TEST(OsProbe, EmptySysrootWarnsAndGoesOn) {
  ProbeSysroot root;
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_EQ(snap.os.family, OsFamily::kLinux);
  EXPECT_TRUE(HasWarning(snap, "os-release"));
  EXPECT_TRUE(HasWarning(snap, "/proc/cpuinfo"));
  EXPECT_TRUE(HasWarning(snap, "/proc/meminfo"));
  EXPECT_TRUE(HasWarning(snap, "/proc/version"));
  EXPECT_TRUE(HasWarning(snap, "host name"));
  EXPECT_FALSE(snap.cpu.logical_cores.has_value());
  EXPECT_FALSE(snap.memory.total_bytes.has_value());
  // Nothing recorded: the free space is unknown (never the host's).
  EXPECT_EQ(snap.disk.path, "");
  EXPECT_FALSE(snap.disk.free_bytes.has_value());
}

TEST(OsProbe, GarbageInputsWarnWithoutCrashing) {
  ProbeSysroot root;
  root.Write("/etc/os-release", std::string("\x00\x01\xff garbage = = \n\"\"\"", 18));
  root.Write("/proc/cpuinfo", std::string("\xff\xfe\x00processor: x\n:::\n", 20));
  root.Write("/proc/meminfo", "MemTotal: 12");  // truncated: no unit
  root.Write("/proc/sys/kernel/osrelease", "\x01\x02\n");
  root.Write("/proc/sys/kernel/hostname", "\n");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_TRUE(HasWarning(snap, "/etc/os-release"));
  EXPECT_TRUE(HasWarning(snap, "/proc/cpuinfo"));
  EXPECT_TRUE(HasWarning(snap, "MemTotal"));
  EXPECT_TRUE(HasWarning(snap, "osrelease"));
  EXPECT_TRUE(HasWarning(snap, "/proc/sys/kernel/hostname"));
  EXPECT_TRUE(snap.os.distro_id.empty());
  EXPECT_TRUE(snap.os.kernel_release.empty());
}

TEST(OsProbe, FolderWhereAFileIsExpectedWarns) {
  ProbeSysroot root;
  root.MakeDir("/proc/cpuinfo");
  root.MakeDir("/proc/meminfo");
  root.MakeDir("/etc/os-release");
  root.MakeDir("/proc/1/cgroup");
  Snapshot snap = root.Run(ProbeOs);
  EXPECT_TRUE(HasWarning(snap, "/proc/cpuinfo"));
  EXPECT_TRUE(HasWarning(snap, "/proc/meminfo"));
  EXPECT_TRUE(HasWarning(snap, "/etc/os-release"));
  EXPECT_TRUE(HasWarning(snap, "/proc/1/cgroup"));
  EXPECT_FALSE(snap.os.container.has_value());
}

TEST(OsProbe, DiskFallsBackToTheNearestExistingParent) {
  ProbeSysroot root;
  root.live = true;
  root.MakeDir("/home");
  root.env = testing::MakeEnv({{"HOME", "/home/bob/"}});
  EXPECT_EQ(root.Run(ProbeOs).disk.path, "/home");

  ProbeSysroot admin_root;
  admin_root.live = true;
  admin_root.MakeDir("/root");
  admin_root.identity.is_admin = true;
  EXPECT_EQ(admin_root.Run(ProbeOs).disk.path, "/root");

  ProbeSysroot user_root;
  user_root.live = true;
  user_root.env = testing::MakeEnv({{"HOME", "relative/path"}});
  EXPECT_EQ(user_root.Run(ProbeOs).disk.path, "/");
}

TEST(OsReleaseParser, ReadsIdLikeAsAList) {
  auto mint = ParseOsRelease("ID=linuxmint\nID_LIKE=\"ubuntu  debian\"\nNAME=\"Linux Mint\"\n");
  ASSERT_TRUE(mint.ok());
  EXPECT_EQ(mint->id_like, (std::vector<std::string>{"ubuntu", "debian"}));
  auto debian = ParseOsRelease("ID=debian\nNAME=Debian\n");
  ASSERT_TRUE(debian.ok());
  EXPECT_TRUE(debian->id_like.empty());
}

TEST(OsProbe, RecordedUbuntuHasDebianLike) {
  const Snapshot snap = ProbeMachine(
      MakeRecordedInputs(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/gtx1080-desktop"));
  EXPECT_EQ(snap.os.distro_id, "ubuntu");
  EXPECT_EQ(snap.os.distro_id_like, std::vector<std::string>{"debian"});
}

TEST(OsReleaseParser, HandlesQuotingAndEscapes) {
  auto r = ParseOsRelease(
      "ID=\"ubuntu\"\nPRETTY_NAME=\"Ubuntu \\\"24.04\\\" \\$LTS\"\nVERSION_ID='24.04'\nbad line\n=novalue\n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->id, "ubuntu");
  EXPECT_EQ(r->pretty_name, "Ubuntu \"24.04\" $LTS");
  EXPECT_EQ(r->version_id, "24.04");
  EXPECT_FALSE(ParseOsRelease("").ok());
  EXPECT_FALSE(ParseOsRelease("VERSION_ID=1\n").ok());
  EXPECT_EQ(UnquoteOsReleaseValue("\"unterminated"), "unterminated");
  EXPECT_EQ(UnquoteOsReleaseValue("'x"), "x");
  EXPECT_EQ(UnquoteOsReleaseValue("\"trailing\\"), "trailing\\");
}

TEST(MemInfoParser, RejectsOverflowAndMissingTotal) {
  EXPECT_FALSE(ParseMemInfo("MemTotal: 99999999999999999999 kB\n").ok());
  EXPECT_FALSE(ParseMemInfo("MemTotal: 18446744073709551615 kB\n").ok());
  EXPECT_FALSE(ParseMemInfo("MemFree: 1 kB\n").ok());
  auto ok = ParseMemInfo("MemTotal: 2 kB\n");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->total_bytes, 2048u);
  EXPECT_FALSE(ok->available_bytes.has_value());
}

TEST(ProcVersionParser, FindsReleaseAndWsl) {
  EXPECT_EQ(KernelReleaseFromVersionText("Linux version 6.6.87.2-microsoft-standard-WSL2 (x) #1"),
            "6.6.87.2-microsoft-standard-WSL2");
  EXPECT_FALSE(KernelReleaseFromVersionText("Linux").has_value());
  EXPECT_TRUE(KernelVersionTextMentionsWsl("... Microsoft ..."));
  EXPECT_TRUE(KernelVersionTextMentionsWsl("6.6-wsl2"));
  EXPECT_FALSE(KernelVersionTextMentionsWsl("Linux version 6.1.0-26-amd64"));
  EXPECT_EQ(ContainerFromCgroup("0::/system.slice/docker-abc.scope\n"), "docker");
  EXPECT_EQ(ContainerFromCgroup("0::/machine.slice/libpod-abc.scope\n"), "podman");
  EXPECT_FALSE(ContainerFromCgroup("0::/\n").has_value());
}

#ifdef __linux__
TEST(OsProbe, LiveRootGivesWhatAnyLinuxMachineHas) {
  auto fs = MakeRootedFileSystem("/");
  Environment env = CaptureProcessEnvironment();
  UserIdentity identity = CurrentUserIdentity();
  ProbeContext ctx{*fs, env, identity, /*live=*/true};
  Snapshot snap;
  ProbeOs(ctx, snap);
  EXPECT_EQ(snap.os.family, OsFamily::kLinux);
  ASSERT_TRUE(snap.cpu.logical_cores.has_value());
  EXPECT_GE(*snap.cpu.logical_cores, 1u);
  ASSERT_TRUE(snap.memory.total_bytes.has_value());
  EXPECT_GT(*snap.memory.total_bytes, 0u);
  EXPECT_FALSE(snap.os.kernel_release.empty());
  EXPECT_FALSE(snap.disk.path.empty());
}
#endif

}  // namespace
}  // namespace gpudoctor
