// Reads what `gpudoctor topo` needs from a machine or a recorded sysroot: the PCIe tree and CPU affinity from
// sysfs, the KFD io_links/p2p_links, the NUMA nodes, and NVML's topology answers (asked live, or read from
// the recorded .gpudoctor/nvml.json under a sysroot), on top of the probes' Snapshot, whose `topology` it
// fills.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"
#include "topo/topology.h"
#include "topo/topology_builder.h"

namespace gpudoctor {

TopologyInputs ReadTopologyInputs(const ProbeContext& ctx, const Snapshot& snapshot);

inline Topology ProbeTopology(const ProbeContext& ctx, const Snapshot& snapshot) {
  return BuildTopology(ReadTopologyInputs(ctx, snapshot));
}

}  // namespace gpudoctor
