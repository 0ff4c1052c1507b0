// Text and JSON of a Topology (see topology_report.h).
#include "topo/topology_report.h"

#include <nlohmann/json.hpp>

#include "core/pci_address.h"
#include "core/text_table.h"
#include "snapshot/topology_json.h"
#include "topo/topology.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

std::string GpuLabel(size_t i) {
  return "GPU" + std::to_string(i);
}

// Only the kinds that occur, in the order of the legend.
std::string Legend(const Topology& t) {
  bool seen[9] = {};
  for (const auto& row : t.links)
    for (const auto& l : row) seen[static_cast<int>(l.kind)] = true;
  struct Line {
    LinkKind kind;
    const char* label;
    const char* text;
  };
  const Line lines[] = {
      {LinkKind::kSelf, "X", "the GPU itself"},
      {LinkKind::kNvLink, "NV#", "NVLink: # links, directly or through NVSwitches"},
      {LinkKind::kXgmi, "XGMI", "AMD Infinity Fabric (XGMI) between the GPUs"},
      {LinkKind::kPix, "PIX", "PCIe through at most one PCIe switch"},
      {LinkKind::kPxb, "PXB", "PCIe through several PCIe switches, not through a host bridge"},
      {LinkKind::kPhb, "PHB", "PCIe through a PCIe host bridge (the CPU's root complex)"},
      {LinkKind::kNode, "NODE", "PCIe and the link between host bridges of one NUMA node"},
      {LinkKind::kSys, "SYS", "PCIe and the link between NUMA nodes (UPI, socket-to-socket Infinity Fabric)"},
      {LinkKind::kUnknown, "?", "not known (no PCIe tree, KFD or NVML answer for the pair)"},
  };
  std::string out = "Legend:\n";
  for (const auto& l : lines)
    if (seen[static_cast<int>(l.kind)])
      out += "  " + std::string(l.label) + std::string(6 - std::string(l.label).size(), ' ') + "= " + l.text +
             "\n";
  return out;
}

std::string Bandwidth(const KfdPath& p) {
  if (!p.min_bandwidth_mbs && !p.max_bandwidth_mbs) return "n/a";
  auto v = [](const std::optional<uint32_t>& x) { return x ? std::to_string(*x) : std::string("n/a"); };
  return v(p.min_bandwidth_mbs) + "-" + v(p.max_bandwidth_mbs) + " MB/s";
}

Json Opt(const std::optional<uint32_t>& v) {
  return v ? Json(*v) : Json(nullptr);
}

// The Snapshot's GPU at a topology GPU's address (name, vendor, KFD and NVML indexes); an empty one when a
// saved file lists a GPU twice or not at all.
const Gpu& SnapshotGpu(const Snapshot& s, const TopoGpu& g) {
  static const Gpu kNone;
  for (const auto& gpu : s.gpus)
    if (NormalizePciAddress(gpu.pci_address) == g.pci_address) return gpu;
  return kNone;
}

const Topology& TopologyOf(const Snapshot& s) {
  static const Topology kEmpty;
  return s.topology ? *s.topology : kEmpty;
}

}  // namespace

std::string RenderTopologyText(const Snapshot& s, bool links) {
  const Topology& t = TopologyOf(s);
  std::string out;
  if (!s.live_machine) out += "Not this machine: read from " + s.sysroot + "\n\n";
  if (t.gpus.empty()) return out + "No GPU found.\n";
  TextTable gpus({"GPU", "PCI", "Name"});
  for (size_t i = 0; i < t.gpus.size(); ++i)
    gpus.AddRow({GpuLabel(i), t.gpus[i].pci_address, SnapshotGpu(s, t.gpus[i]).name});
  out += gpus.Render("") + "\n";

  std::vector<std::string> header = {""};
  for (size_t i = 0; i < t.gpus.size(); ++i) header.push_back(GpuLabel(i));
  header.push_back("CPU Affinity");
  header.push_back("NUMA Affinity");
  TextTable matrix(header);
  for (size_t a = 0; a < t.gpus.size(); ++a) {
    std::vector<std::string> row = {GpuLabel(a)};
    for (size_t b = 0; b < t.gpus.size(); ++b) row.push_back(CellLabel(t.links[a][b]));
    row.push_back(t.gpus[a].cpu_affinity.empty() ? "n/a" : t.gpus[a].cpu_affinity);
    row.push_back(t.gpus[a].numa_node ? std::to_string(*t.gpus[a].numa_node) : "n/a");
    matrix.AddRow(std::move(row));
  }
  out += matrix.Render("") + "\n" + Legend(t);

  if (!t.numa_nodes.empty()) {
    out += "\nNUMA nodes:\n";
    for (const auto& n : t.numa_nodes)
      out += "  node " + std::to_string(n.id) + ": CPUs " + (n.cpulist.empty() ? "n/a" : n.cpulist) + "\n";
  }
  if (links) {
    TextTable details({"From", "To", "Link", "PCIe", "KFD type", "Hops", "Weight", "Bandwidth", "P2P read"});
    for (size_t a = 0; a < t.gpus.size(); ++a) {
      for (size_t b = 0; b < t.gpus.size(); ++b) {
        if (a == b) continue;
        const TopoLink& l = t.links[a][b];
        details.AddRow({GpuLabel(a), GpuLabel(b), CellLabel(l), ToString(l.pcie), l.kfd ? l.kfd->type : "n/a",
                        l.kfd ? std::to_string(l.kfd->hops) : "n/a",
                        l.kfd && l.kfd->weight ? std::to_string(*l.kfd->weight) : "n/a",
                        l.kfd ? Bandwidth(*l.kfd) : "n/a", l.p2p_read.value_or("n/a")});
      }
    }
    out += "\nLinks:\n" + details.Render("  ");
  }
  if (!t.sources.empty()) {
    out += "\nRead from: ";
    for (size_t i = 0; i < t.sources.size(); ++i) out += (i ? "; " : "") + t.sources[i];
    out += "\n";
  }
  return out;
}

std::string RenderTopologyJson(const Snapshot& s) {
  const Topology& t = TopologyOf(s);
  Json doc = Json::object();
  doc["schema"] = kTopologySchema;
  doc["schema_version"] = kTopologySchemaVersion;
  doc["host_name"] = s.host_name;
  doc["sysroot"] = s.sysroot;
  doc["live_machine"] = s.live_machine;
  Json gpus = Json::array();
  for (size_t i = 0; i < t.gpus.size(); ++i) {
    const TopoGpu& g = t.gpus[i];
    const Gpu& known = SnapshotGpu(s, g);
    gpus.push_back({{"index", i},
                    {"pci_address", g.pci_address},
                    {"vendor", ToString(known.vendor)},
                    {"name", known.name},
                    {"kfd_node", Opt(known.kfd_node)},
                    {"nvml_index", Opt(known.nvml_index)},
                    {"numa_node", g.numa_node ? Json(*g.numa_node) : Json(nullptr)},
                    {"cpu_affinity", g.cpu_affinity.empty() ? Json(nullptr) : Json(g.cpu_affinity)},
                    {"pci_bridges", g.pci_bridges},
                    {"nvlinks_active", g.nvlinks_active},
                    {"nvlinks_to_switch", g.nvlinks_to_switch}});
  }
  doc["gpus"] = std::move(gpus);
  Json matrix = Json::array();
  Json links = Json::array();
  for (size_t a = 0; a < t.links.size(); ++a) {
    Json row = Json::array();
    for (size_t b = 0; b < t.links[a].size(); ++b) {
      const TopoLink& l = t.links[a][b];
      row.push_back(CellLabel(l));
      if (a == b) continue;
      Json j = TopologyLinkToJson(l, a, b);  // the Snapshot's own form of a link
      links.push_back(std::move(j));
    }
    matrix.push_back(std::move(row));
  }
  doc["matrix"] = std::move(matrix);
  doc["links"] = std::move(links);
  Json numa = Json::array();
  for (const auto& n : t.numa_nodes) numa.push_back({{"id", n.id}, {"cpulist", n.cpulist}});
  doc["numa_nodes"] = std::move(numa);
  doc["sources"] = t.sources;
  doc["warnings"] = t.warnings;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
