// `gpudoctor collectives` output: the text tables (ranks, one table per collective in the columns of
// nccl-tests, the P2P matrices), plus the one-rank record MPI ranks send to rank 0. The JSON document is the
// type's codec, collectives/collectives_json.h.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "collectives/collectives_result.h"

namespace gpudoctor {

std::string RenderCollectivesText(const CollectivesReport& report);

// One rank's host facts and (when it ran) its measurements, as MPI ranks gather them to rank 0.
std::string RankHostToJson(const RankHost& host, const RankReport* report);
Result<std::pair<RankHost, std::optional<RankReport>>> RankHostFromJson(const std::string& text);

}  // namespace gpudoctor
