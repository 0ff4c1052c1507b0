// Layer 1, hardware, the part about how the GPUs reach each other (Snapshot::topology, filled by topo/):
// GPUs of one XGMI hive with no XGMI path between them (a link down), and GPUs of one vendor spread over
// NUMA nodes with nothing but the CPUs' socket link between them. No topology (not probed, or a snapshot
// saved before it was part of the Snapshot): nothing to judge.
#include <map>
#include <set>

#include "rules/rule_context.h"

namespace gpudoctor {
namespace {

std::string GpuName(const Topology& t, size_t i) {
  return "GPU" + std::to_string(i) + " " + t.gpus[i].pci_address;
}

// The Snapshot's GPU at a topology GPU's address, nullptr when none.
const Gpu* SnapshotGpu(const Snapshot& s, const TopoGpu& g) {
  for (const auto& gpu : s.gpus)
    if (gpu.pci_address == g.pci_address) return &gpu;
  return nullptr;
}

// The KFD hive of a GPU: the same non-zero hive_id for every GPU of one XGMI hive (kfd_topology.c).
std::optional<uint64_t> HiveOf(const Snapshot& s, const TopoGpu& g) {
  const Gpu* gpu = SnapshotGpu(s, g);
  if (!gpu || !gpu->kfd_node) return std::nullopt;
  for (const auto& node : s.amd.kfd_nodes)
    if (node.node_id == *gpu->kfd_node && node.hive_id && *node.hive_id != 0) return node.hive_id;
  return std::nullopt;
}

std::string HowReached(const TopoLink& l) {
  std::string out = CellLabel(l);
  if (l.kfd) out += " (KFD: " + l.kfd->type + ", " + std::to_string(l.kfd->hops) + " hop(s))";
  return out;
}

void XgmiLinkDown(const RuleContext& ctx, const Topology& t, std::vector<Finding>& out) {
  std::vector<std::string> pairs;
  std::set<uint64_t> hives;
  for (size_t a = 0; a < t.gpus.size(); ++a) {
    auto hive = HiveOf(ctx.snap, t.gpus[a]);
    if (!hive) continue;
    for (size_t b = a + 1; b < t.gpus.size(); ++b) {
      if (HiveOf(ctx.snap, t.gpus[b]) != hive || t.links[a][b].kind == LinkKind::kXgmi) continue;
      hives.insert(*hive);
      pairs.push_back(GpuName(t, a) + " and " + GpuName(t, b) + " reach each other over " +
                      HowReached(t.links[a][b]));
    }
  }
  if (pairs.empty()) return;
  Finding f = MakeFinding("hardware.xgmi_link_down", Layer::kHardware, Severity::kWarning, "",
                          "GPUs of one XGMI hive without an XGMI path between them: a link is down");
  for (uint64_t hive : hives)
    f.evidence.push_back("required XGMI between every two GPUs of hive " + std::to_string(hive) +
                         " (the KFD topology's hive_id), found:");
  for (const auto& p : pairs) f.evidence.push_back(p);
  f.fix_summary =
      "look for XGMI errors in the kernel log and the link state, then power-cycle the node; a link that "
      "stays down is a hardware fault for the vendor";
  f.fix.push_back(FixAction::Bash("sudo dmesg | grep -i xgmi"));
  f.fix.push_back(FixAction::Bash("amd-smi xgmi"));
  f.fix.push_back(FixAction::Manual(
      "Power the node off and on (a cold reset retrains the links); if a link stays down, send "
      "`gpudoctor gather DIR` and the kernel log to the vendor."));
  f.link = "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdkfd/kfd_topology.c";
  out.push_back(std::move(f));
}

void GpusAcrossNumaNodes(const RuleContext& ctx, const Topology& t, std::vector<Finding>& out) {
  // Discrete GPUs of one vendor (the ones a job spreads over), by NUMA node.
  for (GpuVendor vendor : {GpuVendor::kAmd, GpuVendor::kNvidia}) {
    std::vector<size_t> gpus;
    for (size_t i = 0; i < t.gpus.size(); ++i) {
      const Gpu* g = SnapshotGpu(ctx.snap, t.gpus[i]);
      if (g && g->vendor == vendor && !g->integrated.value_or(false)) gpus.push_back(i);
    }
    std::vector<std::string> pairs;
    for (size_t x = 0; x < gpus.size(); ++x)
      for (size_t y = x + 1; y < gpus.size(); ++y)
        if (t.links[gpus[x]][gpus[y]].kind == LinkKind::kSys)
          pairs.push_back(GpuName(t, gpus[x]) + " and " + GpuName(t, gpus[y]));
    if (pairs.empty()) continue;
    std::map<int32_t, std::string> by_node;  // "GPU0, GPU1"
    for (size_t i : gpus) {
      if (!t.gpus[i].numa_node) continue;
      std::string& names = by_node[*t.gpus[i].numa_node];
      names += (names.empty() ? "GPU" : ", GPU") + std::to_string(i);
    }
    Finding f = MakeFinding("hardware.gpus_across_numa", Layer::kHardware, Severity::kInfo, "",
                            std::string(VendorLabel(vendor)) +
                                " GPUs on different NUMA nodes reach each other only through the CPUs' "
                                "socket link (SYS)");
    f.evidence.push_back(std::to_string(pairs.size()) +
                         " pair(s) with no NVLink or XGMI and PCIe across NUMA nodes, e.g. " + pairs.front());
    for (const auto& [node, names] : by_node)
      f.evidence.push_back("NUMA node " + std::to_string(node) + ": " + names);
    f.fix_summary = "give a job that needs fewer GPUs those of one NUMA node, and bind its CPU threads there";
    f.fix.push_back(FixAction::Manual(
        "List the GPUs of one NUMA node (above) in CUDA_VISIBLE_DEVICES or HIP_VISIBLE_DEVICES for jobs that "
        "fit on them, and start them under `numactl --cpunodebind=N --membind=N`."));
    f.fix.push_back(FixAction::Everywhere("gpudoctor topo"));
    f.link = "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-p2p-level";
    out.push_back(std::move(f));
  }
}

}  // namespace

std::vector<Finding> TopologyRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  if (!ctx.snap.topology) return out;
  const Topology& t = *ctx.snap.topology;
  if (t.links.size() != t.gpus.size()) return out;  // a saved file's matrix of another size: not judged
  XgmiLinkDown(ctx, t, out);
  GpusAcrossNumaNodes(ctx, t, out);
  return out;
}

}  // namespace gpudoctor
