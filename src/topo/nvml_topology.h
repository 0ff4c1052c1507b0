// What NVML says about how the NVIDIA GPUs are wired: each GPU's NVLinks (state, the PCI address and kind of
// the device at the other end) and, for each pair, the PCIe common ancestor and the P2P status. `gather`
// records it as the "topology" member of .gpudoctor/nvml.json, so a recorded machine carries it; the reader
// here is the same for the recorded file and for what the live query returns. Never throws.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "topo/topology.h"

namespace gpudoctor {

struct NvLinkRecord {
  uint32_t link = 0;
  bool active = false;
  std::string remote_pci_address;  // normalized; "" when NVML gave none
  std::string remote_type;         // "gpu", "switch", "ibmnpu", "unknown"; "" when not asked
};

struct NvmlDeviceLinks {
  std::string pci_address;
  std::vector<NvLinkRecord> nvlinks;
};

struct NvmlPairRecord {
  std::string a, b;  // PCI addresses
  LinkKind common_ancestor = LinkKind::kUnknown;
  // NVML P2P status by capability ("read", "write", "nvlink", "atomics"): "ok", "chipset_not_supported",
  // "gpu_not_supported", "topology_not_supported", "disabled_by_regkey", "not_supported", "unknown".
  std::map<std::string, std::string> p2p;
};

struct NvmlTopologyRecord {
  bool present = false;  // the answers were there (recorded or queried)
  std::vector<NvmlDeviceLinks> devices;
  std::vector<NvmlPairRecord> pairs;
  std::vector<std::string> problems;  // fields skipped for a wrong type or value
};

// Reads the "topology" member of an nvml.json text; present = false when there is none. An error only when
// the text is not a JSON object.
Result<NvmlTopologyRecord> ParseNvmlTopologyJson(std::string_view nvml_json);

// `nvml_json` (an object, as NvidiaAnswersToJson writes it) with the "topology" member set to `record`.
std::string AddNvmlTopologyToJson(std::string_view nvml_json, const NvmlTopologyRecord& record);

// NVML's nvmlGpuTopologyLevel_t as a PCIe link kind: 0 (INTERNAL: two GPUs of one board, behind the board's
// own switch) and 10 (SINGLE) -> PIX, 20 -> PXB, 30 -> PHB, 40 -> NODE, 50 -> SYS; other -> kUnknown.
LinkKind PcieKindFromNvmlLevel(int nvml_level);

// nvmlGpuP2PStatus_t (nvml.h) as the names above.
std::string NvmlP2PStatusName(int status);

// Asks the live NVML (loaded at run time); present = false when NVML is absent or has no GPU. Problems go
// to `warnings`.
NvmlTopologyRecord QueryNvmlTopologyLive(std::vector<std::string>& warnings);
// The same with the NVML files to try (full paths or names for the system loader); tests name a stand-in.
NvmlTopologyRecord QueryNvmlTopologyLive(std::vector<std::string>& warnings,
                                         const std::vector<std::string>& nvml_candidates);

}  // namespace gpudoctor
