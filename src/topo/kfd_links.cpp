// KFD link properties into KfdLink values, and the path search between two nodes (see kfd_links.h).
#include "topo/kfd_links.h"

#include <deque>
#include <limits>
#include <map>

namespace gpudoctor {
namespace {

constexpr size_t kMaxChainLinks = 8;

std::optional<uint32_t> Get32(const KfdProperties& p, const char* key, std::vector<std::string>& problems) {
  auto v = p.Get(key);
  if (!v) return std::nullopt;
  if (*v > std::numeric_limits<uint32_t>::max()) {
    problems.push_back(std::string(key) + ": out of range (" + std::to_string(*v) + ")");
    return std::nullopt;
  }
  return static_cast<uint32_t>(*v);
}

// 0 is what the kernel writes for "not known" in the bandwidth and latency fields.
std::optional<uint32_t> NonZero(std::optional<uint32_t> v) {
  if (v && *v == 0) return std::nullopt;
  return v;
}

std::optional<uint32_t> SumWeights(std::optional<uint32_t> a, std::optional<uint32_t> b) {
  if (!a || !b) return std::nullopt;
  uint64_t s = uint64_t{*a} + *b;
  if (s > std::numeric_limits<uint32_t>::max()) return std::nullopt;
  return static_cast<uint32_t>(s);
}

std::optional<uint32_t> Narrowest(std::optional<uint32_t> a, std::optional<uint32_t> b) {
  if (!a || !b) return std::nullopt;
  return *a < *b ? a : b;
}

KfdPath DirectPath(const KfdLink& l, const char* source) {
  KfdPath p;
  p.type = KfdLinkTypeName(l.type);
  p.hops = 1;
  p.weight = l.weight;
  p.min_bandwidth_mbs = l.min_bandwidth_mbs;
  p.max_bandwidth_mbs = l.max_bandwidth_mbs;
  p.source = source;
  return p;
}

// Shortest chain of io_links (fewest links) from `from` to `to`, as the links in order.
std::optional<std::vector<const KfdLink*>> ShortestChain(const std::vector<KfdLink>& links, uint32_t from,
                                                         uint32_t to) {
  std::map<uint32_t, const KfdLink*> reached_by;  // node -> the link that first reached it
  std::deque<std::pair<uint32_t, size_t>> queue{{from, 0}};
  reached_by[from] = nullptr;
  while (!queue.empty()) {
    auto [node, depth] = queue.front();
    queue.pop_front();
    if (node == to) break;
    if (depth >= kMaxChainLinks) continue;
    for (const auto& l : links) {
      if (l.peer_to_peer || l.node_from != node || reached_by.count(l.node_to)) continue;
      reached_by[l.node_to] = &l;
      queue.emplace_back(l.node_to, depth + 1);
    }
  }
  if (!reached_by.count(to) || from == to) return std::nullopt;
  std::vector<const KfdLink*> chain;
  for (uint32_t node = to; node != from;) {
    const KfdLink* l = reached_by.at(node);
    chain.insert(chain.begin(), l);
    node = l->node_from;
  }
  return chain;
}

}  // namespace

std::string KfdLinkTypeName(uint32_t type) {
  if (type == kKfdLinkPcie) return "pcie";
  if (type == kKfdLinkXgmi) return "xgmi";
  return "type " + std::to_string(type);
}

KfdLinkParse KfdLinkFromProperties(const KfdProperties& p, bool peer_to_peer) {
  KfdLinkParse out;
  out.problems = p.problems;
  auto type = Get32(p, "type", out.problems);
  auto from = Get32(p, "node_from", out.problems);
  auto to = Get32(p, "node_to", out.problems);
  if (!type || !from || !to) {
    out.problems.push_back("no type, node_from or node_to");
    return out;
  }
  KfdLink l;
  l.type = *type;
  l.node_from = *from;
  l.node_to = *to;
  l.weight = Get32(p, "weight", out.problems);
  l.min_latency_ns = NonZero(Get32(p, "min_latency", out.problems));
  l.max_latency_ns = NonZero(Get32(p, "max_latency", out.problems));
  l.min_bandwidth_mbs = NonZero(Get32(p, "min_bandwidth", out.problems));
  l.max_bandwidth_mbs = NonZero(Get32(p, "max_bandwidth", out.problems));
  l.flags = Get32(p, "flags", out.problems);
  l.peer_to_peer = peer_to_peer;
  out.link = l;
  return out;
}

std::optional<KfdPath> KfdPathBetween(const std::vector<KfdLink>& links, uint32_t from, uint32_t to) {
  if (from == to) return std::nullopt;
  for (const auto& l : links)
    if (!l.peer_to_peer && l.node_from == from && l.node_to == to) return DirectPath(l, "io_links");
  auto chain = ShortestChain(links, from, to);
  for (const auto& l : links) {
    if (!l.peer_to_peer || l.node_from != from || l.node_to != to) continue;
    KfdPath p = DirectPath(l, "p2p_links");
    // A PCIe peer link goes through the CPU nodes the io_links name; XGMI ones are direct.
    if (l.type != kKfdLinkXgmi) p.hops = chain ? static_cast<uint32_t>(chain->size()) : 2;
    return p;
  }
  if (!chain) return std::nullopt;
  KfdPath p;
  p.type = "xgmi";
  p.hops = static_cast<uint32_t>(chain->size());
  p.source = "io_links path";
  p.weight = chain->front()->weight;
  p.min_bandwidth_mbs = chain->front()->min_bandwidth_mbs;
  p.max_bandwidth_mbs = chain->front()->max_bandwidth_mbs;
  for (size_t i = 0; i < chain->size(); ++i) {
    const KfdLink* l = (*chain)[i];
    if (l->type == kKfdLinkPcie)
      p.type = "pcie";
    else if (l->type != kKfdLinkXgmi && p.type == "xgmi")
      p.type = KfdLinkTypeName(l->type);
    if (i == 0) continue;
    p.weight = SumWeights(p.weight, l->weight);
    p.min_bandwidth_mbs = Narrowest(p.min_bandwidth_mbs, l->min_bandwidth_mbs);
    p.max_bandwidth_mbs = Narrowest(p.max_bandwidth_mbs, l->max_bandwidth_mbs);
  }
  return p;
}

}  // namespace gpudoctor
