// The topology of one machine as `gpudoctor topo` shows it: every GPU with its PCI path, NUMA node and CPU
// affinity, and for every pair of GPUs the link between them, named the way `nvidia-smi topo -m` names it
// (NV#, PIX, PXB, PHB, NODE, SYS) plus XGMI for AMD's GPU-to-GPU fabric. Plain data; built by
// topology_builder.h, rendered by topology_report.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "snapshot/snapshot.h"

namespace gpudoctor {

// `topo --json` names its document "gpudoctor.topo", version 1, bumped on any incompatible change
// (docs/topo.md).
inline constexpr const char* kTopologySchema = "gpudoctor.topo";
inline constexpr int kTopologySchemaVersion = 1;

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

// The PCIe relation of two devices from their sysfs paths and NUMA nodes (see pci_path.h).
LinkKind PcieKindFromNvmlLevel(int nvml_level);  // 10 -> PIX ... 50 -> SYS; other -> kUnknown

// One link of the AMD KFD topology (nodes/N/io_links/M or p2p_links/M), as the kernel exports it.
struct KfdLink {
  uint32_t node_from = 0;
  uint32_t node_to = 0;
  uint32_t type = 0;  // CRAT_IOLINK_TYPE_*: 2 PCIe, 11 XGMI
  std::optional<uint32_t> weight;
  std::optional<uint32_t> min_latency_ns;
  std::optional<uint32_t> max_latency_ns;
  std::optional<uint32_t> min_bandwidth_mbs;  // MB/s
  std::optional<uint32_t> max_bandwidth_mbs;
  std::optional<uint32_t> flags;
  bool peer_to_peer = false;  // from p2p_links (GPU to GPU, possibly indirect) rather than io_links
};

// The AMD facts of one GPU pair, when the KFD topology names a path between their nodes.
struct KfdPath {
  std::string type;  // "xgmi" or "pcie"
  uint32_t hops = 0;
  std::optional<uint32_t> weight;
  std::optional<uint32_t> min_bandwidth_mbs;
  std::optional<uint32_t> max_bandwidth_mbs;
  std::string source;  // "io_links", "p2p_links", "io_links path"
};

struct TopoGpu {
  std::string pci_address;
  GpuVendor vendor = GpuVendor::kUnknown;
  std::string name;
  std::optional<uint32_t> kfd_node;
  std::optional<uint32_t> nvml_index;
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
  std::string host_name;
  std::string sysroot = "/";
  bool live_machine = true;
  std::vector<TopoGpu> gpus;
  std::vector<std::vector<TopoLink>> links;  // links[a][b], square, gpus.size() on each side
  std::vector<NumaNodeInfo> numa_nodes;
  std::vector<std::string> sources;   // what was read: "sysfs PCI paths", "KFD io_links", "NVML (recorded)"
  std::vector<std::string> warnings;  // unreadable or malformed inputs, one line each
};

}  // namespace gpudoctor
