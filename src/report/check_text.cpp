// Renders check findings for people: a doctor-style line per layer ([ok], [i], [!], [x]), the
// problems in detail (evidence, fix commands for the chosen shell, source), then what passed.
#include "report/check_text.h"

#include "core/printable.h"

#include "core/strings.h"
#include "report/text_parts.h"

namespace gpudoctor {
namespace {

const char* Marker(Severity s) {
  switch (s) {
    case Severity::kOk:
      return "[ok]";
    case Severity::kInfo:
      return "[i]";
    case Severity::kWarning:
      return "[!]";
    case Severity::kError:
      return "[x]";
  }
  return "[?]";
}

const char* Color(Severity s) {
  switch (s) {
    case Severity::kOk:
      return "\033[32m";
    case Severity::kInfo:
      return "\033[36m";
    case Severity::kWarning:
      return "\033[33m";
    case Severity::kError:
      return "\033[31m";
  }
  return "";
}

std::string Mark(Severity s, const TextStyle& style) {
  return style.color ? std::string(Color(s)) + Marker(s) + "\033[0m" : Marker(s);
}

std::string Bold(const std::string& text, const TextStyle& style) {
  return style.color ? "\033[1m" + text + "\033[0m" : text;
}

// "unconfirmed: rests on overrides.toml:45, not yet compared with its source", or "".
std::string UnconfirmedLine(const Finding& f, const std::string& indent) {
  if (f.unconfirmed.empty()) return "";
  std::string where;
  for (const auto& u : f.unconfirmed) where += (where.empty() ? "" : ", ") + u;
  return indent + "unconfirmed: rests on " + where + ", not yet compared with " +
         (f.unconfirmed.size() == 1 ? "its source" : "their sources") + "\n";
}

std::string FindingBlock(const Finding& f, Shell shell, const TextStyle& style) {
  std::string out = Mark(f.severity, style) + " " + Bold(f.title, style) + "\n";
  out += "    id: " + f.id + (f.subject.empty() ? "" : "   about: " + f.subject) + "\n";
  for (const auto& e : f.evidence) out += "    - " + e + "\n";
  if (!f.fix.empty() || !f.fix_summary.empty()) {
    out += "    fix" + std::string(f.fix.empty() ? "" : std::string(" (") + ToString(shell) + ")") + ": " +
           f.fix_summary + "\n";
    for (const auto& line : RenderFix(f.fix, shell))
      out += (line.command ? "      " : "      # ") + line.text + "\n";
  }
  for (const auto& alt : f.alternatives) {
    out += "    or" + std::string(alt.fix.empty() ? "" : std::string(" (") + ToString(shell) + ")") + ": " +
           alt.summary + "\n";
    for (const auto& line : RenderFix(alt.fix, shell))
      out += (line.command ? "      " : "      # ") + line.text + "\n";
  }
  out += UnconfirmedLine(f, "    ");
  if (!f.link.empty()) out += "    source: " + f.link + "\n";
  return out;
}

// The finding's lines as the terminal will show them: subjects, titles and evidence quote machine strings
// (GPU names, paths, environment values) that could carry escape sequences or line breaks (issue 35).
void MakePrintable(Finding& f) {
  f.subject = Printable(f.subject);
  f.title = Printable(f.title);
  f.fix_summary = Printable(f.fix_summary);
  for (std::string& line : f.evidence) line = Printable(line);
}

}  // namespace

std::vector<LayerSummary> SummarizeLayers(const std::vector<Finding>& findings) {
  std::vector<LayerSummary> out;
  for (Layer layer : {Layer::kHardware, Layer::kRuntime, Layer::kFramework, Layer::kEnvironment}) {
    LayerSummary s;
    s.layer = layer;
    const Finding* worst = nullptr;
    size_t problems = 0;
    for (const auto& f : findings) {
      if (f.layer != layer) continue;
      if (f.severity >= Severity::kWarning) ++problems;
      if (!worst || f.severity > worst->severity) worst = &f;
    }
    if (!worst) {
      s.text = "nothing to check";
    } else {
      s.severity = worst->severity;
      s.text = worst->title;
      if (problems > 1) s.text += " (+" + std::to_string(problems - 1) + " more)";
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string RenderCheckText(const Snapshot& snap, std::vector<Finding> findings, Shell shell,
                            const TextStyle& style, const KnowledgeStamp& knowledge) {
  SortWorstFirst(findings);
  for (Finding& f : findings) MakePrintable(f);
  std::string out = "gpudoctor check: " +
                    (snap.host_name.empty() ? std::string("this machine") : Printable(snap.host_name));
  if (!snap.live_machine) out += " (recorded: " + Printable(snap.sysroot) + ")";
  out += "\n";
  if (!knowledge.as_of.empty())
    out += "knowledge base as of " + knowledge.as_of + " (" + knowledge.origin + ")\n";
  out += "\n";
  for (const auto& s : SummarizeLayers(findings))
    out += Mark(s.severity, style) + " " + LayerTitle(s.layer) + ": " + s.text + "\n";

  size_t errors = 0, warnings = 0, infos = 0;
  for (const auto& f : findings) {
    errors += f.severity == Severity::kError;
    warnings += f.severity == Severity::kWarning;
    infos += f.severity == Severity::kInfo;
  }
  if (errors + warnings + infos > 0) {
    out += "\n" + Bold("Findings, worst first", style) + "\n";
    for (const auto& f : findings)
      if (f.severity != Severity::kOk) out += "\n" + FindingBlock(f, shell, style);
  }
  bool any_ok = false;
  for (const auto& f : findings) {
    if (f.severity != Severity::kOk) continue;
    if (!any_ok) out += "\n" + Bold("Checked and fine", style) + "\n";
    any_ok = true;
    out += "  " + Mark(f.severity, style) + " " + f.title + "   (" + f.id + ")\n";
    for (const auto& e : f.evidence) out += "       - " + e + "\n";
    out += UnconfirmedLine(f, "       ");
  }
  if (!snap.warnings.empty()) {
    out += "\n" + Bold("Inputs that could not be read", style) + "\n";
    for (const auto& w : snap.warnings) out += "  - " + w + "\n";
  }
  out += "\n";
  if (errors + warnings == 0) {
    out += "Verdict: no problems found";
    if (infos) out += " (" + Plural(infos, "note") + ")";
  } else {
    out += "Verdict: " + Plural(errors, "error") + ", " + Plural(warnings, "warning") + ", " +
           Plural(infos, "note");
  }
  out += ". `gpudoctor check --explain ID` tells more about a finding.\n";
  return out;
}

std::string RenderRuleExplanation(const RuleInfo& info) {
  std::string out = std::string(info.id) + " (" + LayerTitle(info.layer) + ")\n\n";
  out += "What it checks: " + std::string(info.checks) + "\n";
  if (!info.why.empty()) out += "Why it matters: " + std::string(info.why) + "\n";
  if (!info.source.empty()) out += "Source: " + std::string(info.source) + "\n";
  return out;
}

}  // namespace gpudoctor
