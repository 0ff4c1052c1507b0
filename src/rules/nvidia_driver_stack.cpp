// The NVIDIA driver stack on Linux, as far as the disk shows it (issue 29's driver-stack model): the
// kernel module that is loaded against the userspace libraries installed (an upgrade without a reboot:
// NVML's "Driver/library version mismatch", CUDA's "system has unsupported display driver"), and why
// no module is loaded for a GPU that needs one: none built for the running kernel (a kernel upgrade whose
// DKMS build failed), or one built but refused by Secure Boot (a DKMS module signed with a key the
// firmware does not know). Facts come from the Snapshot: /proc/driver/nvidia/version, the libcuda and NVML
// files found (runtimes), /lib/modules (nvidia.module_kernels) and efivarfs (os.secure_boot).
#include "rules/nvidia_driver_stack.h"

#include <algorithm>

#include "core/strings.h"
#include "rules/module_signing.h"

namespace gpudoctor {
namespace {

constexpr const char* kNvmlErrors = "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html";
constexpr const char* kDkms = "https://github.com/dell/dkms";
constexpr const char* kCdi =
    "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/cdi-support.html";

// A libcuda or NVML file of the installed driver, not WSL's (the Windows host's) nor CUDA's forward
// compatibility libraries (/usr/local/cuda*/compat: another version on purpose).
bool IsDriverLibrary(const RuntimeInstall& r) {
  if (r.kind != "libcuda" && r.kind != "nvml") return false;
  if (r.version.empty() || StartsWith(r.path, "/usr/lib/wsl/")) return false;
  return r.path.find("/compat") == std::string::npos;
}

bool DebianLike(const std::string& distro) {
  return distro == "debian" || IsUbuntuFamily(distro);
}

}  // namespace

// runtime.nvidia_cdi_spec_stale: a CDI spec generated for another driver than the loaded one.
void NvidiaCdiSpecStale(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux || ctx.snap.os.container || ctx.snap.os.wsl) return;
  const NvidiaInfo& nv = ctx.snap.nvidia;
  if (!nv.driver_version) return;
  for (const CdiSpec& spec : nv.cdi_specs) {
    if (spec.driver_version.empty() || spec.driver_version == *nv.driver_version) continue;
    Finding f = MakeFinding("runtime.nvidia_cdi_spec_stale", Layer::kRuntime, Severity::kWarning, "",
                            "The CDI specification " + spec.path + " was generated for NVIDIA driver " +
                                spec.driver_version + ", not the loaded " + *nv.driver_version +
                                ": containers given the GPU through CDI get the old driver's files or fail");
    f.evidence.push_back("required a spec of the loaded driver, found " + spec.path +
                         " naming libcuda/NVML " + spec.driver_version + " and the driver " +
                         *nv.driver_version + " (" + nv.driver_version_source + ")");
    f.evidence.push_back(
        "CDI is how podman (--device nvidia.com/gpu=all), Docker's CDI mode and Kubernetes' device plugin "
        "hand the GPU to a container; the spec is not rewritten when the driver is updated");
    f.fix_summary = "generate the spec again for the loaded driver";
    f.fix.push_back(FixAction::Bash("sudo nvidia-ctk cdi generate --output=" + spec.path));
    f.fix.push_back(FixAction::Bash("nvidia-ctk cdi list   # the devices the new spec names"));
    f.link = kCdi;
    out.push_back(std::move(f));
  }
}

// runtime.nvidia_library_mismatch: the loaded module and the installed libraries are different releases.
void NvidiaLibraryMismatch(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux) return;
  const NvidiaInfo& nv = ctx.snap.nvidia;
  if (!nv.driver_version || nv.driver_version_source != "/proc/driver/nvidia/version") return;
  const std::string& module = *nv.driver_version;
  const RuntimeInstall* other = nullptr;
  for (const RuntimeInstall& r : ctx.snap.runtimes)
    if (IsDriverLibrary(r) && r.version != module && (other == nullptr || r.kind == "libcuda")) other = &r;
  if (other == nullptr) return;
  const auto lib = Version::Parse(other->version), mod = Version::Parse(module);
  const bool libraries_newer = lib && mod && *lib > *mod;
  Finding f =
      MakeFinding("runtime.nvidia_library_mismatch", Layer::kRuntime, Severity::kError, "",
                  "NVIDIA's loaded kernel module is " + module + " but its libraries are " + other->version +
                      ": CUDA and nvidia-smi fail (\"Driver/library version mismatch\")");
  f.evidence.push_back("required one driver release, found the kernel module " + module +
                       " (/proc/driver/nvidia/version) and " +
                       (other->kind == "libcuda" ? "libcuda " : "NVML ") + other->version + " (" +
                       other->path + ")");
  if (libraries_newer) {
    f.evidence.push_back(
        "the libraries are newer: the driver was upgraded and the old module is still loaded");
    f.fix_summary = "reboot, so that the installed " + other->version + " module loads";
    f.fix.push_back(FixAction::Bash("sudo reboot"));
    f.alternatives.push_back(FixOption{
        "without a reboot, when no program uses the GPU (stop the display manager first on a desktop): "
        "unload the old module and load the new one",
        {FixAction::Bash("sudo rmmod nvidia_uvm nvidia_drm nvidia_modeset nvidia && sudo modprobe nvidia")},
        ""});
  } else {
    f.evidence.push_back(
        "the libraries are older than the module: an older driver's files are still installed beside it");
    f.fix_summary = "remove the older driver's libraries and reinstall one driver release";
    f.fix.push_back(FixAction::Manual("find the second install: " +
                                      std::string(DebianLike(ctx.snap.os.distro_id)
                                                      ? "dpkg -S " + other->path
                                                      : "rpm -qf " + other->path + " (or a .run install)")));
    f.fix.push_back(FixAction::Manual("remove it, reinstall the driver you want, then reboot"));
  }
  f.link = kNvmlErrors;
  out.push_back(std::move(f));
}

// Why an NVIDIA GPU has no driver bound, where /lib/modules and Secure Boot say: nullopt when they say
// nothing (the driver is simply not installed: runtime.driver_missing).
std::optional<Finding> NvidiaModuleNotLoaded(const RuleContext& ctx, const std::string& subject) {
  if (ctx.snap.nvidia.driver_version_source == "/proc/driver/nvidia/version") return std::nullopt;  // loaded
  const auto& kernels = ctx.snap.nvidia.module_kernels;
  const std::string& running = ctx.snap.os.kernel_release;
  if (!kernels || kernels->empty() || running.empty()) return std::nullopt;
  const std::string& distro = ctx.snap.os.distro_id;
  const bool built = std::find(kernels->begin(), kernels->end(), running) != kernels->end();
  if (!built) {
    std::string others;
    for (const std::string& k : *kernels) others += (others.empty() ? "" : ", ") + k;
    Finding f = MakeFinding("runtime.nvidia_module_not_built", Layer::kRuntime, Severity::kError, subject,
                            "The NVIDIA kernel module is built for " + others +
                                " but not for the running kernel " + running + ": no driver is loaded");
    f.evidence.push_back("required an nvidia.ko under /lib/modules/" + running + ", found one only for " +
                         others);
    f.evidence.push_back(
        "a kernel update whose module build failed (DKMS needs the new kernel's headers), or a driver "
        "installed "
        "for one kernel only (the runfile without DKMS)");
    f.fix_summary = "build the module for the running kernel, then reboot";
    if (distro == "fedora") {
      f.fix.push_back(FixAction::Bash("sudo akmods --force --kernels \"$(uname -r)\""));
    } else {
      if (DebianLike(distro)) f.fix.push_back(FixAction::Bash("sudo apt install linux-headers-$(uname -r)"));
      f.fix.push_back(FixAction::Bash("sudo dkms autoinstall -k \"$(uname -r)\""));
    }
    f.fix.push_back(FixAction::Manual("reboot, then check with: nvidia-smi"));
    f.alternatives.push_back(FixOption{"boot the older kernel the module is built for (" + kernels->back() +
                                           ") from the boot menu until the build works",
                                       {},
                                       ""});
    f.link = kDkms;
    return f;
  }
  if (ctx.snap.os.secure_boot != true) return std::nullopt;
  Finding f =
      MakeFinding("runtime.nvidia_module_refused", Layer::kRuntime, Severity::kError, subject,
                  "Secure Boot is on and the NVIDIA module is built but not loaded: the kernel refuses a "
                  "module signed with a key it does not trust");
  f.evidence.push_back("found an nvidia.ko for the running kernel " + running +
                       " and no /proc/driver/nvidia/version (not loaded); Secure Boot enforcing (efivarfs "
                       "SecureBoot variable)");
  f.evidence.push_back(
      "modprobe says \"Key was rejected by service\"; DKMS signs with the machine's own key (MOK), "
      "which must be enrolled once");
  f.fix_summary = "enroll the key DKMS signs with, then reboot and confirm it in the blue MOK Manager screen";
  AddDkmsKeyEnrollment(ctx, f);
  return f;
}

}  // namespace gpudoctor
