// CollectivesReport <-> its JSON document, `gpudoctor collectives --json` (schema "gpudoctor.collectives/1",
// fields in docs/collectives.md). The one codec of the type: collectives writes with it, `fleet merge` reads
// with it. Reading also takes the form of the last release ("gpudoctor.collectives" with "schema_version":
// 1); the fields the document derives from others (the hosts, each row's bus bandwidth factor) are not read
// back. Never throws (fuzzed: fuzz/result_documents_fuzz.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "collectives/collectives_result.h"
#include "core/json_reader.h"
#include "core/result.h"

namespace gpudoctor {

inline constexpr int64_t kCollectivesSchemaMajor = 1;  // "gpudoctor.collectives/1"

std::string CollectivesReportToJson(const CollectivesReport& report);
// `origin` names the text in messages ("node017.collectives.json").
Result<CollectivesReport> CollectivesReportFromJson(std::string_view text, const std::string& origin);

// The hosts in the order their first rank appears, with their rank counts (the document's "hosts").
std::vector<std::pair<std::string, int>> RanksPerHost(const CollectivesReport& report);

// One entry of "ranks" (also the host half of the record an MPI rank sends to rank 0).
JsonValue RankHostEntryToJson(const RankHost& host);
RankHost RankHostEntryFromJson(const JsonReader& entry);

}  // namespace gpudoctor
