// libFuzzer target: `fleet merge`'s reader of node reports (check, info, verify, bench, collectives JSON) and
// the analysis over what it read, plus the collectives workers' answers, on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "collectives/collectives_report.h"
#include "collectives/p2p_matrix.h"
#include "fleet/fleet_analysis.h"
#include "fleet/node_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string text(reinterpret_cast<const char*>(data), size);
  auto facts = ParseNodeReport(text, "fuzz/node1.bench.json");
  if (facts.ok()) {
    if (facts->host.empty() && !facts->host_from_file_name) __builtin_trap();
    NodeFacts other = *facts;
    other.host = "node2";
    FleetSummary s = AnalyzeFleet({*facts, other, *facts}, FleetOptions{});
    if (s.nodes.size() > 2) __builtin_trap();
  }
  (void)RankReportFromJson(text);
  (void)RankHostFromJson(text);
  (void)P2pMatrixFromJson(text);
  return 0;
}
