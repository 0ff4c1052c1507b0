// Link matrices across the fleet (see fleet_topology.h).
#include "fleet/fleet_topology.h"

#include <map>

namespace gpudoctor {

LinkMatrix LinkMatrixOf(const Topology& t) {
  if (t.gpus.size() > kMaxFleetMatrixGpus || t.links.size() != t.gpus.size()) return {};
  LinkMatrix out;
  for (const auto& row : t.links) {
    std::vector<std::string> cells;
    for (const auto& l : row) cells.push_back(CellLabel(l));
    out.push_back(std::move(cells));
  }
  return out;
}

FleetTopology MajorityLinkMatrix(const std::vector<LinkMatrix>& matrices) {
  std::map<LinkMatrix, int> counts;
  FleetTopology out;
  for (const auto& m : matrices) {
    if (m.empty()) continue;
    ++counts[m];
    ++out.nodes;
  }
  for (const auto& [matrix, count] : counts) {
    if (count > out.count) {
      out.matrix = matrix;
      out.count = count;
      out.tie = false;
    } else if (count == out.count) {
      out.tie = true;
    }
  }
  if (out.tie) out.matrix.clear();
  return out;
}

std::string LinkMatrixDifference(const LinkMatrix& node, const LinkMatrix& fleet, size_t max_cells) {
  if (node.size() != fleet.size())
    return std::to_string(node.size()) + " GPUs, fleet " + std::to_string(fleet.size());
  std::string out;
  size_t differing = 0;
  for (size_t a = 0; a < node.size(); ++a) {
    for (size_t b = a + 1; b < node.size(); ++b) {
      const std::string& mine = b < node[a].size() ? node[a][b] : std::string("?");
      const std::string& theirs = b < fleet[a].size() ? fleet[a][b] : std::string("?");
      if (mine == theirs) continue;
      if (++differing > max_cells) continue;
      out += (out.empty() ? "" : "; ") +
             ("GPU" + std::to_string(a) + "-GPU" + std::to_string(b) + ": " + mine + ", fleet " + theirs);
    }
  }
  if (differing > max_cells) out += "; and " + std::to_string(differing - max_cells) + " more";
  return out;
}

}  // namespace gpudoctor
