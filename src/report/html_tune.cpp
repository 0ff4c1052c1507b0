// Renders the tune section (html_tune.h) with the report's escaping helpers.
#include "report/html_tune.h"

#include <cstdio>

#include "report/chart_scale.h"
#include "report/html_parts.h"

namespace gpudoctor {
namespace {

std::string Figure(const std::optional<double>& v) {
  return v ? FormatFigure(*v) : std::string("n/a");
}

std::string Change(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", *v);
  return buf;
}

}  // namespace

std::string RenderTuneSection(const TuneDocument& t, const std::string& origin) {
  std::string out =
      "<section id=\"tune\" class=\"report-section\">\n<h2>Tune: the training knobs measured in "
      "PyTorch</h2>\n";
  std::vector<std::pair<std::string, std::string>> facts = {
      {"From", origin},
      {"Device", t.device.empty() ? "n/a" : t.device + (t.backend.empty() ? "" : " (" + t.backend + ")")},
      {"PyTorch", t.torch_version.empty() ? "n/a" : t.torch_version},
      {"Environment", t.python_env.empty() ? "n/a" : t.python_env},
      {"Status", t.status.empty() ? "n/a" : t.status}};
  if (t.elapsed_ms) facts.push_back({"Duration", FormatFigure(*t.elapsed_ms / 1000) + " s"});
  out += FactList(facts);
  for (const auto& m : t.models) {
    out += Element("h3", "", m.model + " (" + m.unit + ")");
    HtmlTable table("tune-table", {"knob", "without", m.unit, "with", m.unit, "change", "use", "why"});
    for (const auto& k : m.knobs)
      table.AddRow(
          {k.knob, k.without, Figure(k.without_rate), k.with, Figure(k.with_rate), Change(k.change_percent),
           Raw{k.recommended ? Badge(BadgeKind::kGood, "yes") : Badge(BadgeKind::kMuted, "no")}, k.why});
    out += table.Render();
    std::string rec = m.recommended_precision.empty() ? "n/a" : m.recommended_precision;
    if (m.recommended_channels_last) rec += ", channels_last";
    if (m.recommended_benchmark) rec += ", cudnn.benchmark";
    rec += ", batch " + Figure(m.recommended_batch) + ": " + Figure(m.recommended_rate) + " " + m.unit;
    std::string generic =
        "fp32, batch " + Figure(m.generic_batch) + ": " + Figure(m.generic_rate) + " " + m.unit;
    if (m.generic_rate && m.recommended_rate && *m.generic_rate > 0)
      generic += " (the recommendation is " + FormatFigure(*m.recommended_rate / *m.generic_rate) + "x)";
    out += FactList(
        {{"Recommended", rec}, {"Generic advice", generic}, {"Largest batch", Figure(m.largest_batch)}});
  }
  if (!t.python_lines.empty()) {
    std::string code;
    for (const auto& l : t.python_lines) code += l + "\n";
    out += Element("h3", "", "In the training script");
    out += Element("pre", "", code);
  }
  if (!t.problems.empty()) {
    out += Element("h3", "", "Problems");
    HtmlTable problems("tune-problems", {"severity", "id", "what"});
    for (const auto& p : t.problems)
      problems.AddRow({Raw{Badge(p.severity == "error" ? BadgeKind::kBad : BadgeKind::kWarn, p.severity)},
                       p.id, p.title});
    out += problems.Render();
  }
  return out + "</section>\n";
}

}  // namespace gpudoctor
