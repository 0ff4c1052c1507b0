// The text of a CollectivesReport, and the MPI ranks' records (see collectives_report.h).
#include "collectives/collectives_report.h"
#include "core/json_depth.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

#include "collectives/collectives_json.h"
#include "core/json_reader.h"
#include "core/strings.h"
#include "core/text_table.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

const char* FactorText(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::kAllReduce:
      return "2(n-1)/n";
    case CollectiveOp::kBroadcast:
      return "1";
    default:
      return "(n-1)/n";
  }
}

std::string MatrixText(const P2pMatrix& m, const std::vector<std::vector<double>>& values, int digits) {
  std::vector<std::string> header = {""};
  for (size_t i = 0; i < m.devices.size(); ++i) header.push_back("GPU" + std::to_string(i));
  TextTable t(header);
  for (size_t a = 0; a < values.size(); ++a) {
    std::vector<std::string> row = {"GPU" + std::to_string(a)};
    for (size_t b = 0; b < values[a].size(); ++b)
      row.push_back(Fixed(values[a][b], digits) + (m.correct[a][b] ? "" : " FAIL"));
    t.AddRow(std::move(row));
  }
  return t.Render("  ");
}

}  // namespace

std::string RenderCollectivesText(const CollectivesReport& r) {
  std::string out;
  auto hosts = RanksPerHost(r);
  out += "Collectives: " + std::to_string(r.world_size) + (r.world_size == 1 ? " rank" : " ranks") + " on " +
         std::to_string(hosts.size()) + (hosts.size() == 1 ? " host" : " hosts") + " (" +
         (r.mode == "mpi" ? std::string("MPI, started by ") + ToString(r.launcher)
                          : std::string("worker processes on this machine")) +
         ")\n";
  if (!r.library.empty()) out += "Library: " + r.library + "\n";
  if (!r.mpi_library.empty()) out += "MPI: " + r.mpi_library + "\n";
  out += "\nHosts\n";
  for (const auto& [host, count] : hosts)
    out += "  " + host + ": " + std::to_string(count) + (count == 1 ? " rank\n" : " ranks\n");
  TextTable ranks({"Rank", "Host", "Local", "GPUs", "GPU", "PCI", "Status"});
  for (const auto& h : r.ranks)
    ranks.AddRow({std::to_string(h.rank), h.host, std::to_string(h.local_rank),
                  std::to_string(h.gpus_visible), h.device_name.empty() ? "-" : h.device_name,
                  h.pci_address.empty() ? "-" : h.pci_address,
                  h.status + (h.reason.empty() ? "" : ": " + h.reason)});
  out += "\n" + ranks.Render("  ");

  out += "\nCollectives: " + r.collectives_status +
         (r.collectives_reason.empty() ? "" : " (" + r.collectives_reason + ")") + "\n";
  std::optional<CollectiveOp> current;
  std::unique_ptr<TextTable> table;
  auto flush = [&] {
    if (table) out += table->Render("  ");
    table.reset();
  };
  for (const auto& row : r.rows) {
    if (current != row.op) {
      flush();
      current = row.op;
      out +=
          "\n" + std::string(ToString(row.op)) + " (float32, busbw = algbw * " + FactorText(row.op) + ")\n";
      table = std::make_unique<TextTable>(std::vector<std::string>{"size (B)", "count", "time (us)",
                                                                   "algbw (GB/s)", "busbw (GB/s)", "wrong"});
    }
    table->AddRow({std::to_string(row.size_bytes), std::to_string(row.count), Fixed(row.time_us, 2),
                   Fixed(row.algbw_gbs, 2), Fixed(row.busbw_gbs, 2),
                   row.error.empty() ? std::to_string(row.wrong) : "error: " + row.error});
  }
  flush();

  out += "\nPeer-to-peer copies: " + r.p2p_status + (r.p2p_reason.empty() ? "" : " (" + r.p2p_reason + ")") +
         "\n";
  if (r.p2p && r.p2p->error.empty() && !r.p2p->devices.empty()) {
    out += "\nBandwidth (GB/s), " + FormatBytes(r.p2p->bytes) + " per copy, row = source\n" +
           MatrixText(*r.p2p, r.p2p->bandwidth_gbs, 1);
    out += "\nLatency (us), 4-byte copies\n" + MatrixText(*r.p2p, r.p2p->latency_us, 2);
  }
  for (const auto& w : r.warnings)
    if (!w.empty()) out += "\nwarning: " + w + "\n";
  return out;
}

std::string RankHostToJson(const RankHost& h, const RankReport* report) {
  Json doc = {{"host", RankHostEntryToJson(h)}};
  doc["report"] = report ? Json::parse(RankReportToJson(*report)) : Json(nullptr);
  return doc.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<std::pair<RankHost, std::optional<RankReport>>> RankHostFromJson(const std::string& text) {
  try {
    Json doc = ParseJsonWithinDepth<Json>(text);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("host") || !doc["host"].is_object())
      return EnvError("not a rank record");
    std::string error;
    RankHost h = RankHostEntryFromJson(JsonReader(doc["host"], "host", &error));
    if (!error.empty()) return EnvError("malformed rank record: " + error);
    std::optional<RankReport> report;
    if (doc.contains("report") && doc["report"].is_object()) {
      auto r = RankReportFromJson(doc["report"].dump());
      if (!r) return r.error();
      report = *r;
      report->host = h.host;
    }
    return std::make_pair(h, report);
  } catch (const std::exception& e) {
    return EnvError(std::string("malformed rank record: ") + e.what());
  }
}

}  // namespace gpudoctor
