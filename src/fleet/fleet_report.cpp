// Text and JSON of a FleetSummary (see fleet_report.h).
#include "fleet/fleet_report.h"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "core/text_table.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

std::string Percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", fraction * 100);
  return buf;
}

std::string Kinds(const FleetSummary& s) {
  std::map<std::string, int> counts;
  for (const auto& n : s.nodes)
    for (const auto& k : n.kinds) ++counts[k];
  std::string out;
  for (const auto& [k, c] : counts) out += (out.empty() ? "" : ", ") + k + " " + std::to_string(c);
  return out;
}

}  // namespace

std::string RenderFleetText(const FleetSummary& s) {
  size_t files = 0;
  for (const auto& n : s.nodes) files += n.files.size();
  std::string out = "Fleet: " + std::to_string(s.nodes.size()) + " nodes from " + std::to_string(files) +
                    " files (" + Kinds(s) + "); threshold " + Percent(s.options.threshold).substr(1) +
                    " below the median\n";
  struct Section {
    OutlierKind kind;
    const char* title;
  };
  const Section sections[] = {
      {OutlierKind::kFigure, "Below the fleet median by more than the threshold"},
      {OutlierKind::kVersion, "Versions that differ from the majority"},
      {OutlierKind::kTopology, "GPU links that differ from the majority's matrix"},
      {OutlierKind::kFailure, "Failed gates and benchmarks"},
      {OutlierKind::kCheckError, "Check errors"},
  };
  for (const auto& section : sections) {
    TextTable t(section.kind == OutlierKind::kFigure
                    ? std::vector<std::string>{"Node", "Figure", "Value", "Off", "Fleet"}
                : section.kind == OutlierKind::kVersion
                    ? std::vector<std::string>{"Node", "Version", "Value", "Majority"}
                : section.kind == OutlierKind::kTopology
                    ? std::vector<std::string>{"Node", "Cells that differ", "Majority"}
                    : std::vector<std::string>{"Node", "What"});
    int rows = 0;
    for (const auto& o : s.outliers) {
      if (o.kind != section.kind) continue;
      ++rows;
      if (o.kind == OutlierKind::kFigure)
        t.AddRow({o.host, o.id, o.value, Percent(o.deviation), o.reference});
      else if (o.kind == OutlierKind::kVersion)
        t.AddRow({o.host, o.id, o.value, o.reference});
      else if (o.kind == OutlierKind::kTopology)
        t.AddRow({o.host, o.value, o.reference});
      else
        t.AddRow({o.host, o.detail});
    }
    out += "\n" + std::string(section.title) + (rows ? ":\n" + t.Render("  ") : ": none\n");
  }
  if (!s.majorities.empty()) {
    out += "\nFleet versions:\n";
    for (const auto& m : s.majorities)
      out +=
          "  " + m.key + ": " +
          (m.tie ? "no majority (" + std::to_string(m.nodes) + " nodes split)"
                 : m.value + " on " + std::to_string(m.count) + " of " + std::to_string(m.nodes) + " nodes") +
          "\n";
  }
  if (s.topology.nodes > 0) {
    const FleetTopology& t = s.topology;
    out += "\nFleet topology: " +
           (t.tie ? "no majority (" + std::to_string(t.nodes) + " nodes split)"
                  : std::to_string(t.matrix.size()) + " GPUs, one matrix on " + std::to_string(t.count) +
                        " of " + std::to_string(t.nodes) + " nodes") +
           "\n";
  }
  if (!s.skipped.empty()) {
    out += "\nFiles not read:\n";
    for (const auto& f : s.skipped) out += "  " + f.reason + "\n";  // the reason names the file
  }
  return out;
}

std::string RenderFleetJson(const FleetSummary& s) {
  Json doc = Json::object();
  doc["schema"] = kFleetSchema;
  doc["schema_version"] = kFleetSchemaVersion;
  doc["threshold"] = s.options.threshold;
  Json nodes = Json::array();
  for (const auto& n : s.nodes) {
    Json figures = Json::array();
    for (const auto& f : n.figures)
      figures.push_back(
          {{"id", f.id}, {"value", f.value}, {"unit", f.unit}, {"higher_is_better", f.higher_is_better}});
    nodes.push_back({{"host", n.host},
                     {"host_from_file_name", n.host_from_file_name},
                     {"files", n.files},
                     {"kinds", n.kinds},
                     {"versions", n.versions},
                     {"figures", std::move(figures)},
                     {"failures", n.failures},
                     {"check_errors", n.check_errors},
                     {"topology", n.topology.empty() ? Json(nullptr) : Json(n.topology)}});
  }
  doc["nodes"] = std::move(nodes);
  Json stats = Json::array();
  for (const auto& st : s.statistics)
    stats.push_back({{"id", st.id},
                     {"unit", st.unit},
                     {"median", st.median},
                     {"nodes", st.nodes},
                     {"higher_is_better", st.higher_is_better}});
  doc["figures"] = std::move(stats);
  Json majorities = Json::array();
  for (const auto& m : s.majorities)
    majorities.push_back({{"key", m.key},
                          {"value", m.tie ? Json(nullptr) : Json(m.value)},
                          {"count", m.count},
                          {"nodes", m.nodes},
                          {"tie", m.tie}});
  doc["versions"] = std::move(majorities);
  if (s.topology.nodes > 0)
    doc["topology"] = {{"matrix", s.topology.tie ? Json(nullptr) : Json(s.topology.matrix)},
                       {"count", s.topology.count},
                       {"nodes", s.topology.nodes},
                       {"tie", s.topology.tie}};
  else
    doc["topology"] = nullptr;
  Json outliers = Json::array();
  for (const auto& o : s.outliers) {
    Json j = {{"host", o.host}, {"kind", ToString(o.kind)}, {"id", o.id}};
    j["value"] = o.value.empty() ? Json(nullptr) : Json(o.value);
    j["reference"] = o.reference.empty() ? Json(nullptr) : Json(o.reference);
    j["deviation"] = o.kind == OutlierKind::kFigure ? Json(o.deviation) : Json(nullptr);
    j["detail"] = o.detail.empty() ? Json(nullptr) : Json(o.detail);
    outliers.push_back(std::move(j));
  }
  doc["outliers"] = std::move(outliers);
  Json skipped = Json::array();
  for (const auto& f : s.skipped) skipped.push_back({{"file", f.file}, {"reason", f.reason}});
  doc["skipped"] = std::move(skipped);
  doc["exit_code"] = s.exit_code;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
