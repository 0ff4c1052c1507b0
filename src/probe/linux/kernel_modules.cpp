// Secure Boot's state and the kernels with an NVIDIA module (see kernel_modules.h). The module folders are
// where the packages put them: DKMS's updates/dkms (Debian, Ubuntu, Arch), extra (akmods on Fedora,
// RHEL's kmods), kernel/drivers/video (the runfile installer's default), and Ubuntu's prebuilt
// linux-modules-nvidia-NNN packages under kernel/nvidia-NNN.
#include "probe/linux/kernel_modules.h"

#include <algorithm>
#include <array>

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kSecureBootVariable =
    "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c";
constexpr std::array<const char*, 5> kModuleFolders = {"updates/dkms", "updates", "extra",
                                                       "kernel/drivers/video", "misc"};

bool FolderHasNvidiaModule(const ProbeContext& ctx, const std::string& folder) {
  auto entries = ctx.fs.ListDir(folder);
  if (!entries.ok()) return false;
  return std::any_of(entries->begin(), entries->end(),
                     [](const std::string& e) { return IsNvidiaModuleFile(e); });
}

bool KernelHasNvidiaModule(const ProbeContext& ctx, const std::string& kernel_dir) {
  for (const char* sub : kModuleFolders)
    if (FolderHasNvidiaModule(ctx, JoinPath(kernel_dir, sub))) return true;
  // Ubuntu's prebuilt modules: kernel/nvidia-570/nvidia.ko (and -open, -server flavours).
  auto kernel = ctx.fs.ListDir(JoinPath(kernel_dir, "kernel"));
  if (!kernel.ok()) return false;
  for (const std::string& e : *kernel)
    if (StartsWith(e, "nvidia") && FolderHasNvidiaModule(ctx, JoinPath(JoinPath(kernel_dir, "kernel"), e)))
      return true;
  return false;
}

bool IsAmdgpuModuleFile(std::string_view file) {
  for (const char* name : {"amdgpu.ko", "amdgpu.ko.xz", "amdgpu.ko.zst", "amdgpu.ko.gz"})
    if (file == name) return true;
  return false;
}

bool FolderHasAmdgpuModule(const ProbeContext& ctx, const std::string& folder) {
  auto entries = ctx.fs.ListDir(folder);
  return entries.ok() && std::any_of(entries->begin(), entries->end(),
                                     [](const std::string& e) { return IsAmdgpuModuleFile(e); });
}

// The kernels with an amdgpu module: the kernel's own (kernel/drivers/gpu/drm/amd/amdgpu; on Ubuntu it
// comes in linux-modules-extra-<release>) or amdgpu-dkms's (updates/dkms, which modprobe prefers).
void ProbeAmdgpuModules(const ProbeContext& ctx, Snapshot& snap) {
  for (const char* root : {"/lib/modules", "/usr/lib/modules"}) {
    snap.looked_at.push_back(root);
    auto kernels = ctx.fs.ListDir(root);
    if (!kernels.ok()) continue;
    std::vector<std::string> with_module, dkms;
    for (const std::string& k : *kernels) {
      const std::string dir = JoinPath(root, k);
      const bool from_dkms = FolderHasAmdgpuModule(ctx, JoinPath(dir, "updates/dkms"));
      if (from_dkms) dkms.push_back(k);
      if (from_dkms || FolderHasAmdgpuModule(ctx, JoinPath(dir, "kernel/drivers/gpu/drm/amd/amdgpu")))
        with_module.push_back(k);
    }
    std::sort(with_module.begin(), with_module.end());
    std::sort(dkms.begin(), dkms.end());
    snap.amd.module_kernels = std::move(with_module);
    snap.amd.dkms_module_kernels = std::move(dkms);
    return;
  }
}

}  // namespace

std::optional<bool> ParseSecureBootVariable(std::string_view bytes) {
  if (bytes.size() != 5) return std::nullopt;
  const auto value = static_cast<unsigned char>(bytes[4]);
  if (value > 1) return std::nullopt;
  return value == 1;
}

bool IsNvidiaModuleFile(std::string_view file) {
  for (const char* name : {"nvidia.ko", "nvidia.ko.xz", "nvidia.ko.zst", "nvidia.ko.gz"})
    if (file == name) return true;
  return false;
}

void ProbeKernelModules(const ProbeContext& ctx, Snapshot& snap) {
  snap.looked_at.push_back(kSecureBootVariable);
  if (ctx.fs.Exists(kSecureBootVariable)) {
    auto bytes = ctx.fs.ReadFile(kSecureBootVariable, 64);
    if (bytes.ok()) snap.os.secure_boot = ParseSecureBootVariable(*bytes);
    if (!bytes.ok() || !snap.os.secure_boot)
      snap.warnings.push_back(std::string(kSecureBootVariable) + ": not the 5 bytes efivarfs gives");
  }  // no variable: legacy BIOS, or efivarfs not mounted (a container): unknown, never "off"
  if (snap.os.wsl) return;  // WSL's GPU driver is the Windows host's
  const bool amd = std::any_of(snap.pci_devices.begin(), snap.pci_devices.end(), [](const PciDevice& d) {
    // a display controller or an accelerator (Instinct), not one of AMD's bridges or audio functions
    return d.vendor_id == 0x1002 && ((d.class_code >> 16) == 0x03 || (d.class_code >> 16) == 0x12);
  });
  if (amd) ProbeAmdgpuModules(ctx, snap);
  const bool nvidia = std::any_of(snap.pci_devices.begin(), snap.pci_devices.end(),
                                  [](const PciDevice& d) { return d.vendor_id == 0x10de; });
  if (!nvidia) return;
  for (const char* root : {"/lib/modules", "/usr/lib/modules"}) {
    snap.looked_at.push_back(root);
    auto kernels = ctx.fs.ListDir(root);
    if (!kernels.ok()) continue;
    std::vector<std::string> with_module;
    for (const std::string& k : *kernels)
      if (KernelHasNvidiaModule(ctx, JoinPath(root, k))) with_module.push_back(k);
    std::sort(with_module.begin(), with_module.end());
    snap.nvidia.module_kernels = std::move(with_module);
    return;
  }
}

}  // namespace gpudoctor
