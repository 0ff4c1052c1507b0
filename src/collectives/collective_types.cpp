// Names, counts, the size sweep, the bandwidth formulas and the rank report's JSON (see collective_types.h).
#include "collectives/collective_types.h"
#include "core/json_depth.h"

#include <algorithm>
#include <exception>
#include <nlohmann/json.hpp>

#include "core/enum_names.h"
#include "core/json_reader.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;
constexpr uint64_t kElementBytes = 4;  // float32
constexpr size_t kMaxResults = 100000;

}  // namespace

// The first name of each is the one written; "alltoall" is also read.
constexpr std::array kCollectiveOpNames = {
    EnumName<CollectiveOp>{CollectiveOp::kAllReduce, "all_reduce"},
    EnumName<CollectiveOp>{CollectiveOp::kAllGather, "all_gather"},
    EnumName<CollectiveOp>{CollectiveOp::kReduceScatter, "reduce_scatter"},
    EnumName<CollectiveOp>{CollectiveOp::kBroadcast, "broadcast"},
    EnumName<CollectiveOp>{CollectiveOp::kAllToAll, "all_to_all"},
    EnumName<CollectiveOp>{CollectiveOp::kAllToAll, "alltoall"},
};

const char* ToString(CollectiveOp op) {
  return NameIn(kCollectiveOpNames, op);
}

std::optional<CollectiveOp> CollectiveOpFromString(std::string_view s) {
  std::string name(Trim(s));
  std::replace(name.begin(), name.end(), '-', '_');
  return ValueIn(kCollectiveOpNames, name);
}

Result<std::vector<CollectiveOp>> ParseCollectiveOps(std::string_view list) {
  if (Trim(list) == "all")
    return std::vector<CollectiveOp>(std::begin(kAllCollectiveOps), std::end(kAllCollectiveOps));
  std::vector<CollectiveOp> ops;
  for (auto word : Split(list, ',')) {
    auto op = CollectiveOpFromString(word);
    if (!op)
      return UserError("unknown collective \"" + std::string(Trim(word)) + "\"",
                       "use all_reduce, all_gather, reduce_scatter, broadcast, all_to_all or all");
    if (std::find(ops.begin(), ops.end(), *op) == ops.end()) ops.push_back(*op);
  }
  if (ops.empty()) return UserError("no collective named", "use all_reduce, all_gather, ... or all");
  return ops;
}

double BusBandwidthFactor(CollectiveOp op, int ranks) {
  if (ranks <= 0) return 0;
  double n = ranks;
  switch (op) {
    case CollectiveOp::kAllReduce:
      return 2.0 * (n - 1) / n;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kAllToAll:
      return (n - 1) / n;
    case CollectiveOp::kBroadcast:
      return 1.0;
  }
  return 0;
}

double AlgorithmBandwidthGBs(uint64_t size_bytes, double seconds) {
  if (seconds <= 0) return 0;
  return static_cast<double>(size_bytes) / 1.0e9 / seconds;
}

std::optional<CollectiveCounts> CountsFor(CollectiveOp op, uint64_t size_bytes, int ranks) {
  if (ranks <= 0) return std::nullopt;
  uint64_t total = size_bytes / kElementBytes;
  uint64_t n = static_cast<uint64_t>(ranks);
  CollectiveCounts c;
  switch (op) {
    case CollectiveOp::kAllReduce:
    case CollectiveOp::kBroadcast:
      if (total == 0) return std::nullopt;
      c.send = c.recv = c.param = total;
      return c;
    case CollectiveOp::kAllGather:
      c.param = c.send = total / n;
      c.recv = c.param * n;
      break;
    case CollectiveOp::kReduceScatter:
      c.param = c.recv = total / n;
      c.send = c.param * n;
      break;
    case CollectiveOp::kAllToAll:
      c.param = total / n;
      c.send = c.recv = c.param * n;
      break;
  }
  if (c.param == 0) return std::nullopt;
  return c;
}

std::vector<uint64_t> SizeSweep(uint64_t min_bytes, uint64_t max_bytes, uint64_t factor) {
  std::vector<uint64_t> sizes;
  if (factor < 2) factor = 2;
  uint64_t size = std::max<uint64_t>(min_bytes, kElementBytes);
  size -= size % kElementBytes;
  while (size <= max_bytes) {
    sizes.push_back(size);
    if (size > max_bytes / factor) break;
    size *= factor;
  }
  return sizes;
}

std::string RankReportToJson(const RankReport& r) {
  Json results = Json::array();
  for (const auto& m : r.results) {
    results.push_back({{"op", ToString(m.op)},
                       {"size_bytes", m.size_bytes},
                       {"time_us", m.time_us},
                       {"wrong", m.wrong},
                       {"checked", m.checked},
                       {"error", m.error.empty() ? Json(nullptr) : Json(m.error)}});
  }
  Json doc = {{"rank", r.rank},
              {"host", r.host},
              {"device", r.device},
              {"device_name", r.device_name},
              {"pci_address", r.pci_address},
              {"library", r.library},
              {"results", std::move(results)},
              {"error", r.error.empty() ? Json(nullptr) : Json(r.error)}};
  return doc.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<RankReport> RankReportFromJson(std::string_view text) {
  try {
    Json doc = ParseJsonWithinDepth<Json>(text);
    if (doc.is_discarded() || !doc.is_object()) return EnvError("the rank's report is not a JSON object");
    RankReport r;
    r.rank = WholeNumberOr(doc, "rank", 0);
    r.host = doc.value("host", "");
    r.device = WholeNumberOr(doc, "device", -1);
    r.device_name = doc.value("device_name", "");
    r.pci_address = doc.value("pci_address", "");
    r.library = doc.value("library", "");
    if (doc.contains("error") && doc["error"].is_string()) r.error = doc["error"].get<std::string>();
    if (doc.contains("results") && doc["results"].is_array()) {
      for (const auto& j : doc["results"]) {
        if (r.results.size() >= kMaxResults) break;
        auto op = CollectiveOpFromString(j.value("op", ""));
        if (!op) continue;
        RankMeasurement m;
        m.op = *op;
        m.size_bytes = WholeNumberOr(j, "size_bytes", uint64_t{0});
        m.time_us = j.value("time_us", 0.0);
        m.wrong = WholeNumberOr(j, "wrong", uint64_t{0});
        m.checked = WholeNumberOr(j, "checked", uint64_t{0});
        if (j.contains("error") && j["error"].is_string()) m.error = j["error"].get<std::string>();
        r.results.push_back(std::move(m));
      }
    }
    return r;
  } catch (const std::exception& e) {
    return EnvError(std::string("the rank's report is malformed: ") + e.what());
  }
}

std::vector<CollectiveRow> AggregateRanks(const std::vector<RankReport>& ranks, int world_size) {
  std::vector<CollectiveRow> rows;
  for (const auto& rank : ranks) {
    for (const auto& m : rank.results) {
      auto it = std::find_if(rows.begin(), rows.end(), [&](const CollectiveRow& r) {
        return r.op == m.op && r.size_bytes == m.size_bytes;
      });
      if (it == rows.end()) {
        CollectiveRow row;
        row.op = m.op;
        row.size_bytes = m.size_bytes;
        if (auto c = CountsFor(m.op, m.size_bytes, world_size)) row.count = c->param;
        rows.push_back(row);
        it = rows.end() - 1;
      }
      if (!m.error.empty()) {
        if (it->error.empty()) it->error = "rank " + std::to_string(rank.rank) + ": " + m.error;
        continue;
      }
      it->time_us += m.time_us;  // summed here, divided below
      it->wrong += m.wrong;
      it->checked += m.checked;
      ++it->ranks_reporting;
    }
  }
  for (auto& row : rows) {
    if (row.ranks_reporting > 0) row.time_us /= row.ranks_reporting;
    row.algbw_gbs = AlgorithmBandwidthGBs(row.size_bytes, row.time_us / 1e6);
    row.busbw_gbs = row.algbw_gbs * BusBandwidthFactor(row.op, world_size);
  }
  std::stable_sort(rows.begin(), rows.end(), [](const CollectiveRow& a, const CollectiveRow& b) {
    if (a.op != b.op) return static_cast<int>(a.op) < static_cast<int>(b.op);
    return a.size_bytes < b.size_bytes;
  });
  return rows;
}

}  // namespace gpudoctor
