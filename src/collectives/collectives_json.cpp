// The codec of CollectivesReport (see collectives_json.h): written with nlohmann::json, read back with core's
// JsonReader so that every problem is a message with its JSON path, never an exception.
#include "collectives/collectives_json.h"

#include <algorithm>

namespace gpudoctor {
namespace {

using Json = JsonValue;

Json HostsJson(const CollectivesReport& r) {
  Json out = Json::array();
  for (const auto& [host, count] : RanksPerHost(r)) out.push_back({{"host", host}, {"ranks", count}});
  return out;
}

bool ReadOp(const JsonReader& r, const std::string& path, const std::string& text, CollectiveOp& out) {
  auto op = CollectiveOpFromString(text);
  if (!op) {
    r.Fail(path, "\"" + text + "\" is not a collective this gpudoctor knows");
    return false;
  }
  out = *op;
  return true;
}

template <typename T>
void ReadUnsigned(const JsonReader& r, std::string_view key, T& out) {
  std::optional<uint64_t> v;
  r.Unsigned(key, v);
  if (v) out = static_cast<T>(*v);
}

CollectiveRow ReadRow(const JsonReader& r) {
  CollectiveRow row;
  std::string op;
  r.String("op", op, true);
  if (r.ok()) ReadOp(r, r.PathOf("op"), op, row.op);
  ReadUnsigned(r, "size_bytes", row.size_bytes);
  ReadUnsigned(r, "count", row.count);
  r.Number("time_us", row.time_us);
  r.Number("algbw_gbs", row.algbw_gbs);
  r.Number("busbw_gbs", row.busbw_gbs);
  ReadUnsigned(r, "wrong", row.wrong);
  ReadUnsigned(r, "checked", row.checked);
  r.IntegerAs("ranks_reporting", row.ranks_reporting);
  r.String("error", row.error);
  return row;
}

void ReadOptions(const JsonReader& r, CollectiveOptions& o) {
  std::vector<std::string> ops;
  r.Strings("ops", ops);
  if (r.Find("ops", false)) o.ops.clear();
  for (size_t i = 0; i < ops.size() && r.ok(); ++i) {
    CollectiveOp op;
    if (ReadOp(r, r.PathOf("ops") + "[" + std::to_string(i) + "]", ops[i], op)) o.ops.push_back(op);
  }
  ReadUnsigned(r, "min_bytes", o.min_bytes);
  ReadUnsigned(r, "max_bytes", o.max_bytes);
  ReadUnsigned(r, "factor", o.factor);
  r.IntegerAs("iters", o.iters);
  r.IntegerAs("warmup", o.warmup);
}

}  // namespace

std::vector<std::pair<std::string, int>> RanksPerHost(const CollectivesReport& r) {
  std::vector<std::pair<std::string, int>> hosts;
  for (const auto& rank : r.ranks) {
    auto it = std::find_if(hosts.begin(), hosts.end(), [&](const auto& h) { return h.first == rank.host; });
    if (it == hosts.end())
      hosts.emplace_back(rank.host, 1);
    else
      ++it->second;
  }
  return hosts;
}

Json RankHostEntryToJson(const RankHost& h) {
  return {{"rank", h.rank},
          {"host", h.host},
          {"local_rank", h.local_rank},
          {"gpus_visible", h.gpus_visible},
          {"device", h.device >= 0 ? Json(h.device) : Json(nullptr)},
          {"device_name", StringOrNull(h.device_name)},
          {"pci_address", StringOrNull(h.pci_address)},
          {"status", h.status},
          {"reason", StringOrNull(h.reason)}};
}

RankHost RankHostEntryFromJson(const JsonReader& r) {
  RankHost h;
  r.IntegerAs("rank", h.rank);
  r.String("host", h.host);
  r.IntegerAs("local_rank", h.local_rank);
  r.IntegerAs("gpus_visible", h.gpus_visible);
  r.IntegerAs("device", h.device);  // null: no device (-1)
  r.String("device_name", h.device_name);
  r.String("pci_address", h.pci_address);
  r.String("status", h.status);
  r.String("reason", h.reason);
  return h;
}

std::string CollectivesReportToJson(const CollectivesReport& r) {
  Json doc = Json::object();
  doc["schema"] = SchemaName("collectives", kCollectivesSchemaMajor);
  doc["mode"] = r.mode;
  doc["launcher"] = ToString(r.launcher);
  doc["mpi_library"] = StringOrNull(r.mpi_library);
  doc["world_size"] = r.world_size;
  doc["backend"] = StringOrNull(r.backend);
  doc["library"] = StringOrNull(r.library);
  doc["hosts"] = HostsJson(r);
  Json ranks = Json::array();
  for (const auto& h : r.ranks) ranks.push_back(RankHostEntryToJson(h));
  doc["ranks"] = std::move(ranks);
  Json ops = Json::array();
  for (auto op : r.options.ops) ops.push_back(ToString(op));
  doc["options"] = {
      {"ops", std::move(ops)},      {"min_bytes", r.options.min_bytes}, {"max_bytes", r.options.max_bytes},
      {"factor", r.options.factor}, {"iters", r.options.iters},         {"warmup", r.options.warmup},
      {"datatype", "float32"}};
  Json rows = Json::array();
  for (const auto& row : r.rows) {
    rows.push_back({{"op", ToString(row.op)},
                    {"size_bytes", row.size_bytes},
                    {"count", row.count},
                    {"time_us", row.time_us},
                    {"algbw_gbs", row.algbw_gbs},
                    {"busbw_gbs", row.busbw_gbs},
                    {"busbw_factor", BusBandwidthFactor(row.op, r.world_size)},
                    {"wrong", row.wrong},
                    {"checked", row.checked},
                    {"ranks_reporting", row.ranks_reporting},
                    {"error", StringOrNull(row.error)}});
  }
  doc["collectives"] = {{"status", r.collectives_status},
                        {"reason", StringOrNull(r.collectives_reason)},
                        {"results", std::move(rows)}};
  Json p2p = {{"status", r.p2p_status}, {"reason", StringOrNull(r.p2p_reason)}};
  p2p["matrix"] = r.p2p ? Json::parse(P2pMatrixToJson(*r.p2p), nullptr, false) : Json(nullptr);
  doc["p2p"] = std::move(p2p);
  doc["warnings"] = r.warnings;
  doc["exit_code"] = r.exit_code;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<CollectivesReport> CollectivesReportFromJson(std::string_view text, const std::string& origin) {
  const std::string hint = "give the file `gpudoctor collectives --json > collectives.json` wrote";
  auto parsed = ParseJsonObject(text, origin, hint);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = *parsed;
  auto major = ExpectSchema(doc, "collectives", kCollectivesSchemaMajor, origin, hint);
  if (!major.ok()) return major.error();
  std::string error;
  JsonReader r(doc, "", &error);
  CollectivesReport c;
  r.String("mode", c.mode);
  r.Enum("launcher", c.launcher, LauncherFromString, "none, mpirun, srun or mpich");
  r.String("mpi_library", c.mpi_library);
  r.IntegerAs("world_size", c.world_size);
  r.String("backend", c.backend);
  r.String("library", c.library);
  r.ForEachObject("ranks", false, [&](const JsonReader& h) { c.ranks.push_back(RankHostEntryFromJson(h)); });
  if (const Json* o = r.Object("options", false)) ReadOptions(JsonReader(*o, "options", &error), c.options);
  if (const Json* col = r.Object("collectives", false)) {
    JsonReader cr(*col, "collectives", &error);
    cr.String("status", c.collectives_status);
    cr.String("reason", c.collectives_reason);
    cr.ForEachObject("results", false, [&](const JsonReader& row) { c.rows.push_back(ReadRow(row)); });
  }
  if (const Json* p = r.Object("p2p", false)) {
    JsonReader pr(*p, "p2p", &error);
    pr.String("status", c.p2p_status);
    pr.String("reason", c.p2p_reason);
    if (const Json* m = pr.Object("matrix", false)) {
      auto matrix = P2pMatrixFromJson(m->dump());
      if (matrix.ok())
        c.p2p = std::move(*matrix);
      else
        pr.Fail(pr.PathOf("matrix"), matrix.error().message);
    }
  }
  r.Strings("warnings", c.warnings);
  r.IntegerAs("exit_code", c.exit_code);
  if (!error.empty()) return UserError(origin + ": " + error, hint);
  return c;
}

}  // namespace gpudoctor
