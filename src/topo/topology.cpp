// Names of the link kinds, as `nvidia-smi topo -m` prints the PCIe ones.
#include "topo/topology.h"

namespace gpudoctor {

const char* ToString(LinkKind kind) {
  switch (kind) {
    case LinkKind::kSelf:
      return "X";
    case LinkKind::kNvLink:
      return "NV";
    case LinkKind::kXgmi:
      return "XGMI";
    case LinkKind::kPix:
      return "PIX";
    case LinkKind::kPxb:
      return "PXB";
    case LinkKind::kPhb:
      return "PHB";
    case LinkKind::kNode:
      return "NODE";
    case LinkKind::kSys:
      return "SYS";
    case LinkKind::kUnknown:
      return "?";
  }
  return "?";
}

LinkKind PcieKindFromNvmlLevel(int level) {
  switch (level) {
    case 0:   // NVML_TOPOLOGY_INTERNAL: two GPUs of one board, behind the board's own switch
    case 10:  // NVML_TOPOLOGY_SINGLE
      return LinkKind::kPix;
    case 20:
      return LinkKind::kPxb;  // NVML_TOPOLOGY_MULTIPLE
    case 30:
      return LinkKind::kPhb;  // NVML_TOPOLOGY_HOSTBRIDGE
    case 40:
      return LinkKind::kNode;  // NVML_TOPOLOGY_NODE
    case 50:
      return LinkKind::kSys;  // NVML_TOPOLOGY_SYSTEM
    default:
      return LinkKind::kUnknown;
  }
}

}  // namespace gpudoctor
