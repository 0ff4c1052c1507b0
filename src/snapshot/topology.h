// How the GPUs of one machine reach each other and the CPUs, as part of the Snapshot (Snapshot::topology):
// every GPU's place in the PCIe tree, its NUMA node and CPU affinity, and for every ordered pair of GPUs the
// link between them, named the way `nvidia-smi topo -m` names it (NV#, PIX, PXB, PHB, NODE, SYS) plus XGMI
// for AMD's GPU-to-GPU fabric. Plain data: topo/ fills it from sysfs, the KFD links and NVML; rules judge it,
// `topo` shows it and `fleet` compares it across nodes. Its JSON is snapshot/topology_json.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

// The closest way two GPUs reach each other, best first. The PCIe kinds follow NVML's
// nvmlGpuTopologyLevel_t (SINGLE, MULTIPLE, HOSTBRIDGE, NODE, SYSTEM) as nvidia-smi prints them.
enum class LinkKind {
  kSelf,     // X: the same GPU
  kNvLink,   // NV#: # NVLinks, direct or through NVSwitches
  kXgmi,     // XGMI: AMD Infinity Fabric between GPUs (KFD io_link or p2p_link of type 11)
  kPix,      // at most one PCIe switch between them
  kPxb,      // several PCIe switches, not through a host bridge
  kPhb,      // through a PCIe host bridge (the CPU's root complex)
  kNode,     // between host bridges of one NUMA node
  kSys,      // across NUMA nodes (the SMP interconnect: UPI, Infinity Fabric between sockets)
  kUnknown,  // nothing tells
};
const char* ToString(LinkKind kind);  // "X", "NV", "XGMI", "PIX", "PXB", "PHB", "NODE", "SYS", "?"
// The inverse for the PCIe kinds and X, XGMI, ?: "PIX" -> kPix; nullopt for anything else (NV# included).
std::optional<LinkKind> LinkKindFromString(const std::string& text);

// The AMD facts of one GPU pair, when the KFD topology names a path between their nodes.
struct KfdPath {
  std::string type;  // "xgmi" or "pcie"
  uint32_t hops = 0;
  std::optional<uint32_t> weight;
  std::optional<uint32_t> min_bandwidth_mbs;  // MB/s
  std::optional<uint32_t> max_bandwidth_mbs;
  std::string source;  // "io_links", "p2p_links", "io_links path"
};

// One GPU of the matrix: what the topology adds to the Snapshot's GPU of the same PCI address (its name,
// vendor and KFD / NVML indexes stay in Snapshot::gpus).
struct TopoGpu {
  std::string pci_address;  // normalized "0000:03:00.0"
  std::optional<int32_t> numa_node;
  std::string cpu_affinity;              // local_cpulist, as the kernel writes it ("0-47,96-143")
  std::vector<std::string> pci_bridges;  // host bridge ("pci0000:00") then each bridge down to the GPU
  uint32_t nvlinks_active = 0;
  uint32_t nvlinks_to_switch = 0;
};

// One cell of the matrix: how GPU a reaches GPU b.
struct TopoLink {
  LinkKind kind = LinkKind::kUnknown;
  uint32_t nvlinks = 0;                 // for kNvLink: the # of NV#
  LinkKind pcie = LinkKind::kUnknown;   // the PCIe relation alone (also when a faster fabric exists)
  std::string pcie_source;              // "nvml", "sysfs", "" when unknown
  std::optional<KfdPath> kfd;           // AMD
  std::optional<std::string> p2p_read;  // NVML P2P status: "ok", "not_supported", ... (recorded or live)
  std::optional<std::string> p2p_nvlink;
};

struct NumaNodeInfo {
  int32_t id = 0;
  std::string cpulist;  // "0-47,96-143"
};

struct Topology {
  std::vector<TopoGpu> gpus;                 // in the order of Snapshot::gpus (PCI order)
  std::vector<std::vector<TopoLink>> links;  // links[a][b], square, gpus.size() on each side
  std::vector<NumaNodeInfo> numa_nodes;
  std::vector<std::string> sources;   // what was read: "sysfs PCIe tree", "KFD io_links/p2p_links", "NVML"
  std::vector<std::string> warnings;  // unreadable or malformed inputs, one line each
};

// "NV18", "XGMI", "PIX", ...: the text of one matrix cell.
std::string CellLabel(const TopoLink& link);
// The inverse: kind and nvlinks from a cell's text; false when the text is no cell.
bool ParseCellLabel(const std::string& label, TopoLink& link);

}  // namespace gpudoctor
