// Text and JSON of a Topology (see topology_report.h).
#include "topo/topology_report.h"

#include <nlohmann/json.hpp>

#include "core/text_table.h"
#include "topo/topology_builder.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

std::string GpuLabel(size_t i) {
  return "GPU" + std::to_string(i);
}

std::string KindName(LinkKind k) {
  switch (k) {
    case LinkKind::kSelf:
      return "self";
    case LinkKind::kNvLink:
      return "nvlink";
    case LinkKind::kXgmi:
      return "xgmi";
    case LinkKind::kUnknown:
      return "unknown";
    default:
      return "pcie";
  }
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

}  // namespace

std::string RenderTopologyText(const Topology& t, bool links) {
  std::string out;
  if (!t.live_machine) out += "Not this machine: read from " + t.sysroot + "\n\n";
  if (t.gpus.empty()) return out + "No GPU found.\n";
  TextTable gpus({"GPU", "PCI", "Name"});
  for (size_t i = 0; i < t.gpus.size(); ++i)
    gpus.AddRow({GpuLabel(i), t.gpus[i].pci_address, t.gpus[i].name});
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

std::string RenderTopologyJson(const Topology& t) {
  Json doc = Json::object();
  doc["schema"] = kTopologySchema;
  doc["schema_version"] = kTopologySchemaVersion;
  doc["host_name"] = t.host_name;
  doc["sysroot"] = t.sysroot;
  doc["live_machine"] = t.live_machine;
  Json gpus = Json::array();
  for (size_t i = 0; i < t.gpus.size(); ++i) {
    const TopoGpu& g = t.gpus[i];
    gpus.push_back({{"index", i},
                    {"pci_address", g.pci_address},
                    {"vendor", ToString(g.vendor)},
                    {"name", g.name},
                    {"kfd_node", Opt(g.kfd_node)},
                    {"nvml_index", Opt(g.nvml_index)},
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
      Json j = {
          {"a", a}, {"b", b}, {"label", CellLabel(l)}, {"kind", KindName(l.kind)}, {"nvlinks", l.nvlinks}};
      j["pcie"] = l.pcie == LinkKind::kUnknown ? Json(nullptr) : Json(ToString(l.pcie));
      j["pcie_source"] = l.pcie_source.empty() ? Json(nullptr) : Json(l.pcie_source);
      if (l.kfd) {
        j["kfd"] = {{"type", l.kfd->type},
                    {"hops", l.kfd->hops},
                    {"weight", Opt(l.kfd->weight)},
                    {"min_bandwidth_mbs", Opt(l.kfd->min_bandwidth_mbs)},
                    {"max_bandwidth_mbs", Opt(l.kfd->max_bandwidth_mbs)},
                    {"source", l.kfd->source}};
      } else {
        j["kfd"] = nullptr;
      }
      j["p2p_read"] = l.p2p_read ? Json(*l.p2p_read) : Json(nullptr);
      j["p2p_nvlink"] = l.p2p_nvlink ? Json(*l.p2p_nvlink) : Json(nullptr);
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
