// The merged GPU list: PCI functions are the identity, KFD nodes and NVML devices enrich them by
// PCI address, and any KFD or NVML device the PCI walk missed is kept rather than lost.
#include "probe/common/gpu_merge.h"

#include <algorithm>
#include <set>

#include "core/pci_address.h"

namespace gpudoctor {
namespace {

void EnrichFromKfd(const KfdNode& node, Gpu& gpu) {
  gpu.architecture = node.gfx_target;
  gpu.compute_units = node.compute_units;
  if (node.vram_bytes && *node.vram_bytes > 0) gpu.vram_bytes = node.vram_bytes;
  gpu.kfd_node = node.node_id;
  // A GPU node with CPU cores is an APU, whatever the PCI side guessed.
  if (node.cpu_cores_count && *node.cpu_cores_count > 0) gpu.integrated = true;
}

void EnrichFromNvml(const NvidiaDevice& dev, Gpu& gpu) {
  if (dev.cc_major && dev.cc_minor) gpu.architecture = NvidiaArchitectureName(*dev.cc_major, *dev.cc_minor);
  if (dev.memory_total_bytes) gpu.vram_bytes = dev.memory_total_bytes;
  gpu.nvml_index = dev.index;
  // The driver's own name is what nvidia-smi and torch.cuda.get_device_name() show, and it tells
  // board variants apart that a PCI id lookup cannot, so it beats any name database.
  if (!dev.name.empty()) gpu.name = dev.name;
}

Gpu GpuFromPci(const PciDevice& d) {
  Gpu gpu;
  gpu.pci_address = NormalizePciAddress(d.address);
  gpu.vendor = GpuVendorFromPciId(d.vendor_id);
  gpu.name = d.name;
  gpu.integrated = d.integrated;
  gpu.vram_bytes = d.drm_vram_total_bytes;
  gpu.driver = d.driver;
  return gpu;
}

Gpu GpuFromKfdOnly(const KfdNode& node) {
  Gpu gpu;
  gpu.pci_address = node.pci_address;
  gpu.vendor = node.vendor_id ? GpuVendorFromPciId(*node.vendor_id) : GpuVendor::kAmd;
  gpu.driver = "amdgpu";  // KFD is part of amdgpu
  EnrichFromKfd(node, gpu);
  return gpu;
}

Gpu GpuFromNvmlOnly(const NvidiaDevice& dev) {
  Gpu gpu;
  gpu.pci_address = NormalizePciAddress(dev.pci_address);
  gpu.vendor = GpuVendor::kNvidia;
  gpu.driver = "nvidia";  // NVML answers only through the nvidia driver
  gpu.integrated = false;
  EnrichFromNvml(dev, gpu);
  return gpu;
}

bool IsGpuVendor(GpuVendor v) {
  return v == GpuVendor::kAmd || v == GpuVendor::kNvidia || v == GpuVendor::kIntel;
}

}  // namespace

std::string NvidiaArchitectureName(uint32_t major, uint32_t minor) {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::vector<Gpu> MergeGpus(const Snapshot& snapshot) {
  std::vector<Gpu> gpus;
  std::set<size_t> used_kfd;
  std::set<size_t> used_nvml;
  std::set<std::string> pci_addresses;

  for (const PciDevice& d : snapshot.pci_devices) {
    Gpu gpu = GpuFromPci(d);
    if (!IsGpuVendor(gpu.vendor)) continue;
    if (!pci_addresses.insert(gpu.pci_address).second) continue;  // a duplicate entry
    for (size_t i = 0; i < snapshot.amd.kfd_nodes.size(); ++i) {
      const KfdNode& node = snapshot.amd.kfd_nodes[i];
      if (node.pci_address.empty() || NormalizePciAddress(node.pci_address) != gpu.pci_address) continue;
      // Partitioned accelerators (MI300X in CPX mode) show several nodes on one address: the first wins.
      if (!gpu.kfd_node) EnrichFromKfd(node, gpu);
      used_kfd.insert(i);
    }
    for (size_t i = 0; i < snapshot.nvidia.devices.size(); ++i) {
      const NvidiaDevice& dev = snapshot.nvidia.devices[i];
      if (NormalizePciAddress(dev.pci_address) != gpu.pci_address) continue;
      if (!gpu.nvml_index) EnrichFromNvml(dev, gpu);
      used_nvml.insert(i);
    }
    gpus.push_back(std::move(gpu));
  }

  for (size_t i = 0; i < snapshot.amd.kfd_nodes.size(); ++i) {
    if (used_kfd.count(i)) continue;
    Gpu gpu = GpuFromKfdOnly(snapshot.amd.kfd_nodes[i]);
    // Later partitions of an unmatched accelerator: keep one GPU per address.
    if (!gpu.pci_address.empty() && !pci_addresses.insert(gpu.pci_address).second) continue;
    gpus.push_back(std::move(gpu));
  }
  for (size_t i = 0; i < snapshot.nvidia.devices.size(); ++i) {
    if (used_nvml.count(i)) continue;
    Gpu gpu = GpuFromNvmlOnly(snapshot.nvidia.devices[i]);
    if (!gpu.pci_address.empty() && !pci_addresses.insert(gpu.pci_address).second) continue;
    gpus.push_back(std::move(gpu));
  }

  std::stable_sort(gpus.begin(), gpus.end(), [](const Gpu& a, const Gpu& b) {
    return PciAddressTextLess(a.pci_address, b.pci_address);
  });
  return gpus;
}

}  // namespace gpudoctor
