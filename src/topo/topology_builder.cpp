// The pair-by-pair rules of BuildTopology (see topology_builder.h).
#include "topo/topology_builder.h"

#include <algorithm>
#include <set>

#include "core/pci_address.h"
#include "topo/kfd_links.h"
#include "topo/pci_path.h"

namespace gpudoctor {
namespace {

const NvmlDeviceLinks* FindLinks(const NvmlTopologyRecord& nvml, const std::string& address) {
  for (const auto& d : nvml.devices)
    if (d.pci_address == address) return &d;
  return nullptr;
}

const NvmlPairRecord* FindPair(const NvmlTopologyRecord& nvml, const std::string& a, const std::string& b) {
  for (const auto& p : nvml.pairs)
    if ((p.a == a && p.b == b) || (p.a == b && p.b == a)) return &p;
  return nullptr;
}

// A link whose far end is an NVSwitch: NVML says so, or (older NVML without the device type) the far end is
// a PCI address that belongs to no GPU.
bool ToSwitch(const NvLinkRecord& l, const std::set<std::string>& gpu_addresses) {
  if (!l.active) return false;
  if (l.remote_type == "switch") return true;
  if (!l.remote_type.empty() && l.remote_type != "unknown") return false;
  return !l.remote_pci_address.empty() && !gpu_addresses.count(l.remote_pci_address);
}

uint32_t DirectLinks(const NvmlDeviceLinks* links, const std::string& to) {
  if (!links) return 0;
  return static_cast<uint32_t>(
      std::count_if(links->nvlinks.begin(), links->nvlinks.end(), [&](const NvLinkRecord& l) {
        return l.active && l.remote_pci_address == to && l.remote_type != "switch";
      }));
}

std::optional<int32_t> NumaOf(const TopologyInputs& in, const std::string& address) {
  auto it = in.numa_by_address.find(address);
  if (it == in.numa_by_address.end()) return std::nullopt;
  return it->second;
}

TopoLink BuildPair(const TopologyInputs& in, const Topology& t, size_t a, size_t b,
                   const std::vector<const NvmlDeviceLinks*>& nvlinks) {
  TopoLink link;
  const TopoGpu& ga = t.gpus[a];
  const TopoGpu& gb = t.gpus[b];
  if (a == b) {
    link.kind = link.pcie = LinkKind::kSelf;
    return link;
  }
  // PCIe: NVML's answer when it has one, else the sysfs tree.
  const NvmlPairRecord* pair = FindPair(in.nvml, ga.pci_address, gb.pci_address);
  if (pair && pair->common_ancestor != LinkKind::kUnknown) {
    link.pcie = pair->common_ancestor;
    link.pcie_source = "nvml";
  } else {
    link.pcie = ClassifyPcie(ga.pci_bridges, gb.pci_bridges, ga.numa_node, gb.numa_node);
    if (link.pcie != LinkKind::kUnknown) link.pcie_source = "sysfs";
  }
  if (pair) {
    if (auto it = pair->p2p.find("read"); it != pair->p2p.end()) link.p2p_read = it->second;
    if (auto it = pair->p2p.find("nvlink"); it != pair->p2p.end()) link.p2p_nvlink = it->second;
  }
  link.kind = link.pcie;
  // NVLink: direct links, plus the switch path (every NVSwitch of the fabric is taken as reachable).
  uint32_t nv = DirectLinks(nvlinks[a], gb.pci_address);
  if (ga.nvlinks_to_switch > 0 && gb.nvlinks_to_switch > 0)
    nv += std::min(ga.nvlinks_to_switch, gb.nvlinks_to_switch);
  if (nv > 0) {
    link.kind = LinkKind::kNvLink;
    link.nvlinks = nv;
    return link;
  }
  // AMD: the KFD path between the two GPU nodes.
  const Gpu& ka = in.gpus[a];
  const Gpu& kb = in.gpus[b];
  if (ka.kfd_node && kb.kfd_node) {
    link.kfd = KfdPathBetween(in.kfd_links, *ka.kfd_node, *kb.kfd_node);
    if (link.kfd && link.kfd->type == "xgmi") link.kind = LinkKind::kXgmi;
  }
  return link;
}

}  // namespace

Topology BuildTopology(const TopologyInputs& in) {
  Topology t;
  t.numa_nodes = in.numa_nodes;
  t.sources = in.sources;
  t.warnings = in.warnings;
  std::set<std::string> addresses;
  for (const auto& g : in.gpus) addresses.insert(NormalizePciAddress(g.pci_address));
  std::vector<const NvmlDeviceLinks*> nvlinks;
  for (const auto& g : in.gpus) {
    TopoGpu tg;
    tg.pci_address = NormalizePciAddress(g.pci_address);
    tg.numa_node = NumaOf(in, tg.pci_address);
    if (auto it = in.cpu_affinity.find(tg.pci_address); it != in.cpu_affinity.end())
      tg.cpu_affinity = it->second;
    if (auto it = in.pci_chains.find(tg.pci_address); it != in.pci_chains.end()) tg.pci_bridges = it->second;
    const NvmlDeviceLinks* links = FindLinks(in.nvml, tg.pci_address);
    if (links) {
      for (const auto& l : links->nvlinks) {
        if (l.active) ++tg.nvlinks_active;
        if (ToSwitch(l, addresses)) ++tg.nvlinks_to_switch;
      }
    }
    nvlinks.push_back(links);
    t.gpus.push_back(std::move(tg));
  }
  t.links.assign(t.gpus.size(), std::vector<TopoLink>(t.gpus.size()));
  for (size_t a = 0; a < t.gpus.size(); ++a)
    for (size_t b = 0; b < t.gpus.size(); ++b) t.links[a][b] = BuildPair(in, t, a, b, nvlinks);
  return t;
}

}  // namespace gpudoctor
