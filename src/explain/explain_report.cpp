// Rendering the explain report as text (for people) and JSON (for tools, docs/explain-json.md).
#include "explain/explain_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

const char* Colour(ExplainSeverity s) {
  switch (s) {
    case ExplainSeverity::kInfo:
      return "\x1b[36m";
    case ExplainSeverity::kWarning:
      return "\x1b[33m";
    case ExplainSeverity::kError:
      return "\x1b[31m";
  }
  return "";
}

std::string Indent(const std::string& text, const std::string& prefix) {
  std::string out = prefix;
  for (char c : text) {
    out.push_back(c);
    if (c == '\n') out += prefix;
  }
  return out;
}

void AppendCommands(const ExplainCommands& c, bool windows, std::string& out) {
  if (windows) {
    if (!c.powershell.empty())
      out += Indent(c.powershell, "    PS> ") + "\n";
    else if (!c.cmd.empty())
      out += Indent(c.cmd, "    C:\\> ") + "\n";
  } else if (!c.bash.empty()) {
    out += Indent(c.bash, "    $ ") + "\n";
  }
}

}  // namespace

ExplainReport BuildExplainReport(const std::vector<ExplainMatch>& matches, const ScanStats& stats,
                                 const Snapshot& snap, const KnowledgeDb& db) {
  ExplainReport r;
  r.stats = stats;
  r.windows = snap.os.family == "windows";
  for (const ExplainMatch& m : matches) r.matches.push_back(ExplainedMatch{m, FactsForMatch(m, snap, db)});
  // Most severe first; within a severity, in order of appearance.
  std::stable_sort(r.matches.begin(), r.matches.end(), [](const ExplainedMatch& a, const ExplainedMatch& b) {
    return static_cast<int>(a.match.entry->severity) > static_cast<int>(b.match.entry->severity);
  });
  if (matches.empty()) r.summary = HelpSummary(snap);
  r.tool_version = snap.tool_version;
  r.knowledge_as_of = db.AsOf();
  r.knowledge_origin = db.origin;
  return r;
}

int ExplainExitCode(const ExplainReport& report) {
  int code = 0;
  for (const ExplainedMatch& m : report.matches) {
    if (m.match.entry->severity == ExplainSeverity::kError) code = std::max(code, 2);
    if (m.match.entry->severity == ExplainSeverity::kWarning) code = std::max(code, 1);
  }
  return code;
}

std::string RenderExplainText(const ExplainReport& report, bool color) {
  const std::string reset = color ? "\x1b[0m" : "", bold = color ? "\x1b[1m" : "";
  std::string out;
  if (!report.knowledge_as_of.empty())
    out += "knowledge base as of " + report.knowledge_as_of + " (" + report.knowledge_origin + ")\n";
  const std::string lines =
      std::to_string(report.stats.lines) + (report.stats.lines == 1 ? " line" : " lines");
  if (report.matches.empty()) {
    out += "No known problem matched in " + report.input_name + " (" + lines +
           " read). gpudoctor does not guess; when you ask for help, paste the message with these facts (" +
           report.machine + "):\n";
    size_t width = 0;
    for (const SummaryLine& s : report.summary) width = std::max(width, s.label.size());
    for (const SummaryLine& s : report.summary)
      out += "  " + s.label + ":" + std::string(width - s.label.size() + 1, ' ') + s.value + "\n";
    return out;
  }
  out += std::to_string(report.matches.size()) + " known problem" + (report.matches.size() == 1 ? "" : "s") +
         " in " + report.input_name + " (" + lines + "), explained for " + report.machine + ":\n";
  for (const ExplainedMatch& em : report.matches) {
    const ExplainMatch& m = em.match;
    const ExplainEntry& e = *m.entry;
    out += "\n" + (color ? std::string(Colour(e.severity)) : "") + ToString(e.severity) + reset + "  " +
           bold + e.title + reset + "  [" + e.id + "]\n";
    out += "  line " + std::to_string(m.first_line) +
           (m.count > 1 ? " (and " + std::to_string(m.count - 1) + " more)" : "") + ": " + m.excerpt + "\n";
    if (!m.captures.empty()) {
      out += "  found:";
      for (const auto& [k, v] : m.captures) out += " " + k + "=" + v;
      out += "\n";
    }
    out += Indent("Cause: " + e.cause, "  ") + "\n";
    out += Indent("Fix: " + e.fix, "  ") + "\n";
    AppendCommands(e.commands, report.windows, out);
    if (!em.facts.empty()) {
      out += "  On " + report.machine + ":\n";
      for (const FactLine& f : em.facts) out += "    - " + f.text + "\n";
    }
    out += "  Source: " + e.sources.front() + "\n";
  }
  return out;
}

std::string RenderExplainJson(const ExplainReport& report) {
  Json doc;
  doc["schema_version"] = kExplainJsonSchemaVersion;
  doc["tool_version"] = report.tool_version;
  doc["input"] = Json{{"name", report.input_name},
                      {"bytes", report.stats.bytes},
                      {"lines", report.stats.lines},
                      {"prefilter_hits", report.stats.prefilter_hits},
                      {"regex_runs", report.stats.regex_runs},
                      {"regex_failures", report.stats.regex_failures}};
  doc["machine"] = report.machine;
  doc["knowledge"] =
      Json{{"as_of", report.knowledge_as_of.empty() ? Json(nullptr) : Json(report.knowledge_as_of)},
           {"origin", report.knowledge_origin.empty() ? Json(nullptr) : Json(report.knowledge_origin)}};
  doc["exit_code"] = ExplainExitCode(report);
  Json matches = Json::array();
  for (const ExplainedMatch& em : report.matches) {
    const ExplainEntry& e = *em.match.entry;
    Json captures = Json::object();
    for (const auto& [k, v] : em.match.captures) captures[k] = v;
    Json commands = Json::object();
    if (!e.commands.bash.empty()) commands["bash"] = e.commands.bash;
    if (!e.commands.powershell.empty()) commands["powershell"] = e.commands.powershell;
    if (!e.commands.cmd.empty()) commands["cmd"] = e.commands.cmd;
    Json facts = Json::array();
    for (const FactLine& f : em.facts) facts.push_back(Json{{"fact", f.fact}, {"text", f.text}});
    matches.push_back(Json{{"id", e.id},
                           {"area", e.area},
                           {"severity", ToString(e.severity)},
                           {"title", e.title},
                           {"first_line", em.match.first_line},
                           {"count", em.match.count},
                           {"excerpt", em.match.excerpt},
                           {"captures", captures},
                           {"cause", e.cause},
                           {"fix", e.fix},
                           {"commands", commands},
                           {"facts", facts},
                           {"sources", e.sources},
                           {"catalog", e.file + ":" + std::to_string(e.line)}});
  }
  doc["matches"] = matches;
  Json summary = Json::array();
  for (const SummaryLine& s : report.summary) summary.push_back(Json{{"label", s.label}, {"value", s.value}});
  doc["summary"] = summary;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
