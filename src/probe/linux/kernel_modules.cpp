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

// `file` is `module`'s kernel module file: "nvidia" -> nvidia.ko, optionally compressed (.xz, .zst, .gz).
bool IsModuleFileOf(std::string_view file, std::string_view module) {
  if (!StartsWith(file, module)) return false;
  const std::string_view suffix = file.substr(module.size());
  return suffix == ".ko" || suffix == ".ko.xz" || suffix == ".ko.zst" || suffix == ".ko.gz";
}

bool FolderHasModule(const ProbeContext& ctx, const std::string& folder, std::string_view module) {
  auto entries = ctx.fs.ListDir(folder);
  return entries.ok() && std::any_of(entries->begin(), entries->end(),
                                     [&](const std::string& e) { return IsModuleFileOf(e, module); });
}

bool KernelHasNvidiaModule(const ProbeContext& ctx, const std::string& kernel_dir) {
  for (const char* sub : kModuleFolders)
    if (FolderHasModule(ctx, JoinPath(kernel_dir, sub), "nvidia")) return true;
  // Ubuntu's prebuilt modules: kernel/nvidia-570/nvidia.ko (and -open, -server flavours).
  auto kernel = ctx.fs.ListDir(JoinPath(kernel_dir, "kernel"));
  if (!kernel.ok()) return false;
  for (const std::string& e : *kernel)
    if (StartsWith(e, "nvidia") &&
        FolderHasModule(ctx, JoinPath(JoinPath(kernel_dir, "kernel"), e), "nvidia"))
      return true;
  return false;
}

// The installed kernels: the releases under the first of /lib/modules and /usr/lib/modules that lists.
struct InstalledKernels {
  std::string root;
  std::vector<std::string> releases;
};

std::optional<InstalledKernels> ListInstalledKernels(const ProbeContext& ctx, Snapshot& snap) {
  for (const char* root : {"/lib/modules", "/usr/lib/modules"}) {
    snap.looked_at.push_back(root);
    auto kernels = ctx.fs.ListDir(root);
    if (kernels.ok()) return InstalledKernels{root, std::move(*kernels)};
  }
  return std::nullopt;
}

// The kernels with an amdgpu module: the kernel's own (kernel/drivers/gpu/drm/amd/amdgpu; on Ubuntu it
// comes in linux-modules-extra-<release>) or amdgpu-dkms's (updates/dkms, which modprobe prefers).
void ReadAmdgpuModules(const ProbeContext& ctx, const InstalledKernels& kernels, Snapshot& snap) {
  std::vector<std::string> with_module, dkms;
  for (const std::string& k : kernels.releases) {
    const std::string dir = JoinPath(kernels.root, k);
    const bool from_dkms = FolderHasModule(ctx, JoinPath(dir, "updates/dkms"), "amdgpu");
    if (from_dkms) dkms.push_back(k);
    if (from_dkms || FolderHasModule(ctx, JoinPath(dir, "kernel/drivers/gpu/drm/amd/amdgpu"), "amdgpu"))
      with_module.push_back(k);
  }
  std::sort(with_module.begin(), with_module.end());
  std::sort(dkms.begin(), dkms.end());
  snap.amd.module_kernels = std::move(with_module);
  snap.amd.dkms_module_kernels = std::move(dkms);
}

void ReadNvidiaModules(const ProbeContext& ctx, const InstalledKernels& kernels, Snapshot& snap) {
  std::vector<std::string> with_module;
  for (const std::string& k : kernels.releases)
    if (KernelHasNvidiaModule(ctx, JoinPath(kernels.root, k))) with_module.push_back(k);
  std::sort(with_module.begin(), with_module.end());
  snap.nvidia.module_kernels = std::move(with_module);
}

}  // namespace

std::optional<bool> ParseSecureBootVariable(std::string_view bytes) {
  if (bytes.size() != 5) return std::nullopt;
  const auto value = static_cast<unsigned char>(bytes[4]);
  if (value > 1) return std::nullopt;
  return value == 1;
}

bool IsNvidiaModuleFile(std::string_view file) {
  return IsModuleFileOf(file, "nvidia");
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
  const bool nvidia = std::any_of(snap.pci_devices.begin(), snap.pci_devices.end(),
                                  [](const PciDevice& d) { return d.vendor_id == 0x10de; });
  if (!amd && !nvidia) return;
  auto kernels = ListInstalledKernels(ctx, snap);
  if (!kernels) return;
  if (amd) ReadAmdgpuModules(ctx, *kernels, snap);
  if (nvidia) ReadNvidiaModules(ctx, *kernels, snap);
}

}  // namespace gpudoctor
