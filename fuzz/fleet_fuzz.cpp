// libFuzzer target: `fleet merge`'s reader of node reports (check, info, verify, bench, collectives JSON) and
// the analysis over what it read, plus the collectives workers' answers, on arbitrary bytes. Each reader
// parses the whole text and, on a syntax error, parses it again for the line; so the text is checked once
// (nlohmann's accept, no tree built) and one that is not JSON goes to one reader only, a different one by its
// length: the readers differ past the parse, which such a text never reaches (4x faster on broken JSON).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "collectives/collectives_report.h"
#include "collectives/p2p_matrix.h"
#include "core/json_reader.h"
#include "fleet/fleet_analysis.h"
#include "fleet/node_report.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string text(reinterpret_cast<const char*>(data), size);
  if (!JsonValue::accept(text)) {
    switch (size % 4) {
      case 0:
        (void)ParseNodeReport(text, "fuzz/node1.bench.json");
        break;
      case 1:
        (void)RankReportFromJson(text);
        break;
      case 2:
        (void)RankHostFromJson(text);
        break;
      default:
        (void)P2pMatrixFromJson(text);
        break;
    }
    return 0;
  }
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
