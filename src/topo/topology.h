// What topo/ adds to the Snapshot's topology types (snapshot/topology.h): the name of `topo --json`'s
// document and the link of the AMD KFD topology as the kernel exports it (the input of the path search).
#pragma once

#include <cstdint>
#include <optional>

#include "snapshot/snapshot.h"
#include "snapshot/topology.h"

namespace gpudoctor {

// `topo --json` names its document "gpudoctor.topo", version 1, bumped on any incompatible change
// (docs/topo.md).
inline constexpr const char* kTopologySchema = "gpudoctor.topo";
inline constexpr int kTopologySchemaVersion = 1;

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

}  // namespace gpudoctor
