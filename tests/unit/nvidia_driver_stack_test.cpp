// Issue 29's driver-stack model for NVIDIA on Linux: what kernel_modules.h reads (Secure Boot's efivarfs
// variable, the module files under /lib/modules) and what nvidia_driver_stack.h concludes from it. The
// recorded machines gtx1080-driver-upgraded, rtx3060-secure-boot and rtx3060-new-kernel carry the whole path.
#include <gtest/gtest.h>

#include "probe/linux/kernel_modules.h"
#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

TEST(KernelModules, TheSecureBootVariableIsFourAttributeBytesAndTheValue) {
  EXPECT_EQ(ParseSecureBootVariable(std::string("\x06\x00\x00\x00\x01", 5)), true);
  EXPECT_EQ(ParseSecureBootVariable(std::string("\x06\x00\x00\x00\x00", 5)), false);
  EXPECT_EQ(ParseSecureBootVariable(std::string("\x01", 1)), std::nullopt);                  // no attributes
  EXPECT_EQ(ParseSecureBootVariable(std::string("\x06\x00\x00\x00\x02", 5)), std::nullopt);  // not a bool
  EXPECT_EQ(ParseSecureBootVariable(""), std::nullopt);
}

TEST(KernelModules, OnlyTheCoreModuleFileCounts) {
  for (const char* yes : {"nvidia.ko", "nvidia.ko.zst", "nvidia.ko.xz", "nvidia.ko.gz"})
    EXPECT_TRUE(IsNvidiaModuleFile(yes)) << yes;
  for (const char* no : {"nvidia-uvm.ko", "nvidia-drm.ko.zst", "nvidia.ko.sig", "nouveau.ko", "nvidia"})
    EXPECT_FALSE(IsNvidiaModuleFile(no)) << no;
}

Snapshot WithLibraries(const std::string& module, const std::string& library, const std::string& dir) {
  Snapshot s = Linux();
  AddNvidia(s, 0x2504, 8, 6, module);
  s.nvidia.driver_version_source = "/proc/driver/nvidia/version";
  s.runtimes.push_back({"libcuda", dir + "/libcuda.so." + library, library, "file name"});
  return s;
}

TEST(NvidiaDriverStack, LoadedModuleAgainstInstalledLibraries) {
  auto fs = RunRules(WithLibraries("570.153.02", "580.95.05", "/usr/lib/x86_64-linux-gnu"));
  const Finding* f = FindId(fs, "runtime.nvidia_library_mismatch");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(BashFix(*f), "sudo reboot\n");
  ASSERT_EQ(f->alternatives.size(), 1u);  // reload without a reboot
  // Older libraries than the module: a second install, not a pending reboot.
  fs = RunRules(WithLibraries("580.95.05", "570.153.02", "/usr/lib/x86_64-linux-gnu"));
  f = FindId(fs, "runtime.nvidia_library_mismatch");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(BashFix(*f).find("sudo reboot"), std::string::npos) << BashFix(*f);
  EXPECT_NE(f->evidence.back().find("older than the module"), std::string::npos) << f->evidence.back();
  // The same release, WSL's host libraries and CUDA's forward-compatibility libraries are no mismatch.
  EXPECT_FALSE(Has(RunRules(WithLibraries("580.95.05", "580.95.05", "/usr/lib/x86_64-linux-gnu")),
                   "runtime.nvidia_library_mismatch"));
  EXPECT_FALSE(Has(RunRules(WithLibraries("570.153.02", "580.95.05", "/usr/local/cuda-13.0/compat")),
                   "runtime.nvidia_library_mismatch"));
  EXPECT_FALSE(Has(RunRules(WithLibraries("570.153.02", "580.95.05", "/usr/lib/wsl/lib")),
                   "runtime.nvidia_library_mismatch"));
  // A version only NVML reported (no /proc file): the module is not known to be loaded.
  Snapshot nvml_only = WithLibraries("570.153.02", "580.95.05", "/usr/lib/x86_64-linux-gnu");
  nvml_only.nvidia.driver_version_source = "nvml (recorded)";
  EXPECT_FALSE(Has(RunRules(nvml_only), "runtime.nvidia_library_mismatch"));
}

Snapshot Unloaded(const std::string& distro, std::vector<std::string> module_kernels,
                  std::optional<bool> secure_boot) {
  Snapshot s = Linux();
  s.os.distro_id = distro;
  AddNvidia(s, 0x2504, 8, 6, "", "");
  s.nvidia.module_kernels = std::move(module_kernels);
  s.os.secure_boot = secure_boot;
  return s;
}

TEST(NvidiaDriverStack, WhyNoModuleIsLoaded) {
  const std::string running = Linux().os.kernel_release;
  // Built for another kernel only: build it for this one, with the distribution's tools.
  auto fs = RunRules(Unloaded("ubuntu", {"6.8.0-40-generic"}, std::nullopt));
  const Finding* f = FindId(fs, "runtime.nvidia_module_not_built");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(BashFix(*f).find("linux-headers-$(uname -r)"), std::string::npos) << BashFix(*f);
  EXPECT_NE(BashFix(*f).find("dkms autoinstall"), std::string::npos) << BashFix(*f);
  EXPECT_FALSE(Has(fs, "runtime.driver_missing")) << Ids(fs);
  fs = RunRules(Unloaded("fedora", {"6.8.0-40-generic"}, std::nullopt));
  f = FindId(fs, "runtime.nvidia_module_not_built");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(BashFix(*f).find("akmods --force"), std::string::npos) << BashFix(*f);
  // Built for this kernel, Secure Boot on: enroll the key the distribution's DKMS signs with.
  fs = RunRules(Unloaded("debian", {running}, true));
  f = FindId(fs, "runtime.nvidia_module_refused");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(BashFix(*f).find("mokutil --import /var/lib/dkms/mok.pub"), std::string::npos) << BashFix(*f);
  fs = RunRules(Unloaded("ubuntu", {running}, true));
  EXPECT_NE(BashFix(*FindId(fs, "runtime.nvidia_module_refused")).find("/var/lib/shim-signed/mok/MOK.der"),
            std::string::npos);
  // Built, and Secure Boot off or unknown: nothing more is known than "not loaded".
  for (std::optional<bool> sb : {std::optional<bool>(false), std::optional<bool>()}) {
    fs = RunRules(Unloaded("ubuntu", {running}, sb));
    EXPECT_TRUE(Has(fs, "runtime.driver_missing")) << Ids(fs);
    EXPECT_FALSE(Has(fs, "runtime.nvidia_module_refused")) << Ids(fs);
  }
  // No module anywhere, or /lib/modules not read: the driver is not installed.
  for (auto kernels : {std::optional<std::vector<std::string>>(std::vector<std::string>{}),
                       std::optional<std::vector<std::string>>()}) {
    Snapshot s = Unloaded("ubuntu", {}, true);
    s.nvidia.module_kernels = kernels;
    fs = RunRules(s);
    EXPECT_TRUE(Has(fs, "runtime.driver_missing")) << Ids(fs);
  }
}

// Saved snapshots keep what was read and what was not: [] (read, none) apart from null (not read).
TEST(NvidiaDriverStack, SnapshotsKeepTheModuleKernelsAndSecureBoot) {
  Snapshot s = Unloaded("ubuntu", {"6.8.0-40-generic", "6.8.0-45-generic"}, true);
  auto back = SnapshotFromJson(SnapshotToJson(s), "s.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->nvidia.module_kernels, s.nvidia.module_kernels);
  EXPECT_EQ(back->os.secure_boot, true);
  s.nvidia.module_kernels = std::vector<std::string>{};
  s.os.secure_boot.reset();
  back = SnapshotFromJson(SnapshotToJson(s), "s.json");
  ASSERT_TRUE(back.ok());
  ASSERT_TRUE(back->nvidia.module_kernels.has_value());
  EXPECT_TRUE(back->nvidia.module_kernels->empty());
  EXPECT_FALSE(back->os.secure_boot.has_value());
  s.nvidia.module_kernels.reset();
  back = SnapshotFromJson(SnapshotToJson(s), "s.json");
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->nvidia.module_kernels.has_value());
}

}  // namespace
}  // namespace gpudoctor
