// The links of the AMD KFD topology (kfd_topology.c iolink_show: nodes/N/io_links/M/properties and, on
// newer kernels, nodes/N/p2p_links/M/properties): a pure parser over the "key value" text, and the path
// between two GPU nodes that rocm-smi --showtopo calls link type, hops and weight. No file access here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probe/linux/kfd_parse.h"
#include "topo/topology.h"

namespace gpudoctor {

// CRAT_IOLINK_TYPE_* (kfd_crat.h) that matter here.
inline constexpr uint32_t kKfdLinkPcie = 2;
inline constexpr uint32_t kKfdLinkXgmi = 11;

struct KfdLinkParse {
  std::optional<KfdLink> link;        // nullopt when type, node_from or node_to is missing or out of range
  std::vector<std::string> problems;  // malformed lines and values, one line each
};

KfdLinkParse KfdLinkFromProperties(const KfdProperties& properties, bool peer_to_peer);

// "xgmi", "pcie", or "type N" for the other CRAT link types.
std::string KfdLinkTypeName(uint32_t type);

// How node `from` reaches node `to`: a direct io_link first, then a p2p_link, then the shortest chain of
// io_links (through CPU nodes: GPU -> CPU -> GPU is 2 hops, across sockets 3). A direct XGMI link is one
// hop. The weight of a chain is the sum of its links' weights, its bandwidth that of its narrowest link.
// nullopt when no link or chain of at most 8 links joins them.
std::optional<KfdPath> KfdPathBetween(const std::vector<KfdLink>& links, uint32_t from, uint32_t to);

}  // namespace gpudoctor
