// The file and library reads behind ReadTopologyInputs (see topology_probe.h); every malformed input is one
// warning line, never fatal.
#include "topo/topology_probe.h"

#include <algorithm>
#include <limits>

#include "core/pci_address.h"
#include "core/strings.h"
#include "probe/linux/kfd_parse.h"
#include "probe/linux/nvidia_record.h"
#include "probe/linux/sysfs_reader.h"
#include "topo/kfd_links.h"
#include "topo/nvml_topology.h"
#include "topo/pci_path.h"

namespace gpudoctor {
namespace {

constexpr const char* kKfdNodesDir = "/sys/class/kfd/kfd/topology/nodes";
constexpr const char* kNumaDir = "/sys/devices/system/node";
constexpr const char* kPciDevicesDir = "/sys/bus/pci/devices";
constexpr size_t kMaxLinksPerNode = 256;

std::vector<std::string> NumberedNames(const SysfsReader& r, const std::string& dir) {
  std::vector<std::pair<uint64_t, std::string>> found;
  if (auto names = r.List(dir)) {
    for (const auto& n : *names)
      if (auto v = ParseU64(n); v && Trim(n) == n) found.emplace_back(*v, n);
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> out;
  for (auto& f : found) out.push_back(std::move(f.second));
  return out;
}

void ReadKfdLinks(const SysfsReader& r, TopologyInputs& in) {
  size_t count = 0;
  for (const auto& node : NumberedNames(r, kKfdNodesDir)) {
    for (const char* kind : {"io_links", "p2p_links"}) {
      std::string dir = JoinPath(JoinPath(kKfdNodesDir, node), kind);
      auto links = NumberedNames(r, dir);
      for (size_t i = 0; i < links.size() && i < kMaxLinksPerNode; ++i) {
        std::string path = JoinPath(JoinPath(dir, links[i]), "properties");
        auto text = r.Required(path);
        if (!text) continue;
        KfdLinkParse parsed =
            KfdLinkFromProperties(ParseKfdProperties(*text), std::string(kind) == "p2p_links");
        for (size_t p = 0; p < parsed.problems.size() && p < 3; ++p) r.Warn(path, parsed.problems[p]);
        if (parsed.link) {
          in.kfd_links.push_back(*parsed.link);
          ++count;
        }
      }
    }
  }
  if (count > 0) in.sources.push_back("KFD io_links/p2p_links (" + std::to_string(count) + " links)");
}

void ReadNumaNodes(const SysfsReader& r, TopologyInputs& in) {
  auto names = r.List(kNumaDir);
  if (!names) return;
  for (const auto& name : *names) {
    if (!StartsWith(name, "node")) continue;
    auto id = ParseU64(std::string_view(name).substr(4));
    if (!id || *id > static_cast<uint64_t>(std::numeric_limits<int32_t>::max())) continue;
    NumaNodeInfo node;
    node.id = static_cast<int32_t>(*id);
    if (auto text = r.Optional(JoinPath(JoinPath(kNumaDir, name), "cpulist")))
      node.cpulist = std::string(Trim(*text));
    in.numa_nodes.push_back(std::move(node));
  }
  std::sort(in.numa_nodes.begin(), in.numa_nodes.end(),
            [](const NumaNodeInfo& a, const NumaNodeInfo& b) { return a.id < b.id; });
}

void ReadNvml(const ProbeContext& ctx, const SysfsReader& r, TopologyInputs& in) {
  bool nvidia = std::any_of(in.gpus.begin(), in.gpus.end(),
                            [](const Gpu& g) { return g.vendor == GpuVendor::kNvidia; });
  if (!nvidia) return;
  if (ctx.live) {
    in.nvml = QueryNvmlTopologyLive(in.warnings);
    if (in.nvml.present) in.sources.push_back("NVML (NVLink, common ancestors, P2P status)");
    return;
  }
  auto text = r.Optional(kRecordedNvmlFile, 16 << 20);
  if (!text) {
    in.warnings.push_back("no recorded NVML answers (.gpudoctor/nvml.json): NVLink links unknown");
    return;
  }
  auto record = ParseNvmlTopologyJson(*text);
  if (!record.ok()) {
    r.Warn(kRecordedNvmlFile, record.error().message);
    return;
  }
  for (const auto& p : record->problems) r.Warn(kRecordedNvmlFile, p);
  if (!record->present)
    in.warnings.push_back(std::string(kRecordedNvmlFile) +
                          " holds no topology (recorded by an older gpudoctor): NVLink links unknown");
  else
    in.sources.push_back("NVML answers recorded in .gpudoctor/nvml.json");
  in.nvml = std::move(record).value();
}

}  // namespace

TopologyInputs ReadTopologyInputs(const ProbeContext& ctx, const Snapshot& snap) {
  TopologyInputs in;
  in.gpus = snap.gpus;
  SysfsReader r(ctx.fs, in.warnings);
  for (const auto& d : snap.pci_devices)
    if (d.numa_node && *d.numa_node >= 0) in.numa_by_address[NormalizePciAddress(d.address)] = *d.numa_node;
  in.pci_chains = IndexPciTree(ctx.fs, in.warnings);
  if (!in.pci_chains.empty()) in.sources.push_back("sysfs PCIe tree (/sys/devices/pci*)");
  for (const auto& g : in.gpus) {
    std::string address = NormalizePciAddress(g.pci_address);
    if (auto text = r.Optional(JoinPath(JoinPath(kPciDevicesDir, address), "local_cpulist")))
      in.cpu_affinity[address] = std::string(Trim(*text));
  }
  ReadKfdLinks(r, in);
  ReadNumaNodes(r, in);
  ReadNvml(ctx, r, in);
  return in;
}

}  // namespace gpudoctor
