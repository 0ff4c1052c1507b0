// Grouping by host, medians, majorities and outliers (see fleet_analysis.h).
#include "fleet/fleet_analysis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace gpudoctor {
namespace {

std::string Number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, std::fabs(v) >= 100 ? "%.0f" : "%.3g", v);
  return buf;
}

void AddUnique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

void MergeInto(NodeFacts& into, const NodeFacts& from) {
  for (const auto& f : from.files) AddUnique(into.files, f);
  for (const auto& k : from.kinds) AddUnique(into.kinds, k);
  for (const auto& [k, v] : from.versions) into.versions.emplace(k, v);
  for (const auto& fig : from.figures) {
    auto it = std::find_if(into.figures.begin(), into.figures.end(),
                           [&](const FleetFigure& x) { return x.id == fig.id; });
    if (it == into.figures.end()) {
      into.figures.push_back(fig);
    } else if (fig.higher_is_better ? fig.value < it->value : fig.value > it->value) {
      it->value = fig.value;  // a node is as good as its worst GPU
    }
  }
  for (const auto& f : from.failures) AddUnique(into.failures, f);
  for (const auto& e : from.check_errors) AddUnique(into.check_errors, e);
  if (into.topology.empty()) into.topology = from.topology;
}

std::string Subject(const std::string& text) {
  size_t colon = text.find(':');
  return colon == std::string::npos ? text : text.substr(0, colon);
}

}  // namespace

const char* ToString(OutlierKind kind) {
  switch (kind) {
    case OutlierKind::kFigure:
      return "figure";
    case OutlierKind::kVersion:
      return "version";
    case OutlierKind::kTopology:
      return "topology";
    case OutlierKind::kFailure:
      return "failure";
    case OutlierKind::kCheckError:
      return "check_error";
  }
  return "figure";
}

std::vector<NodeFacts> MergeByHost(const std::vector<NodeFacts>& parsed) {
  std::vector<NodeFacts> nodes;
  for (const auto& p : parsed) {
    auto it = std::find_if(nodes.begin(), nodes.end(), [&](const NodeFacts& n) { return n.host == p.host; });
    if (it == nodes.end()) {
      NodeFacts n;
      n.host = p.host;
      n.host_from_file_name = p.host_from_file_name;
      nodes.push_back(std::move(n));
      it = nodes.end() - 1;
    }
    MergeInto(*it, p);
  }
  std::sort(nodes.begin(), nodes.end(),
            [](const NodeFacts& a, const NodeFacts& b) { return a.host < b.host; });
  return nodes;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

namespace {

// Figures: the median over the nodes that have the figure (at least two of them); a node further from it than
// the threshold, in the worse direction, is an outlier.
void AddFigureOutliers(FleetSummary& s, const FleetOptions& options) {
  std::set<std::string> ids;
  for (const auto& n : s.nodes)
    for (const auto& f : n.figures) ids.insert(f.id);
  for (const auto& id : ids) {
    FleetStatistic st;
    st.id = id;
    std::vector<double> values;
    for (const auto& n : s.nodes) {
      for (const auto& f : n.figures) {
        if (f.id != id) continue;
        values.push_back(f.value);
        st.unit = f.unit;
        st.higher_is_better = f.higher_is_better;
      }
    }
    st.nodes = static_cast<int>(values.size());
    st.median = Median(values);
    s.statistics.push_back(st);
    if (st.nodes < 2 || st.median == 0) continue;
    for (const auto& n : s.nodes) {
      for (const auto& f : n.figures) {
        if (f.id != id) continue;
        double deviation = (f.value - st.median) / std::fabs(st.median);
        bool worse = st.higher_is_better ? deviation < -options.threshold : deviation > options.threshold;
        if (!worse) continue;
        s.outliers.push_back(
            {n.host, OutlierKind::kFigure, id, Number(f.value) + " " + f.unit,
             "median " + Number(st.median) + " " + st.unit + " of " + std::to_string(st.nodes) + " nodes",
             deviation, ""});
      }
    }
  }
}

// Versions: the most common value among the nodes that report the key; a node with another value is an
// outlier (not on a tie).
void AddVersionOutliers(FleetSummary& s) {
  std::set<std::string> keys;
  for (const auto& n : s.nodes)
    for (const auto& [k, v] : n.versions) keys.insert(k);
  for (const auto& key : keys) {
    std::map<std::string, int> counts;
    FleetMajority m;
    m.key = key;
    for (const auto& n : s.nodes) {
      auto it = n.versions.find(key);
      if (it == n.versions.end()) continue;
      ++counts[it->second];
      ++m.nodes;
    }
    for (const auto& [value, count] : counts) {
      if (count > m.count) {
        m.value = value;
        m.count = count;
        m.tie = false;
      } else if (count == m.count) {
        m.tie = true;
      }
    }
    s.majorities.push_back(m);
    if (m.tie || m.nodes < 2) continue;
    for (const auto& n : s.nodes) {
      auto it = n.versions.find(key);
      if (it == n.versions.end() || it->second == m.value) continue;
      s.outliers.push_back(
          {n.host, OutlierKind::kVersion, key, it->second,
           m.value + " on " + std::to_string(m.count) + " of " + std::to_string(m.nodes) + " nodes", 0, ""});
    }
  }
}

// Topology: the most common link matrix among the nodes that report one; a node with another is an outlier.
void AddTopologyOutliers(FleetSummary& s) {
  std::vector<LinkMatrix> matrices;
  for (const auto& n : s.nodes) matrices.push_back(n.topology);
  s.topology = MajorityLinkMatrix(matrices);
  if (!s.topology.tie && s.topology.nodes >= 2) {
    for (const auto& n : s.nodes) {
      if (n.topology.empty() || n.topology == s.topology.matrix) continue;
      s.outliers.push_back({n.host, OutlierKind::kTopology, "topology",
                            LinkMatrixDifference(n.topology, s.topology.matrix),
                            "the matrix of " + std::to_string(s.topology.count) + " of " +
                                std::to_string(s.topology.nodes) + " nodes",
                            0, ""});
    }
  }
}

}  // namespace

FleetSummary AnalyzeFleet(const std::vector<NodeFacts>& parsed, const FleetOptions& options) {
  FleetSummary s;
  s.options = options;
  s.nodes = MergeByHost(parsed);

  AddFigureOutliers(s, options);
  AddVersionOutliers(s);
  AddTopologyOutliers(s);

  for (const auto& n : s.nodes) {
    for (const auto& f : n.failures)
      s.outliers.push_back({n.host, OutlierKind::kFailure, Subject(f), "", "", 0, f});
    for (const auto& e : n.check_errors)
      s.outliers.push_back({n.host, OutlierKind::kCheckError, Subject(e), "", "", 0, e});
  }
  std::stable_sort(s.outliers.begin(), s.outliers.end(), [](const FleetOutlier& a, const FleetOutlier& b) {
    if (a.kind != b.kind) return static_cast<int>(a.kind) < static_cast<int>(b.kind);
    return a.host < b.host;
  });
  s.exit_code = s.outliers.empty() ? 0 : 1;
  return s;
}

}  // namespace gpudoctor
