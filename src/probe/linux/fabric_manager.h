// NVIDIA Fabric Manager on an NVSwitch system, as the disk shows it (issue 29's driver-stack model). On
// HGX/DGX A100, H100, H200 and B200 boards the GPUs reach each other through NVSwitches, and CUDA fails with
// error 802 "system not yet initialized" until nv-fabricmanager, of exactly the driver's version, has set
// them up; Blackwell's fourth-generation NVSwitches also need the NVLink Subnet Manager (nvlsm). Nothing
// is started: the binary, the systemd unit and its enablement link, and the dpkg database are read.
#pragma once

#include <cstdint>
#include <string_view>

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Whether a PCI function is an NVSwitch: NVIDIA's vendor id and class 0x0680xx (bridge, other).
bool IsNvSwitchPciFunction(uint32_t vendor_id, uint32_t class_code);

// Whether a dpkg package name is Fabric Manager itself: "nvidia-fabricmanager" or
// "nvidia-fabricmanager-NNN" (not the -dev package nor the cuda-drivers-fabricmanager meta-package).
bool IsFabricManagerPackage(std::string_view name);

// Counts the NVSwitches under /sys/bus/pci/devices and, where there is one, fills
// snap.nvidia.fabric_manager. Linux hosts with an NVIDIA PCI device only (not WSL, whose GPU driver is the
// Windows host's); after the PCI probe.
void ProbeFabricManager(const ProbeContext& ctx, Snapshot& snap);

}  // namespace gpudoctor
