// Renders the tune section (html_tune.h) with the report's escaping helpers.
#include "report/html_tune.h"

#include <cstdio>

#include "report/chart_scale.h"
#include "report/html_parts.h"

namespace gpudoctor {
namespace {

std::string TuneFigure(const std::optional<double>& v) {
  return v ? FormatFigure(*v) : std::string("n/a");
}

std::string Change(const std::optional<double>& v) {
  if (!v) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", *v);
  return buf;
}

std::string Or(const std::string& s) {
  return s.empty() ? "n/a" : s;
}

}  // namespace

std::string RenderTuneSection(const TuneResult& t, const std::string& origin) {
  const std::optional<TuneHello>& hello = t.run.output.hello;
  std::string out =
      "<section id=\"tune\" class=\"report-section\">\n<h2>Tune: the training knobs measured in "
      "PyTorch</h2>\n";
  std::vector<std::pair<std::string, std::string>> facts = {
      {"From", origin},
      {"Device", !hello || hello->device.empty()
                     ? "n/a"
                     : hello->device + (hello->backend.empty() ? "" : " (" + hello->backend + ")")},
      {"PyTorch", hello ? Or(hello->torch_version) : "n/a"},
      {"Environment", Or(t.python_env)},
      {"Status", Or(t.run.status)}};
  if (t.run.elapsed_ms)
    facts.push_back({"Duration", FormatFigure(static_cast<double>(t.run.elapsed_ms) / 1000) + " s"});
  out += FactList(facts);
  for (const auto& m : t.advice.models) {
    out += Element("h3", "", m.model + " (" + m.unit + ")");
    HtmlTable table("tune-table", {"knob", "without", m.unit, "with", m.unit, "change", "use", "why"});
    for (const auto& k : m.knobs)
      table.AddRow({k.knob, k.without, TuneFigure(k.without_rate), k.with, TuneFigure(k.with_rate),
                    Change(k.change_percent),
                    Raw{k.recommended ? Badge(BadgeKind::kGood, "yes") : Badge(BadgeKind::kMuted, "no")},
                    k.why});
    out += table.Render();
    std::string rec = m.precision;
    if (m.channels_last) rec += ", channels_last";
    if (m.benchmark) rec += ", cudnn.benchmark";
    if (m.tf32) rec += ", TF32";
    if (m.fused) rec += ", fused SGD";
    if (!m.sdpa.empty()) rec += ", " + m.sdpa + " attention";
    if (!m.compile.empty()) rec += ", torch.compile" + (m.compile == "default" ? "" : " " + m.compile);
    rec += ", batch " + std::to_string(m.batch) + ": " + TuneFigure(m.recommended_rate) + " " + m.unit;
    std::string generic = m.generic_batch ? "fp32, batch " + std::to_string(m.generic_batch) + ": " +
                                                TuneFigure(m.generic_rate) + " " + m.unit
                                          : std::string("not measured");
    if (m.generic_rate && m.recommended_rate && *m.generic_rate > 0)
      generic += " (the recommendation is " + FormatFigure(*m.recommended_rate / *m.generic_rate) + "x)";
    std::optional<double> largest;
    if (m.largest_batch) largest = *m.largest_batch;
    std::vector<std::pair<std::string, std::string>> model_facts = {
        {"Recommended", rec}, {"Generic advice", generic}, {"Largest batch", TuneFigure(largest)}};
    // The knob rows' batch: a quarter of the recommended one, where the GPU rather than Python is the
    // bottleneck.
    if (const std::string cost = TuneCostLabel(m); !cost.empty()) model_facts.push_back({"It costs", cost});
    if (m.knob_batch)
      model_facts.insert(model_facts.begin(), {"Knobs timed at", "batch " + std::to_string(m.knob_batch)});
    out += FactList(model_facts);
  }
  if (!t.advice.python_lines.empty() || !t.advice.env.empty()) {
    std::string code;
    for (const auto& [name, value] : t.advice.env) code += "export " + name + "=" + value + "\n";
    for (const auto& l : t.advice.python_lines) code += l + "\n";
    out += Element("h3", "", "In the shell and the training script");
    out += Element("pre", "", code);
  }
  if (!t.advice.notes.empty()) {
    out += Element("h3", "", "Notes");
    for (const auto& n : t.advice.notes) out += Element("p", "", n);
  }
  if (!t.run.problems.empty()) {
    out += Element("h3", "", "Problems");
    HtmlTable problems("tune-problems", {"severity", "id", "what"});
    for (const auto& p : t.run.problems)
      problems.AddRow({Raw{Badge(p.severity == Severity::kError ? BadgeKind::kBad : BadgeKind::kWarn,
                                 ToString(p.severity))},
                       p.id, p.title});
    out += problems.Render();
  }
  return out + "</section>\n";
}

}  // namespace gpudoctor
