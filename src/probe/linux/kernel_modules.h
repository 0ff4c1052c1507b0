// The kernel side of the NVIDIA and AMD drivers as it lies on disk, for the driver-stack checks: whether
// UEFI Secure Boot is enforcing (which makes the kernel refuse a module not signed with an enrolled key:
// DKMS builds are signed with the machine's own MOK, which must be enrolled), and which installed kernels
// have an NVIDIA or amdgpu module file (a kernel upgrade whose DKMS build failed leaves the new kernel
// without one; Ubuntu ships the kernel's own amdgpu in a separate package).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The EFI variable SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c as efivarfs gives it: 4 bytes of
// attributes, then one byte, 1 when Secure Boot is enforcing. nullopt for anything else.
std::optional<bool> ParseSecureBootVariable(std::string_view bytes);

// Whether `file` is an NVIDIA core module file: nvidia.ko, optionally compressed (.xz, .zst, .gz).
bool IsNvidiaModuleFile(std::string_view file);

// Fills snap.os.secure_boot from /sys/firmware/efi/efivars and, outside WSL, from /lib/modules (or
// /usr/lib/modules): snap.nvidia.module_kernels on a machine with an NVIDIA PCI device, and
// snap.amd.module_kernels / dkms_module_kernels (the kernel's own amdgpu.ko or amdgpu-dkms's) on one with
// an AMD GPU. Linux only, after the PCI probe; reads directory listings, never a module.
void ProbeKernelModules(const ProbeContext& ctx, Snapshot& snap);

}  // namespace gpudoctor
