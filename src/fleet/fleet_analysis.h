// The fleet view of many nodes' reports (`gpudoctor fleet merge`): the reports grouped by host, then for
// every figure the fleet's median and the nodes worse than it by more than the threshold (below it for
// figures where higher is better, above it for times), for every version the majority value and the nodes off
// it, the GPU link matrix most nodes share and the nodes wired otherwise, and every node with a failed gate
// or benchmark or a check error. Pure: tested on synthetic fleets.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "fleet/node_report.h"

namespace gpudoctor {

inline constexpr const char* kFleetSchema = "gpudoctor.fleet";
inline constexpr int kFleetSchemaVersion = 1;

struct FleetOptions {
  double threshold = 0.10;  // 10%
};

enum class OutlierKind { kFigure, kVersion, kTopology, kFailure, kCheckError };
const char* ToString(OutlierKind kind);  // "figure", "version", "topology", "failure", "check_error"

struct FleetOutlier {
  std::string host;
  OutlierKind kind = OutlierKind::kFigure;
  std::string id;         // figure id, version key, or the failure / finding text's subject
  std::string value;      // the node's value ("2810 GB/s", "550.54.15", "GPU2-GPU6: SYS, fleet XGMI")
  std::string reference;  // the fleet's ("median 3990 GB/s of 50 nodes", "570.124.06 on 49 of 50 nodes")
  double deviation = 0;   // figures: (value - median) / median
  std::string detail;     // failures and check errors: the text
};

struct FleetStatistic {
  std::string id;
  std::string unit;
  double median = 0;
  int nodes = 0;
  bool higher_is_better = true;
};

struct FleetMajority {
  std::string key;
  std::string value;
  int count = 0;
  int nodes = 0;     // nodes that report the key
  bool tie = false;  // no single most common value: nobody is flagged
};

struct SkippedFile {
  std::string file;
  std::string reason;
};

struct FleetSummary {
  FleetOptions options;
  std::vector<NodeFacts> nodes;  // one per host, sorted by host
  std::vector<FleetStatistic> statistics;
  std::vector<FleetMajority> majorities;
  FleetTopology topology;              // the GPU link matrix most nodes share
  std::vector<FleetOutlier> outliers;  // by kind, then host
  std::vector<SkippedFile> skipped;
  int exit_code = 0;  // 0 nothing to flag, 1 outliers found
};

// Nodes with the same host merged into one (files, kinds, versions, figures: the worse value of a repeated
// figure, failures, errors), sorted by host.
std::vector<NodeFacts> MergeByHost(const std::vector<NodeFacts>& parsed);

// The median of `values` (the mean of the middle two for an even count); 0 for none.
double Median(std::vector<double> values);

FleetSummary AnalyzeFleet(const std::vector<NodeFacts>& parsed, const FleetOptions& options);

}  // namespace gpudoctor
