// The integrated-vs-discrete verdict: a table of APU ids first, then the hints the driver exposes.
#include "probe/linux/integrated_gpu.h"

#include <array>

#include "core/strings.h"

namespace gpudoctor {
namespace {

struct ApuId {
  uint32_t device_id;
  const char* codename;
};

// source: libdrm amdgpu.ids and pci.ids via knowledge-facts 1.2 (chip column).
constexpr std::array kAmdApus = {
    ApuId{0x15BF, "Phoenix"},       ApuId{0x15C8, "Phoenix2"},    ApuId{0x1900, "Hawk Point"},
    ApuId{0x1901, "Hawk Point2"},   ApuId{0x150E, "Strix Point"}, ApuId{0x1586, "Strix Halo"},
    ApuId{0x1114, "Krackan"},       ApuId{0x1902, "Krackan2"},    ApuId{0x164E, "Raphael"},
    ApuId{0x13C0, "Granite Ridge"}, ApuId{0x1506, "Mendocino"},   ApuId{0x1681, "Rembrandt"},
    ApuId{0x163F, "Van Gogh"},      ApuId{0x1636, "Renoir"},      ApuId{0x1638, "Cezanne"},
    ApuId{0x15E7, "Barcelo"},       ApuId{0x164C, "Lucienne"},    ApuId{0x15DD, "Raven"},
    ApuId{0x15D8, "Picasso"},
};

const ApuId* FindApu(uint32_t device_id) {
  for (const auto& a : kAmdApus)
    if (a.device_id == device_id) return &a;
  return nullptr;
}

constexpr uint64_t kGiB = 1024ull * 1024 * 1024;

}  // namespace

bool IsKnownAmdApuDeviceId(uint32_t device_id) {
  return FindApu(device_id) != nullptr;
}

IntegratedVerdict ClassifyIntegrated(const IntegratedEvidence& e) {
  const std::string id = Hex(e.vendor_id, 4) + ":" + Hex(e.device_id, 4);
  if (e.vendor_id == 0x10de) {
    // Tegra/Jetson iGPUs are platform devices, not PCI functions: a GPU on PCI is a discrete card.
    return {false, "NVIDIA GPU on the PCI bus (" + id + "): discrete"};
  }
  if (e.vendor_id == 0x8086) {
    // Intel's integrated graphics sits at 00:02.0 on every generation; Arc cards sit behind a bridge.
    if (e.pci_address.size() >= 7 && EndsWith(e.pci_address, ":00:02.0"))
      return {true, "Intel GPU at 00:02.0, the integrated graphics slot"};
    return {std::nullopt, ""};
  }
  if (e.vendor_id != 0x1002) return {std::nullopt, ""};

  if (const ApuId* apu = FindApu(e.device_id))
    return {true, "device " + id + " is the " + std::string(apu->codename) + " APU's graphics"};
  if (e.kfd_cpu_cores && *e.kfd_cpu_cores > 0)
    return {true, "its KFD node has " + std::to_string(*e.kfd_cpu_cores) + " CPU cores (an APU)"};
  if (e.has_vram_vendor) return {false, "mem_info_vram_vendor present (dedicated memory chips)"};
  if (e.has_board_info) return {false, "board_info present (an add-in board)"};
  if (e.vram_total_bytes && e.gtt_total_bytes) {
    uint64_t vram = *e.vram_total_bytes;
    uint64_t gtt = *e.gtt_total_bytes;
    std::string sizes = "VRAM " + FormatBytes(vram) + ", GTT " + FormatBytes(gtt);
    bool small_carve_out = vram <= 4 * kGiB;
    bool gtt_dominates = gtt >= 8 * kGiB && (vram == 0 || gtt / 4 >= vram);
    if (small_carve_out && gtt_dominates)
      return {true, sizes + ": a small carve-out beside a large GTT (an APU)"};
    return {false, sizes + ": dedicated VRAM"};
  }
  return {std::nullopt, ""};
}

}  // namespace gpudoctor
