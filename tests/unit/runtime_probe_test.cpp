// Tests of the runtime probe on synthetic sysroots: ROCm trees and their versions, HIP runtime, libcuda
// and NVML libraries (aliases folded), CUDA toolkits, the install-path variables, and bad inputs.
#include "probe/common/runtime_probe.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "probe_test_sysroot.h"

namespace gpudoctor {
namespace {

using testing::HasWarning;
using testing::ProbeSysroot;

std::vector<RuntimeInstall> OfKind(const Snapshot& snap, const std::string& kind) {
  std::vector<RuntimeInstall> out;
  for (const auto& r : snap.runtimes)
    if (r.kind == kind) out.push_back(r);
  return out;
}

const RuntimeInstall* AtPath(const Snapshot& snap, const std::string& path) {
  for (const auto& r : snap.runtimes)
    if (r.path == path) return &r;
  return nullptr;
}

TEST(RuntimeProbe, FindsRocmTreesAndTheirHipRuntime) {
  ProbeSysroot root;
  root.Write("/opt/rocm-6.2.4/.info/version", "6.2.4-120\n");
  root.Write("/opt/rocm-6.2.4/lib/libamdhip64.so.6.2.60204", "");
  root.Write("/opt/rocm-6.2.4/lib/libamdhip64.so.6", "");
  root.Write("/opt/rocm-6.2.4/lib/libamdhip64.so", "");
  root.Write("/opt/rocm-6.2.4/lib/libamdhip64.so.6.2.60204.bak~", "");  // not a version suffix
  root.Write("/opt/rocm-5.7.1/lib/libamdhip64.so.5.7.50701", "");
  root.Write("/opt/rocmnot/.info/version", "1.0\n");  // not a ROCm folder name
  root.Write("/opt/rocm-notes.txt", "a file, not a tree");
  Snapshot snap = root.Run(ProbeRuntimes);

  auto rocm = OfKind(snap, "rocm");
  ASSERT_EQ(rocm.size(), 2u);
  EXPECT_EQ(rocm[0].path, "/opt/rocm-5.7.1");
  EXPECT_EQ(rocm[0].version, "5.7.1");
  EXPECT_EQ(rocm[0].version_source, "folder name");
  EXPECT_EQ(rocm[1].path, "/opt/rocm-6.2.4");
  EXPECT_EQ(rocm[1].version, "6.2.4-120");
  EXPECT_EQ(rocm[1].version_source, ".info/version");

  auto hip = OfKind(snap, "hip-runtime");
  ASSERT_EQ(hip.size(), 2u);
  EXPECT_EQ(hip[0].path, "/opt/rocm-5.7.1/lib/libamdhip64.so.5.7.50701");
  EXPECT_EQ(hip[0].version, "5.7.50701");
  EXPECT_EQ(hip[1].path, "/opt/rocm-6.2.4/lib/libamdhip64.so.6.2.60204");
  EXPECT_EQ(hip[1].version, "6.2.60204");
  EXPECT_EQ(hip[1].version_source, "file name");
  EXPECT_TRUE(snap.warnings.empty()) << snap.warnings.front();
}

TEST(RuntimeProbe, RocmLinkTakesItsTargetsVersion) {
  ProbeSysroot root;
  root.MakeDir("/opt/rocm-6.3.1/lib");
  if (!root.Link("/opt/rocm", "rocm-6.3.1")) GTEST_SKIP() << "no symbolic links here";
  Snapshot snap = root.Run(ProbeRuntimes);
  const RuntimeInstall* link = AtPath(snap, "/opt/rocm");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->version, "6.3.1");
  EXPECT_EQ(link->version_source, "link target /opt/rocm-6.3.1");
}

TEST(RuntimeProbe, FindsSystemLibrariesAndFoldsTheirAliases) {
  ProbeSysroot root;
  const std::string dir = "/usr/lib/x86_64-linux-gnu";
  root.Write(dir + "/libcuda.so.580.159.03", "");
  root.Write(dir + "/libnvidia-ml.so.580.159.03", "");
  root.Write(dir + "/libamdhip64.so.5.2.30200", "");
  root.Write(dir + "/libamdhip64.so.5", "");  // a copy, not a link: the longer version extends it
  root.Write(dir + "/libcudart.so.12", "");   // not libcuda
  bool links = root.Link(dir + "/libcuda.so.1", "libcuda.so.580.159.03") &&
               root.Link(dir + "/libcuda.so", "libcuda.so.1") &&
               root.Link(dir + "/libnvidia-ml.so.1", "libnvidia-ml.so.580.159.03");
  if (!links) GTEST_SKIP() << "no symbolic links here";
  root.Write("/usr/lib64/libcuda.so.535.216.01", "");  // a second install elsewhere stays separate
  Snapshot snap = root.Run(ProbeRuntimes);

  auto cuda = OfKind(snap, "libcuda");
  ASSERT_EQ(cuda.size(), 2u);
  EXPECT_EQ(cuda[0].path, dir + "/libcuda.so.580.159.03");
  EXPECT_EQ(cuda[0].version, "580.159.03");
  EXPECT_EQ(cuda[0].version_source, "file name");
  EXPECT_EQ(cuda[1].path, "/usr/lib64/libcuda.so.535.216.01");
  auto nvml = OfKind(snap, "nvml");
  ASSERT_EQ(nvml.size(), 1u);
  EXPECT_EQ(nvml[0].version, "580.159.03");
  auto hip = OfKind(snap, "hip-runtime");
  ASSERT_EQ(hip.size(), 1u);
  EXPECT_EQ(hip[0].version, "5.2.30200");
  EXPECT_TRUE(snap.warnings.empty());
}

TEST(RuntimeProbe, SonameCopyBesideAFullVersionIsFolded) {
  ProbeSysroot root;
  root.Write("/usr/lib/libcuda.so.1", "");
  root.Write("/usr/lib/libcuda.so.550.54.14", "");
  root.Write("/usr/lib/libcuda.so", "");
  auto cuda = OfKind(root.Run(ProbeRuntimes), "libcuda");
  ASSERT_EQ(cuda.size(), 1u);
  EXPECT_EQ(cuda[0].version, "550.54.14");
}

TEST(RuntimeProbe, ScansLdLibraryPathFoldersOnce) {
  ProbeSysroot root;
  root.Write("/usr/local/nvidia/lib64/libcuda.so.580.159.04", "");
  root.Write("/usr/local/nvidia/lib64/libnvidia-ml.so.580.159.04", "");
  root.Write("/opt/rocm-6.4.1/lib/libamdhip64.so.6.4.60401", "");
  root.env = testing::MakeEnv(
      {{"LD_LIBRARY_PATH",
        "/usr/local/nvidia/lib64/::relative/lib:/opt/rocm-6.4.1/lib:/usr/local/nvidia/lib64"}});
  Snapshot snap = root.Run(ProbeRuntimes);
  auto cuda = OfKind(snap, "libcuda");
  ASSERT_EQ(cuda.size(), 1u);
  EXPECT_EQ(cuda[0].path, "/usr/local/nvidia/lib64/libcuda.so.580.159.04");
  EXPECT_EQ(cuda[0].version, "580.159.04");
  EXPECT_EQ(OfKind(snap, "nvml").size(), 1u);
  EXPECT_EQ(OfKind(snap, "hip-runtime").size(), 1u);
  EXPECT_TRUE(snap.warnings.empty());
}

// Seen on a container host (2026-12): alternatives links for CUDA, and driver libraries mounted under
// /usr/local/nvidia with /usr/lib links into them and LD_LIBRARY_PATH naming lib64 and lib -> lib64.
TEST(RuntimeProbe, FollowsAbsoluteLinksInsideTheSysroot) {
  ProbeSysroot root;
  root.MakeDir("/usr/local/cuda-13.0/bin");
  root.Write("/opt/rocm-6.2.4/.info/version", "6.2.4-120\n");
  root.Write("/opt/rocm-6.2.4/lib/libamdhip64.so.6.2.60204", "");
  root.Write("/usr/local/nvidia/lib64/libcuda.so.580.159.04", "");
  bool links = root.Link("/usr/local/cuda", "/etc/alternatives/cuda") &&
               root.Link("/etc/alternatives/cuda", "/usr/local/cuda-13.0") &&
               root.Link("/opt/rocm", "/opt/rocm-6.2.4") &&
               root.Link("/usr/local/nvidia/lib64/libcuda.so.1", "libcuda.so.580.159.04") &&
               root.Link("/usr/local/nvidia/lib", "../nvidia/./lib64") &&
               root.Link("/usr/lib/libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1");
  if (!links) GTEST_SKIP() << "no symbolic links here";
  root.env = testing::MakeEnv({{"LD_LIBRARY_PATH", "/usr/local/nvidia/lib64:/usr/local/nvidia/lib"}});
  Snapshot snap = root.Run(ProbeRuntimes);

  const RuntimeInstall* cuda = AtPath(snap, "/usr/local/cuda");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->version, "13.0");
  EXPECT_EQ(cuda->version_source, "link target /usr/local/cuda-13.0");
  const RuntimeInstall* rocm = AtPath(snap, "/opt/rocm");
  ASSERT_NE(rocm, nullptr);
  EXPECT_EQ(rocm->version, "6.2.4-120");
  EXPECT_EQ(rocm->version_source, ".info/version");
  EXPECT_EQ(OfKind(snap, "hip-runtime").size(), 1u);  // the tree's lib/ is listed once, under its real name

  auto libcuda = OfKind(snap, "libcuda");
  ASSERT_EQ(libcuda.size(), 2u);
  EXPECT_EQ(libcuda[0].path, "/usr/lib/libcuda.so.1");
  EXPECT_EQ(libcuda[0].version, "580.159.04");
  EXPECT_EQ(libcuda[0].version_source, "link target /usr/local/nvidia/lib64/libcuda.so.580.159.04");
  EXPECT_EQ(libcuda[1].path, "/usr/local/nvidia/lib64/libcuda.so.580.159.04");
  EXPECT_TRUE(snap.warnings.empty()) << snap.warnings.front();
}

TEST(RuntimeProbe, LinkLoopsEndQuietly) {
  ProbeSysroot root;
  bool links = root.Link("/usr/local/cuda", "/usr/local/cuda-loop") &&
               root.Link("/usr/local/cuda-loop", "/usr/local/cuda") &&
               root.Link("/usr/lib/libcuda.so.1", "/usr/lib/libcuda.so.1");
  if (!links) GTEST_SKIP() << "no symbolic links here";
  Snapshot snap = root.Run(ProbeRuntimes);
  EXPECT_TRUE(OfKind(snap, "cuda-toolkit").empty());
  EXPECT_EQ(OfKind(snap, "libcuda").size(), 1u);
}

TEST(RuntimeProbe, WslLibrariesCarryNoDriverVersion) {
  ProbeSysroot root;
  root.Write("/usr/lib/wsl/lib/libcuda.so.1.1", "");
  root.Write("/usr/lib/wsl/lib/libcuda.so.1", "");
  root.Write("/usr/lib/wsl/lib/libnvidia-ml.so.1", "");
  root.Write("/usr/lib/wsl/lib/libd3d12.so", "");
  Snapshot snap = root.Run(ProbeRuntimes);
  auto cuda = OfKind(snap, "libcuda");
  ASSERT_EQ(cuda.size(), 1u);
  EXPECT_EQ(cuda[0].path, "/usr/lib/wsl/lib/libcuda.so.1.1");
  EXPECT_EQ(cuda[0].version, "");
  EXPECT_NE(cuda[0].version_source.find("WSL"), std::string::npos);
  EXPECT_EQ(OfKind(snap, "nvml").size(), 1u);
}

TEST(RuntimeProbe, FindsCudaToolkitsAndTheirVersions) {
  ProbeSysroot root;
  root.Write(
      "/usr/local/cuda-12.4/version.json",
      R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, "cuda_cudart": {"version": "12.4.127"}})");
  root.Write("/usr/local/cuda-11.0/version.txt", "CUDA Version 11.0.221\n");
  root.MakeDir("/usr/local/cuda-12.6/bin");
  root.MakeDir("/usr/local/cudnn");  // not a toolkit
  root.Write("/usr/local/cuda-x", "a file");
  Snapshot snap = root.Run(ProbeRuntimes);
  auto toolkits = OfKind(snap, "cuda-toolkit");
  ASSERT_EQ(toolkits.size(), 3u);
  EXPECT_EQ(toolkits[0].path, "/usr/local/cuda-11.0");
  EXPECT_EQ(toolkits[0].version, "11.0.221");
  EXPECT_EQ(toolkits[0].version_source, "version.txt");
  EXPECT_EQ(toolkits[1].path, "/usr/local/cuda-12.4");
  EXPECT_EQ(toolkits[1].version, "12.4.1");
  EXPECT_EQ(toolkits[1].version_source, "version.json");
  EXPECT_EQ(toolkits[2].version, "12.6");
  EXPECT_EQ(toolkits[2].version_source, "folder name");
  EXPECT_TRUE(snap.warnings.empty());
}

TEST(RuntimeProbe, CudaLinkReadsTheToolkitBehindIt) {
  ProbeSysroot root;
  root.Write("/usr/local/cuda-12.8/version.json", R"({"cuda": {"version": "12.8.0"}})");
  if (!root.Link("/usr/local/cuda", "cuda-12.8")) GTEST_SKIP() << "no symbolic links here";
  Snapshot snap = root.Run(ProbeRuntimes);
  const RuntimeInstall* link = AtPath(snap, "/usr/local/cuda");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(link->version, "12.8.0");
}

TEST(RuntimeProbe, InstallPathVariablesAddTreesOrWarn) {
  ProbeSysroot root;
  root.Write("/home/alice/rocm/.info/version", "7.0.2\n");
  root.Write("/opt/rocm-7.0.2/.info/version", "7.0.2\n");
  root.Write("/opt/cuda/version.json", R"({"cuda": {"version": "13.0.1"}})");
  root.env = testing::MakeEnv({{"ROCM_PATH", "/home/alice/rocm/"},
                               {"HIP_PATH", "/opt/rocm-7.0.2"},  // already listed: not twice
                               {"CUDA_PATH", "/opt/cuda"},
                               {"CUDA_HOME", "/nowhere/cuda"}});
  Snapshot snap = root.Run(ProbeRuntimes);
  auto rocm = OfKind(snap, "rocm");
  ASSERT_EQ(rocm.size(), 2u);
  EXPECT_EQ(rocm[1].path, "/home/alice/rocm");
  EXPECT_EQ(rocm[1].version, "7.0.2");
  auto toolkits = OfKind(snap, "cuda-toolkit");
  ASSERT_EQ(toolkits.size(), 1u);
  EXPECT_EQ(toolkits[0].path, "/opt/cuda");
  EXPECT_EQ(toolkits[0].version, "13.0.1");
  EXPECT_TRUE(HasWarning(snap, "CUDA_HOME=/nowhere/cuda"));
  EXPECT_EQ(snap.warnings.size(), 1u);
}

TEST(RuntimeProbe, BadVersionFilesWarnAndFallBackToTheName) {
  ProbeSysroot root;
  root.Write("/opt/rocm-6.1.0/.info/version", "\xff\xfe garbage\n");
  root.MakeDir("/opt/rocm-6.0.0/.info/version");  // a folder where the file should be
  root.Write("/usr/local/cuda-12.1/version.json", "{\"cuda\": {\"version\": 12");     // truncated
  root.Write("/usr/local/cuda-12.2/version.json", R"({"cuda": {"version": 12.2}})");  // wrong type
  root.Write("/usr/local/cuda-12.3/version.txt", "");
  Snapshot snap = root.Run(ProbeRuntimes);
  auto rocm = OfKind(snap, "rocm");
  ASSERT_EQ(rocm.size(), 2u);
  EXPECT_EQ(rocm[0].version, "6.0.0");
  EXPECT_EQ(rocm[1].version, "6.1.0");
  EXPECT_TRUE(HasWarning(snap, "/opt/rocm-6.1.0/.info/version"));
  EXPECT_TRUE(HasWarning(snap, "/opt/rocm-6.0.0/.info/version"));
  auto toolkits = OfKind(snap, "cuda-toolkit");
  ASSERT_EQ(toolkits.size(), 3u);
  EXPECT_EQ(toolkits[0].version, "12.1");
  EXPECT_EQ(toolkits[1].version, "12.2");
  EXPECT_EQ(toolkits[2].version, "12.3");
  EXPECT_TRUE(HasWarning(snap, "/usr/local/cuda-12.1/version.json"));
  EXPECT_TRUE(HasWarning(snap, "/usr/local/cuda-12.2/version.json"));
  EXPECT_TRUE(HasWarning(snap, "/usr/local/cuda-12.3/version.txt"));
}

TEST(RuntimeProbe, EmptyOrOddSysrootsFindNothingQuietly) {
  ProbeSysroot empty;
  Snapshot snap = empty.Run(ProbeRuntimes);
  EXPECT_TRUE(snap.runtimes.empty());
  EXPECT_TRUE(snap.warnings.empty());
  EXPECT_FALSE(snap.looked_at.empty());

  ProbeSysroot odd;
  odd.Write("/opt", "a file where a folder should be");
  odd.Write("/usr/local", "likewise");
  odd.Write("/usr/lib", "likewise");
  Snapshot odd_snap = odd.Run(ProbeRuntimes);
  EXPECT_TRUE(odd_snap.runtimes.empty());
}

#ifdef __linux__
// On any machine: the live root can be probed, and whatever is found has a kind and a path.
TEST(RuntimeProbe, LiveRootNeverCrashes) {
  auto fs = MakeRootedFileSystem("/");
  Environment env = CaptureProcessEnvironment();
  UserIdentity identity;
  ProbeContext ctx{*fs, env, identity, /*live=*/true};
  Snapshot snap;
  ProbeRuntimes(ctx, snap);
  for (const auto& r : snap.runtimes) {
    EXPECT_FALSE(r.kind.empty());
    EXPECT_FALSE(r.path.empty());
    std::printf("[ info     ] %s %s %s (%s)\n", r.kind.c_str(), r.path.c_str(), r.version.c_str(),
                r.version_source.c_str());
  }
  for (const auto& w : snap.warnings) std::printf("[ info     ] warning: %s\n", w.c_str());
  for (const auto& l : snap.looked_at) std::printf("[ info     ] looked at %s\n", l.c_str());
}
#endif

}  // namespace
}  // namespace gpudoctor
