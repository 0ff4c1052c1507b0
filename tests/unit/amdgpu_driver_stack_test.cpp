// Issue 29's driver-stack model for amdgpu on Linux: what kernel_modules.h reads of /lib/modules for an AMD
// GPU and what amdgpu_driver_stack.h concludes when no amdgpu is loaded. The recorded machines
// rx7900xtx-dkms-secure-boot and rx7900xtx-no-modules-extra carry the whole path.
#include <gtest/gtest.h>

#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

// An RX 7900 XTX with no driver bound on `distro`, running 6.8.0-50-generic.
Snapshot Unbound(const std::string& distro, std::vector<std::string> kernels, std::vector<std::string> dkms,
                 std::optional<bool> secure_boot) {
  Snapshot s = Linux();
  s.os.distro_id = distro;
  s.os.kernel_release = "6.8.0-50-generic";
  AddAmd(s, 0x744c, 0xc8, "gfx1100", 24, false, "");
  s.amd.kfd_nodes.clear();
  s.amd.kfd_topology_present = false;
  s.amd.device_nodes.clear();
  s.amd.amdgpu_module_loaded = false;
  s.amd.module_kernels = std::move(kernels);
  s.amd.dkms_module_kernels = std::move(dkms);
  s.os.secure_boot = secure_boot;
  return s;
}

TEST(AmdgpuDriverStack, NoModuleForTheRunningKernel) {
  // Ubuntu: the kernel's own amdgpu is in linux-modules-extra.
  auto fs = RunRules(Unbound("ubuntu", {"6.8.0-47-generic"}, {}, std::nullopt));
  const Finding* f = FindId(fs, "runtime.amdgpu_module_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(BashFix(*f).find("linux-modules-extra-$(uname -r)"), std::string::npos) << BashFix(*f);
  EXPECT_EQ(BashFix(*f).find("dkms autoinstall"), std::string::npos) << BashFix(*f);
  ASSERT_EQ(f->alternatives.size(), 1u);
  EXPECT_NE(f->alternatives[0].summary.find("6.8.0-47-generic"), std::string::npos);
  EXPECT_FALSE(Has(fs, "runtime.driver_missing"));
  // amdgpu-dkms built for the older kernel only: rebuild it for this one (Debian: no modules-extra).
  fs = RunRules(Unbound("debian", {"6.8.0-47-generic"}, {"6.8.0-47-generic"}, false));
  f = FindId(fs, "runtime.amdgpu_module_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(BashFix(*f).find("sudo dkms autoinstall -k \"$(uname -r)\""), std::string::npos) << BashFix(*f);
  EXPECT_EQ(BashFix(*f).find("modules-extra"), std::string::npos) << BashFix(*f);
}

TEST(AmdgpuDriverStack, DkmsModuleRefusedBySecureBoot) {
  const std::string running = "6.8.0-50-generic";
  auto fs = RunRules(Unbound("ubuntu", {running}, {running}, true));
  const Finding* f = FindId(fs, "runtime.amdgpu_module_refused");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(BashFix(*f).find("mokutil --import /var/lib/shim-signed/mok/MOK.der"), std::string::npos);
  fs = RunRules(Unbound("debian", {running}, {running}, true));
  EXPECT_NE(BashFix(*FindId(fs, "runtime.amdgpu_module_refused")).find("/var/lib/dkms/mok.pub"),
            std::string::npos);
  // The kernel's own module (signed by the distribution), or Secure Boot off or unknown: nothing more is
  // known than "not loaded".
  for (const auto& s :
       {Unbound("ubuntu", {running}, {}, true), Unbound("ubuntu", {running}, {running}, false),
        Unbound("ubuntu", {running}, {running}, std::nullopt)}) {
    fs = RunRules(s);
    EXPECT_TRUE(Has(fs, "runtime.driver_missing")) << Ids(fs);
    EXPECT_FALSE(Has(fs, "runtime.amdgpu_module_refused") || Has(fs, "runtime.amdgpu_module_missing"))
        << Ids(fs);
  }
  // /lib/modules not read: the disk says nothing.
  EXPECT_TRUE(Has(RunRules(Unbound("ubuntu", {}, {}, true)), "runtime.amdgpu_module_missing"));
  Snapshot unread = Unbound("ubuntu", {}, {}, true);
  unread.amd.module_kernels.reset();
  EXPECT_TRUE(Has(RunRules(unread), "runtime.driver_missing"));
}

TEST(AmdgpuDriverStack, TheModuleListsSurviveTheSnapshotJson) {
  Snapshot s = Unbound("ubuntu", {"6.8.0-47-generic", "6.8.0-50-generic"}, {"6.8.0-50-generic"}, true);
  auto back = SnapshotFromJson(SnapshotToJson(s), "test");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->amd.module_kernels, s.amd.module_kernels);
  EXPECT_EQ(back->amd.dkms_module_kernels, s.amd.dkms_module_kernels);
  s.amd.module_kernels.reset();
  back = SnapshotFromJson(SnapshotToJson(s), "test");
  ASSERT_TRUE(back.ok());
  EXPECT_FALSE(back->amd.module_kernels.has_value());
}

}  // namespace
}  // namespace gpudoctor
