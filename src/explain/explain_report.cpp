// Rendering the explain report as text (for people) and JSON (for tools, docs/explain-json.md).
#include "explain/explain_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "explain/command_placeholders.h"
#include "explain/specific_fix.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

const char* Colour(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "\x1b[36m";
    case Severity::kWarning:
      return "\x1b[33m";
    case Severity::kError:
      return "\x1b[31m";
    case Severity::kOk:
      break;
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

void AppendCommands(const ShellCommands& c, bool windows, std::string& out) {
  if (windows) {
    if (!c.powershell.empty())
      out += Indent(c.powershell, "    PS> ") + "\n";
    else if (!c.cmd.empty())
      out += Indent(c.cmd, "    C:\\> ") + "\n";
  } else if (!c.bash.empty()) {
    out += Indent(c.bash, "    $ ") + "\n";
  }
}

// A harmless entry that names a traceback frame (`File "...", line N, in f`) marks a traceback the library
// caught and logged itself (xFormers prints its failed `import triton`): the exception line that ends it, a
// few lines below, is not the program's failure.
constexpr uint64_t kCaughtTracebackLines = 40;

bool EndsACaughtTraceback(const ExplainMatch& fallback, const std::vector<ExplainMatch>& matches) {
  return std::any_of(matches.begin(), matches.end(), [&](const ExplainMatch& h) {
    return h.entry->harmless && h.excerpt.find("File \"") != std::string::npos &&
           h.excerpt.find(", in ") != std::string::npos && fallback.first_line > h.first_line &&
           fallback.first_line - h.first_line <= kCaughtTracebackLines;
  });
}

// Fallback matches (generic failure shapes) only speak when nothing else found a problem, and then only
// the last one: a traceback's final exception line is the failure, the earlier ones its context.
std::vector<ExplainMatch> WithoutRedundantFallbacks(const std::vector<ExplainMatch>& matches) {
  const bool real_problem = std::any_of(matches.begin(), matches.end(), [](const ExplainMatch& m) {
    return !m.entry->fallback && !m.entry->harmless && m.entry->severity != Severity::kInfo;
  });
  const ExplainMatch* last = nullptr;
  for (const ExplainMatch& m : matches)
    if (m.entry->fallback && (last == nullptr || m.first_line > last->first_line)) last = &m;
  const bool last_was_caught = last != nullptr && EndsACaughtTraceback(*last, matches);
  std::vector<ExplainMatch> out;
  for (const ExplainMatch& m : matches)
    if (!m.entry->fallback || (!real_problem && !last_was_caught && &m == last)) out.push_back(m);
  return out;
}

// The parts of the GPU stack the failing line names (components.toml, two at most), and how to see their
// state: where to look next when no entry knows the failure.
std::string ComponentAdvice(std::string_view failing_line, const KnowledgeDb& db) {
  std::string out;
  size_t named = 0;
  for (const StackComponent* c : db.ComponentsNamedIn(failing_line)) {
    if (named++ == 2) break;
    out += "The failing line names " + c->name + " (" + c->what + "): " + c->state + " shows its state. ";
  }
  return out;
}

// What can be said of a failure no entry knows: the components its failing line names, the packages in its
// traceback and the log's versions.
std::string FallbackAdvice(const std::vector<LogFact>& log_facts, std::string_view failing_line,
                           const KnowledgeDb& db) {
  std::string packages, versions;
  for (const LogFact& f : log_facts) {
    if (f.kind == "package") packages += (packages.empty() ? "" : ", ") + f.value;
    if (f.kind == "torch" || f.kind == "cuda" || f.kind == "rocm" || f.kind == "driver" || f.kind == "python")
      versions += (versions.empty() ? "" : ", ") + f.kind + " " + f.value;
  }
  std::string out = ComponentAdvice(failing_line, db);
  if (!packages.empty()) out += "Packages in the failing lines: " + packages + ". ";
  if (!versions.empty()) out += "Versions the log states: " + versions + ". ";
  if (out.empty())
    out =
        "The log names no package or version: paste more of it (the lines above the error) with gpudoctor "
        "check's report. ";
  return out + "Check the last package named against the installed torch, CUDA/ROCm and GPU first.";
}

// The known-harmless messages seen, on one line: they are named so that nobody chases them.
std::string HarmlessLine(const ExplainReport& report) {
  if (report.harmless.empty()) return "";
  std::string out = "  Harmless here (not problems):";
  for (const ExplainMatch& m : report.harmless)
    out += " " + m.entry->title + " (line " + std::to_string(m.first_line) + ");";
  return out + "\n";
}

}  // namespace

ExplainReport BuildExplainReport(const std::vector<ExplainMatch>& matches, const ScanStats& stats,
                                 const Snapshot& snap, const KnowledgeDb& db,
                                 const std::vector<LogFact>& log_facts, bool here) {
  ExplainReport r;
  r.stats = stats;
  r.log_facts = log_facts;
  if (!here) r.log_machine = CompareLogWithMachine(log_facts, snap);
  const bool other = r.log_machine.other_machine;
  r.windows = snap.os.family == OsFamily::kWindows;
  if (other || snap.os.family == OsFamily::kUnknown)
    r.windows = LogSaysWindows(log_facts);  // the log's platform decides the shell of the fixes
  bool portable = false;
  for (const LogFact& f : log_facts) portable = portable || f.kind == "portable";
  std::vector<ExplainMatch> ranked = WithoutRedundantFallbacks(matches);
  RankExplainMatches(ranked);  // most severe, then highest priority, then first appearance
  const TargetMachineUse use = here    ? TargetMachineUse::kMachineFirst
                               : other ? TargetMachineUse::kLogOnly
                                       : TargetMachineUse::kLogThenMachine;
  for (const ExplainMatch& m : ranked) {
    if (m.entry->harmless) {
      r.harmless.push_back(m);
      continue;
    }
    ExplainedMatch em;
    em.match = m;
    em.facts_about = other ? "the log's machine" : "";
    if (!other) em.facts = FactsForMatch(m, snap, db);
    if (m.entry->fix_for_target) {
      for (const FixTarget& t : ChooseFixTargets(m, log_facts, snap, use, db))
        em.target_fixes.push_back(FixForTarget(t, r.windows, db));
      if (em.target_fixes.empty()) em.target_fixes.push_back(FixForUnknownTarget(r.windows));
    }
    if (m.entry->wheel_fix != ExplainEntry::WheelFixKind::kNone)
      em.wheel_fix = WheelFixFor(m, log_facts, snap, use, FixPlatform{r.windows, r.windows && portable},
                                 m.entry->wheel_fix == ExplainEntry::WheelFixKind::kReinstall, db);
    if (m.entry->loader_fix) em.loader_fix = LoaderFixFor(m, log_facts, r.windows, db);
    if (m.entry->fallback) em.fallback_advice = FallbackAdvice(log_facts, m.excerpt, db);
    em.specific_fix = SpecificFix(m, ranked, log_facts, db);
    em.commands = FillCommandPlaceholders(*m.entry, m);
    r.matches.push_back(std::move(em));
  }
  if (r.matches.empty() && !other) r.summary = HelpSummary(snap);
  r.tool_version = snap.tool_version;
  r.knowledge_as_of = db.AsOf();
  r.knowledge_origin = db.origin;
  return r;
}

int ExplainExitCode(const ExplainReport& report) {
  int code = 0;
  for (const ExplainedMatch& m : report.matches) {
    if (m.match.entry->severity == Severity::kError) code = std::max(code, 2);
    if (m.match.entry->severity == Severity::kWarning) code = std::max(code, 1);
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
    return out + HarmlessLine(report);
  }
  const std::string about = report.log_machine.other_machine ? "the log's machine" : report.machine;
  out += std::to_string(report.matches.size()) + " known problem" + (report.matches.size() == 1 ? "" : "s") +
         " in " + report.input_name + " (" + lines + "), explained for " + about + ":\n";
  if (report.log_machine.other_machine)
    out += "  The log is from another machine than " + report.machine + " (" + report.log_machine.reason +
           "): the facts below are the log's; --here uses " + report.machine + "'s.\n";
  out += HarmlessLine(report);
  if (!report.log_facts.empty()) {
    out += "  The log states:";
    for (const LogFact& f : report.log_facts)
      out += " " + f.kind + "=" + f.value + " (line " + std::to_string(f.line) + ");";
    out += "\n";
  }
  for (const ExplainedMatch& em : report.matches) {
    const ExplainMatch& m = em.match;
    const ExplainEntry& e = *m.entry;
    out += "\n" + (color ? std::string(Colour(e.severity)) : "") + ToString(e.severity) + reset + "  " +
           bold + e.title + reset + "  [" + e.id + "]\n";
    out += "  line " + std::to_string(m.first_line) +
           (m.count > 1 ? " (and " + std::to_string(m.count - 1) + " more)" : "") + ": " + m.excerpt + "\n";
    if (m.context.refined != nullptr)
      out += "  with line " + std::to_string(m.context.line) + ": " + m.context.excerpt + "\n  (refines [" +
             m.context.refined->id + "])\n";
    if (!m.captures.empty()) {
      out += "  found:";
      for (const auto& [k, v] : m.captures) out += " " + k + "=" + v;
      out += "\n";
    }
    out += Indent("Cause: " + e.cause, "  ") + "\n";
    out += Indent("Fix: " + e.fix, "  ") + "\n";
    // A command filled from the log's facts replaces the entry's general one.
    const bool filled = em.wheel_fix && (report.windows ? !em.wheel_fix->commands.powershell.empty()
                                                        : !em.wheel_fix->commands.bash.empty());
    if (em.wheel_fix)
      out += Indent((em.wheel_fix->gpu.empty() && !em.wheel_fix->python.empty()
                         ? "For Python " + em.wheel_fix->python + ": "
                         : "") +
                        em.wheel_fix->advice,
                    "  ") +
             "\n";
    AppendCommands(filled ? em.wheel_fix->commands : em.commands, report.windows, out);
    for (const TargetFix& t : em.target_fixes) {
      out += Indent((t.gfx.empty() ? "Target unknown: " : "For " + t.gfx + " (from " + t.from + "): ") +
                        t.advice,
                    "  ") +
             "\n";
      AppendCommands(t.commands, report.windows, out);
    }
    if (!em.specific_fix.empty()) out += Indent("Here: " + em.specific_fix, "  ") + "\n";
    if (!em.fallback_advice.empty()) out += Indent(em.fallback_advice, "  ") + "\n";
    if (em.loader_fix) {
      out += Indent(em.loader_fix->advice, "  ") + "\n";
      AppendCommands(em.loader_fix->commands, report.windows, out);
    }
    if (!em.facts.empty()) {
      out += "  On " + (em.facts_about.empty() ? report.machine : em.facts_about) + ":\n";
      for (const FactLine& f : em.facts) out += "    - " + f.text + "\n";
    }
    out += "  Source: " + e.sources.front() + "\n";
  }
  return out;
}

namespace {

// A fix's commands per shell (bash, PowerShell, cmd), only those it has.
Json ShellCommandsJson(const ShellCommands& c) {
  Json cmds = Json::object();
  if (!c.bash.empty()) cmds["bash"] = c.bash;
  if (!c.powershell.empty()) cmds["powershell"] = c.powershell;
  if (!c.cmd.empty()) cmds["cmd"] = c.cmd;
  return cmds;
}

Json OrNull(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

Json TargetFixesJson(const std::vector<TargetFix>& fixes) {
  Json out = Json::array();
  for (const TargetFix& t : fixes)
    out.push_back(Json{{"gfx", OrNull(t.gfx)},
                       {"from", OrNull(t.from)},
                       {"advice", t.advice},
                       {"commands", ShellCommandsJson(t.commands)}});
  return out;
}

Json WheelFixJson(const WheelFix& w) {
  return Json{{"gpu", OrNull(w.gpu)},
              {"variant", OrNull(w.variant)},
              {"index_url", OrNull(w.index_url)},
              {"torch", OrNull(w.torch)},
              {"python", OrNull(w.python)},
              {"advice", w.advice},
              {"commands", ShellCommandsJson(w.commands)}};
}

Json LoaderFixJson(const LoaderFix& l) {
  return Json{{"library", OrNull(l.library)},
              {"component", OrNull(l.component)},
              {"requester", OrNull(l.requester)},
              {"route", l.route},
              {"advice", l.advice},
              {"commands", ShellCommandsJson(l.commands)}};
}

// One match as the JSON report lists it: the entry, where it matched, and every fix for this log.
Json MatchJson(const ExplainedMatch& em, const ExplainReport& report) {
  const ExplainEntry& e = *em.match.entry;
  Json captures = Json::object();
  for (const auto& [k, v] : em.match.captures) captures[k] = v;
  Json facts = Json::array();
  for (const FactLine& f : em.facts) facts.push_back(Json{{"fact", f.fact}, {"text", f.text}});
  const Json target_fixes = TargetFixesJson(em.target_fixes);
  const Json wheel_fix = em.wheel_fix ? WheelFixJson(*em.wheel_fix) : Json(nullptr);
  const Json loader_fix = em.loader_fix ? LoaderFixJson(*em.loader_fix) : Json(nullptr);
  Json context = nullptr;
  if (em.match.context.refined != nullptr)
    context = Json{{"refines", em.match.context.refined->id},
                   {"line", em.match.context.line},
                   {"excerpt", em.match.context.excerpt}};
  return Json{{"id", e.id},
              {"area", e.area},
              {"severity", ToString(e.severity)},
              {"title", e.title},
              {"first_line", em.match.first_line},
              {"count", em.match.count},
              {"excerpt", em.match.excerpt},
              {"captures", captures},
              {"context", context},
              {"cause", e.cause},
              {"fix", e.fix},
              {"commands", ShellCommandsJson(em.commands)},
              {"target_fixes", target_fixes},
              {"wheel_fix", wheel_fix},
              {"loader_fix", loader_fix},
              {"fallback_advice", em.fallback_advice.empty() ? Json(nullptr) : Json(em.fallback_advice)},
              {"specific_fix", em.specific_fix.empty() ? Json(nullptr) : Json(em.specific_fix)},
              {"facts", facts},
              {"facts_about", em.facts_about.empty() ? report.machine : em.facts_about},
              {"sources", e.sources},
              {"catalog", e.file + ":" + std::to_string(e.line)}};
}

}  // namespace

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
  for (const ExplainedMatch& em : report.matches) matches.push_back(MatchJson(em, report));
  doc["matches"] = matches;
  Json harmless = Json::array();
  for (const ExplainMatch& m : report.harmless)
    harmless.push_back(Json{{"id", m.entry->id},
                            {"title", m.entry->title},
                            {"first_line", m.first_line},
                            {"count", m.count},
                            {"excerpt", m.excerpt}});
  doc["harmless"] = harmless;
  Json log_facts = Json::array();
  for (const LogFact& f : report.log_facts)
    log_facts.push_back(Json{{"kind", f.kind}, {"value", f.value}, {"line", f.line}, {"excerpt", f.excerpt}});
  doc["log_facts"] = log_facts;
  doc["log_machine"] =
      Json{{"other_machine", report.log_machine.other_machine}, {"reason", report.log_machine.reason}};
  Json summary = Json::array();
  for (const SummaryLine& s : report.summary) summary.push_back(Json{{"label", s.label}, {"value", s.value}});
  doc["summary"] = summary;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
