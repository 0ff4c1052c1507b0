// Snapshot::topology <-> JSON. Optional values become null; reading tolerates missing keys and names the
// first field of a wrong type (core/json_reader.h), as snapshot_json.cpp does for the rest.
#include "snapshot/topology_json.h"

#include "snapshot/json_optional.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

// A GPU matrix is at most this wide: more than any machine has, few enough that a hostile file cannot ask
// for a matrix of gigabytes.
constexpr size_t kMaxGpus = 1024;

Json TopoGpuToJson(const TopoGpu& g) {
  return Json{{"pci_address", g.pci_address},
              {"numa_node", OptionalToJson(g.numa_node)},
              {"cpu_affinity", g.cpu_affinity.empty() ? Json(nullptr) : Json(g.cpu_affinity)},
              {"pci_bridges", g.pci_bridges},
              {"nvlinks_active", g.nvlinks_active},
              {"nvlinks_to_switch", g.nvlinks_to_switch}};
}

Json TopoKfdToJson(const std::optional<KfdPath>& p) {
  if (!p) return nullptr;
  return Json{{"type", p->type},
              {"hops", p->hops},
              {"weight", OptionalToJson(p->weight)},
              {"min_bandwidth_mbs", OptionalToJson(p->min_bandwidth_mbs)},
              {"max_bandwidth_mbs", OptionalToJson(p->max_bandwidth_mbs)},
              {"source", p->source}};
}

// A string member that may be null or absent.
std::optional<std::string> OptionalString(const JsonReader& r, const char* key) {
  const JsonValue* v = r.Find(key, false);
  if (!v || v->is_null()) return std::nullopt;
  std::string text;
  r.String(key, text);
  return r.ok() ? std::optional(text) : std::nullopt;
}

void ReadTopoGpu(const JsonReader& r, TopoGpu& g) {
  r.String("pci_address", g.pci_address, /*required=*/true);
  r.OptionalIntegerAs("numa_node", g.numa_node);
  r.String("cpu_affinity", g.cpu_affinity);
  r.Strings("pci_bridges", g.pci_bridges);
  r.IntegerAs("nvlinks_active", g.nvlinks_active);
  r.IntegerAs("nvlinks_to_switch", g.nvlinks_to_switch);
}

void ReadTopoKfd(const JsonReader& r, KfdPath& p) {
  r.String("type", p.type);
  r.IntegerAs("hops", p.hops);
  r.OptionalIntegerAs("weight", p.weight);
  r.OptionalIntegerAs("min_bandwidth_mbs", p.min_bandwidth_mbs);
  r.OptionalIntegerAs("max_bandwidth_mbs", p.max_bandwidth_mbs);
  r.String("source", p.source);
}

void ReadTopoLink(const JsonReader& r, Topology& t) {
  size_t a = 0, b = 0;
  r.IntegerAs("a", a, /*required=*/true);
  r.IntegerAs("b", b, /*required=*/true);
  if (!r.ok()) return;
  if (a >= t.gpus.size() || b >= t.gpus.size() || a == b)
    return r.Fail(r.path(),
                  "a and b must be two different GPU indexes below " + std::to_string(t.gpus.size()));
  TopoLink link;
  std::string label;
  r.String("label", label, /*required=*/true);
  if (r.ok() && !ParseCellLabel(label, link))
    return r.Fail(r.PathOf("label"),
                  "\"" + label + "\" is not a cell (NV#, XGMI, PIX, PXB, PHB, NODE, SYS, ?)");
  r.Enum("pcie", link.pcie, LinkKindFromString, "PIX, PXB, PHB, NODE, SYS or null");
  r.String("pcie_source", link.pcie_source);
  if (const JsonValue* kfd = r.Object("kfd", false)) {
    KfdPath p;
    ReadTopoKfd(JsonReader(*kfd, r.PathOf("kfd"), r.error()), p);
    link.kfd = p;
  }
  link.p2p_read = OptionalString(r, "p2p_read");
  link.p2p_nvlink = OptionalString(r, "p2p_nvlink");
  if (r.ok()) t.links[a][b] = std::move(link);
}

}  // namespace

const char* LinkKindJsonName(LinkKind kind) {
  switch (kind) {
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

Json TopologyLinkToJson(const TopoLink& l, size_t a, size_t b) {
  return Json{{"a", a},
              {"b", b},
              {"label", CellLabel(l)},
              {"kind", LinkKindJsonName(l.kind)},
              {"nvlinks", l.nvlinks},
              {"pcie", l.pcie == LinkKind::kUnknown ? Json(nullptr) : Json(ToString(l.pcie))},
              {"pcie_source", l.pcie_source.empty() ? Json(nullptr) : Json(l.pcie_source)},
              {"kfd", TopoKfdToJson(l.kfd)},
              {"p2p_read", OptionalToJson(l.p2p_read)},
              {"p2p_nvlink", OptionalToJson(l.p2p_nvlink)}};
}

Json TopologyToJson(const Topology& t) {
  Json gpus = Json::array();
  for (const auto& g : t.gpus) gpus.push_back(TopoGpuToJson(g));
  Json links = Json::array();
  for (size_t a = 0; a < t.links.size(); ++a)
    for (size_t b = 0; b < t.links[a].size(); ++b)
      if (a != b) links.push_back(TopologyLinkToJson(t.links[a][b], a, b));
  Json numa = Json::array();
  for (const auto& n : t.numa_nodes) numa.push_back(Json{{"id", n.id}, {"cpulist", n.cpulist}});
  return Json{{"gpus", std::move(gpus)},
              {"links", std::move(links)},
              {"numa_nodes", std::move(numa)},
              {"sources", t.sources},
              {"warnings", t.warnings}};
}

void TopologyFromJson(const JsonValue& object, Topology& t, std::string& error) {
  if (!object.is_object()) {
    if (error.empty())
      error = "snapshot.topology: expected an object, found " + std::string(JsonTypeName(object));
    return;
  }
  JsonReader r(object, "snapshot.topology", &error);
  if (const JsonValue* gpus = r.Array("gpus", false); gpus && gpus->size() > kMaxGpus)
    return r.Fail(r.PathOf("gpus"), "more than " + std::to_string(kMaxGpus) + " GPUs");
  r.ForEachObject("gpus", false, [&](const JsonReader& g) {
    TopoGpu gpu;
    ReadTopoGpu(g, gpu);
    t.gpus.push_back(std::move(gpu));
  });
  if (!r.ok()) return;
  t.links.assign(t.gpus.size(), std::vector<TopoLink>(t.gpus.size()));
  for (size_t i = 0; i < t.gpus.size(); ++i) t.links[i][i].kind = t.links[i][i].pcie = LinkKind::kSelf;
  r.ForEachObject("links", false, [&](const JsonReader& l) { ReadTopoLink(l, t); });
  r.ForEachObject("numa_nodes", false, [&](const JsonReader& n) {
    NumaNodeInfo node;
    n.IntegerAs("id", node.id, /*required=*/true);
    n.String("cpulist", node.cpulist);
    t.numa_nodes.push_back(std::move(node));
  });
  r.Strings("sources", t.sources);
  r.Strings("warnings", t.warnings);
}

}  // namespace gpudoctor
