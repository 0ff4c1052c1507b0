// The recorded NVML topology (the "topology" member of nvml.json): writer and reader, with nlohmann/json;
// every exception stays inside this file.
#include "topo/nvml_topology.h"

#include <exception>
#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/pci_address.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

constexpr size_t kMaxDevices = 1024;
constexpr size_t kMaxLinks = 64;
constexpr size_t kMaxPairs = 1024 * 1024;
constexpr const char* kP2PCapabilities[] = {"read", "write", "nvlink", "atomics"};

std::optional<LinkKind> KindFromLabel(const std::string& s) {
  for (LinkKind k : {LinkKind::kPix, LinkKind::kPxb, LinkKind::kPhb, LinkKind::kNode, LinkKind::kSys})
    if (s == ToString(k)) return k;
  return std::nullopt;
}

std::string Address(const Json& obj, const char* key, const std::string& where,
                    std::vector<std::string>& problems) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_string()) {
    problems.push_back(where + key + " is not a string; ignored");
    return {};
  }
  std::string normalized = NormalizeNvidiaBusId(it->get<std::string>());
  if (normalized.empty()) problems.push_back(where + key + " is not a PCI address; ignored");
  return normalized;
}

std::string ShortString(const Json& obj, const char* key) {
  auto it = obj.find(key);
  if (it == obj.end() || !it->is_string()) return {};
  return it->get<std::string>().substr(0, 64);
}

void ReadDevices(const Json& arr, NvmlTopologyRecord& out) {
  for (size_t i = 0; i < arr.size() && i < kMaxDevices; ++i) {
    const Json& d = arr[i];
    std::string where = "topology.devices[" + std::to_string(i) + "].";
    if (!d.is_object()) {
      out.problems.push_back(where + " is not an object; skipped");
      continue;
    }
    NvmlDeviceLinks dev;
    dev.pci_address = Address(d, "pci_address", where, out.problems);
    if (dev.pci_address.empty()) continue;
    auto links = d.find("nvlinks");
    if (links != d.end() && links->is_array()) {
      for (size_t j = 0; j < links->size() && j < kMaxLinks; ++j) {
        const Json& l = (*links)[j];
        std::string lw = where + "nvlinks[" + std::to_string(j) + "].";
        auto link = l.is_object() ? l.find("link") : l.end();
        if (!l.is_object() || link == l.end() || !link->is_number_unsigned() ||
            link->get<uint64_t>() >= kMaxLinks) {
          out.problems.push_back(lw + " has no link number; skipped");
          continue;
        }
        NvLinkRecord r;
        r.link = link->get<uint32_t>();
        auto active = l.find("active");
        r.active = active != l.end() && active->is_boolean() && active->get<bool>();
        r.remote_pci_address = Address(l, "remote_pci_address", lw, out.problems);
        r.remote_type = ShortString(l, "remote_type");
        dev.nvlinks.push_back(std::move(r));
      }
    }
    out.devices.push_back(std::move(dev));
  }
}

void ReadPairs(const Json& arr, NvmlTopologyRecord& out) {
  for (size_t i = 0; i < arr.size() && i < kMaxPairs; ++i) {
    const Json& p = arr[i];
    std::string where = "topology.pairs[" + std::to_string(i) + "].";
    if (!p.is_object()) {
      out.problems.push_back(where + " is not an object; skipped");
      continue;
    }
    NvmlPairRecord r;
    r.a = Address(p, "a", where, out.problems);
    r.b = Address(p, "b", where, out.problems);
    if (r.a.empty() || r.b.empty()) continue;
    std::string ancestor = ShortString(p, "common_ancestor");
    if (auto k = KindFromLabel(ancestor)) {
      r.common_ancestor = *k;
    } else if (!ancestor.empty()) {
      out.problems.push_back(where + "common_ancestor \"" + ancestor +
                             "\" is not PIX, PXB, PHB, NODE or SYS");
    }
    for (const char* cap : kP2PCapabilities) {
      std::string v = ShortString(p, (std::string("p2p_") + cap).c_str());
      if (!v.empty()) r.p2p[cap] = v;
    }
    out.pairs.push_back(std::move(r));
  }
}

}  // namespace

LinkKind PcieKindFromNvmlLevel(int level) {
  switch (level) {
    case 0:   // NVML_TOPOLOGY_INTERNAL
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

std::string NvmlP2PStatusName(int status) {
  switch (status) {
    case 0:
      return "ok";
    case 1:
      return "chipset_not_supported";
    case 2:
      return "gpu_not_supported";
    case 3:
      return "topology_not_supported";
    case 4:
      return "disabled_by_regkey";
    case 5:
      return "not_supported";
    default:
      return "unknown";
  }
}

Result<NvmlTopologyRecord> ParseNvmlTopologyJson(std::string_view nvml_json) {
  try {
    Json doc = ParseJsonWithinDepth<Json>(nvml_json);
    if (doc.is_discarded()) return EnvError("not valid JSON");
    if (!doc.is_object()) return EnvError("the top level is not a JSON object");
    NvmlTopologyRecord out;
    auto topo = doc.find("topology");
    if (topo == doc.end() || topo->is_null()) return out;
    if (!topo->is_object()) {
      out.problems.push_back("topology is not an object; ignored");
      return out;
    }
    out.present = true;
    if (auto d = topo->find("devices"); d != topo->end() && d->is_array()) ReadDevices(*d, out);
    if (auto p = topo->find("pairs"); p != topo->end() && p->is_array()) ReadPairs(*p, out);
    return out;
  } catch (const std::exception& e) {
    return EnvError(std::string("unreadable: ") + e.what());
  }
}

std::string AddNvmlTopologyToJson(std::string_view nvml_json, const NvmlTopologyRecord& record) {
  Json doc = ParseJsonWithinDepth<Json>(nvml_json);
  if (doc.is_discarded() || !doc.is_object()) doc = Json::object();
  Json devices = Json::array();
  for (const auto& d : record.devices) {
    Json links = Json::array();
    for (const auto& l : d.nvlinks) {
      links.push_back(
          {{"link", l.link},
           {"active", l.active},
           {"remote_pci_address", l.remote_pci_address.empty() ? Json(nullptr) : Json(l.remote_pci_address)},
           {"remote_type", l.remote_type.empty() ? Json(nullptr) : Json(l.remote_type)}});
    }
    devices.push_back({{"pci_address", d.pci_address}, {"nvlinks", std::move(links)}});
  }
  Json pairs = Json::array();
  for (const auto& p : record.pairs) {
    Json j = {{"a", p.a}, {"b", p.b}};
    j["common_ancestor"] =
        p.common_ancestor == LinkKind::kUnknown ? Json(nullptr) : Json(ToString(p.common_ancestor));
    for (const auto& [cap, status] : p.p2p) j["p2p_" + cap] = status;
    pairs.push_back(std::move(j));
  }
  doc["topology"] = {{"devices", std::move(devices)}, {"pairs", std::move(pairs)}};
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
