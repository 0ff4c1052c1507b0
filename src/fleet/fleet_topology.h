// How the fleet's nodes wire their GPUs, compared: each node's link matrix (the cells `gpudoctor topo` shows,
// from the topology of its `info --json` snapshot), the matrix most nodes share, and the cells in which a
// node differs from it ("GPU2-GPU6: SYS, fleet XGMI": a link down, a card in another slot). Pure.
#pragma once

#include <string>
#include <vector>

#include "snapshot/topology.h"

namespace gpudoctor {

using LinkMatrix = std::vector<std::vector<std::string>>;  // cells[a][b]: "X", "NV18", "XGMI", "SYS", ...

// The cells of a topology's matrix; empty for more than kMaxFleetMatrixGpus GPUs (a file from elsewhere
// stays small in a fleet of many nodes).
inline constexpr size_t kMaxFleetMatrixGpus = 64;
LinkMatrix LinkMatrixOf(const Topology& topology);

struct FleetTopology {
  LinkMatrix matrix;  // the most common matrix (empty on a tie)
  int count = 0;      // nodes that have it
  int nodes = 0;      // nodes that report a topology
  bool tie = false;   // no single most common matrix: nobody is flagged
};

// The most common of the non-empty matrices.
FleetTopology MajorityLinkMatrix(const std::vector<LinkMatrix>& matrices);

// How `node` differs from `fleet`: "8 GPUs, fleet 4" when the sizes differ, else each differing pair once
// (a < b), "GPU2-GPU6: SYS, fleet XGMI", at most `max_cells` of them, then "and N more".
std::string LinkMatrixDifference(const LinkMatrix& node, const LinkMatrix& fleet, size_t max_cells = 8);

}  // namespace gpudoctor
