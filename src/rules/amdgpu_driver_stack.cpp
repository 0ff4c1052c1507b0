// The amdgpu kernel driver on Linux, as far as the disk shows it (issue 29's driver-stack model, AMD side).
// modprobe looks in /lib/modules/<running kernel>: amdgpu-dkms's build under updates/dkms first, then the
// kernel's own under kernel/drivers/gpu/drm/amd/amdgpu. Ubuntu ships the kernel's own amdgpu in
// linux-modules-extra-<release>, which cloud, minimal and some upgraded installs lack (AMD's install
// prerequisites install it with the headers). A DKMS build is signed with the machine's own key, which
// Secure Boot refuses until that key is enrolled. Facts come from the Snapshot: amd.module_kernels and
// amd.dkms_module_kernels (/lib/modules), amd.amdgpu_module_loaded (/sys/module/amdgpu), os.secure_boot.
#include "rules/amdgpu_driver_stack.h"

#include "core/strings.h"
#include "rules/module_signing.h"

namespace gpudoctor {
namespace {

constexpr const char* kRocmPrerequisites =
    "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.2/install/prerequisites.html";

Finding ModuleMissing(const RuleContext& ctx, const std::string& subject, const std::string& running) {
  const auto& kernels = *ctx.snap.amd.module_kernels;
  const auto& dkms = ctx.snap.amd.dkms_module_kernels;
  const std::string& distro = ctx.snap.os.distro_id;
  Finding f = MakeFinding("runtime.amdgpu_module_missing", Layer::kRuntime, Severity::kError, subject,
                          "The running kernel " + running + " has no amdgpu module: the GPU has no driver");
  f.evidence.push_back(
      "required an amdgpu.ko under /lib/modules/" + running + ", found " +
      (kernels.empty() ? std::string("none for any installed kernel") : "one only for " + JoinList(kernels)));
  if (!dkms.empty())
    f.evidence.push_back("amdgpu-dkms is built for " + JoinList(dkms) +
                         ": a kernel update whose DKMS build failed (it needs the new kernel's headers)");
  f.fix_summary = "install the running kernel's amdgpu module, then load it";
  if (IsUbuntuFamily(distro)) {
    f.evidence.push_back("Ubuntu ships the kernel's own amdgpu in linux-modules-extra-" + running);
    f.fix.push_back(
        FixAction::Bash("sudo apt install linux-headers-$(uname -r) linux-modules-extra-$(uname -r)"));
  } else if (distro == "debian") {
    f.fix.push_back(FixAction::Bash("sudo apt install linux-headers-$(uname -r)"));
  }
  if (!dkms.empty()) f.fix.push_back(FixAction::Bash("sudo dkms autoinstall -k \"$(uname -r)\""));
  f.fix.push_back(FixAction::Bash("sudo modprobe amdgpu"));
  f.fix.push_back(FixAction::Manual("or reboot; then check with: ls /dev/kfd && rocminfo"));
  if (!kernels.empty())
    f.alternatives.push_back(
        FixOption{"boot a kernel that has amdgpu (" + kernels.back() + ") from the boot menu", {}, ""});
  f.link = kRocmPrerequisites;
  return f;
}

}  // namespace

std::optional<Finding> AmdgpuModuleNotLoaded(const RuleContext& ctx, const std::string& subject) {
  const AmdInfo& amd = ctx.snap.amd;
  const std::string& running = ctx.snap.os.kernel_release;
  if (amd.amdgpu_module_loaded || !amd.module_kernels || running.empty()) return std::nullopt;
  if (!Contains(*amd.module_kernels, running)) return ModuleMissing(ctx, subject, running);
  if (!Contains(amd.dkms_module_kernels, running) || ctx.snap.os.secure_boot != true) return std::nullopt;
  Finding f = MakeFinding("runtime.amdgpu_module_refused", Layer::kRuntime, Severity::kError, subject,
                          "Secure Boot is on and amdgpu-dkms's module is built but not loaded: the kernel "
                          "refuses a module signed with a key it does not trust");
  f.evidence.push_back("found amdgpu-dkms's amdgpu.ko under /lib/modules/" + running +
                       "/updates/dkms (modprobe prefers it over the kernel's own) and no /sys/module/amdgpu "
                       "(not loaded); Secure Boot enforcing (efivarfs SecureBoot variable)");
  f.evidence.push_back(
      "modprobe amdgpu says \"Key was rejected by service\"; DKMS signs with the machine's own key (MOK), "
      "which must be enrolled once");
  f.fix_summary = "enroll the key DKMS signs with, then reboot and confirm it in the blue MOK Manager screen";
  AddDkmsKeyEnrollment(ctx, f);
  f.alternatives.insert(f.alternatives.begin(),
                        FixOption{"use the kernel's own amdgpu instead (it is signed by the distribution; "
                                  "ROCm runs on it for the GPUs the kernel supports)",
                                  {FixAction::Bash("sudo apt remove amdgpu-dkms && sudo reboot")},
                                  ""});
  return f;
}

}  // namespace gpudoctor
