// Integrated (APU, shares system memory) or discrete GPU: it decides which memory pool a framework
// gets and which ROCm support rows apply, so each verdict carries the evidence that decided it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpudoctor {

struct IntegratedEvidence {
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::string pci_address;                   // "0000:00:02.0"
  std::optional<uint64_t> vram_total_bytes;  // DRM mem_info_vram_total
  std::optional<uint64_t> gtt_total_bytes;   // DRM mem_info_gtt_total
  bool has_vram_vendor = false;              // mem_info_vram_vendor present (dGPU memory chips)
  bool has_board_info = false;               // board_info present (Instinct boards)
  std::optional<uint32_t> kfd_cpu_cores;     // cpu_cores_count of the GPU's KFD node
};

struct IntegratedVerdict {
  std::optional<bool> integrated;  // empty when the evidence does not tell
  std::string reason;
};

// Order: known APU device ids; KFD node with CPU cores; dGPU-only DRM files; the memory-size
// heuristic ollama uses (VRAM <= 4 GiB, GTT >= 8 GiB and GTT >= 4 x VRAM). NVIDIA on PCI: discrete.
IntegratedVerdict ClassifyIntegrated(const IntegratedEvidence& evidence);

// True for AMD device ids of APUs (integrated Radeon graphics), knowledge-facts 1.1/1.2.
bool IsKnownAmdApuDeviceId(uint32_t device_id);

}  // namespace gpudoctor
