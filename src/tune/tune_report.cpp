// Renders a tune run as text (tune_report.h). Rates are printed with their unit; a missing one is "n/a".
#include "tune/tune_report.h"

#include <cmath>
#include <cstdio>

#include "core/text_table.h"

namespace gpudoctor {
namespace {

std::string Rate(std::optional<double> r) {
  if (!r) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, *r >= 100 ? "%.0f" : "%.1f", *r);
  return buf;
}

}  // namespace

std::vector<std::string> TuneEnvLines(const TuneAdvice& advice, Shell shell) {
  std::vector<std::string> lines;
  for (const auto& [name, value] : advice.env) lines.push_back(SetEnvLine(name, value, shell));
  return lines;
}

std::string RenderTuneText(const TuneRun& run, const TuneAdvice& advice, const TuneReportContext& ctx) {
  std::string out;
  const TuneChildOutput& o = run.output;
  if (o.hello) {
    out += "gpudoctor tune: " + o.hello->device + " (" + o.hello->backend + "), torch " +
           o.hello->torch_version +
           (o.hello->torchvision_version.empty() ? "" : ", torchvision " + o.hello->torchvision_version) +
           ", " + o.hello->size + " sizes\n";
  } else {
    out += "gpudoctor tune\n";
  }
  out += "  environment: " + ctx.python_env + " (" + run.interpreter + ")\n";
  if (o.hello)
    out += "  each figure: timed training steps after untimed warm-up steps, synthetic data (" +
           std::to_string(o.hello->timed_steps) + " after " + std::to_string(o.hello->warmup_steps) +
           " at the guides' batch; about as many samples at a larger batch)\n";
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f s", static_cast<double>(run.elapsed_ms) / 1000);
  out += "  took: " + std::string(elapsed) + "\n";

  for (const auto& m : advice.models) {
    out += "\n" + m.model + " (" + m.unit + ")";
    if (m.knob_batch)
      out += ", knobs timed at batch " + std::to_string(m.knob_batch) +
             (m.knob_batch > m.generic_batch ? " (the guides' batch " + std::to_string(m.generic_batch) +
                                                   " can leave a fast GPU waiting on Python)"
                                             : "");
    out += "\n";
    TextTable table({"knob", "without", m.unit, "with", m.unit, "change", "use", "why"});
    for (const auto& k : m.knobs)
      table.AddRow({k.knob, k.without, Rate(k.without_rate), k.with, Rate(k.with_rate),
                    k.change_percent ? FormatChange(*k.change_percent) : "n/a", k.recommended ? "yes" : "no",
                    k.why});
    out += table.Render();
    out += "  recommended: " + TuneSettingsLabel(m) + ": " + Rate(m.recommended_rate) + " " + m.unit + "\n";
    if (const std::string cost = TuneCostLabel(m); !cost.empty()) out += "  it costs: " + cost + "\n";
    out += m.generic_batch ? "  generic advice (fp32, batch " + std::to_string(m.generic_batch) +
                                 "): " + Rate(m.generic_rate) + " " + m.unit
                           : "  generic advice (fp32): not measured";
    if (m.generic_rate && m.recommended_rate && *m.generic_rate > 0) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%.2fx", *m.recommended_rate / *m.generic_rate);
      out += " (the recommendation is " + std::string(ratio) + ")";
    }
    out += "\n";
    if (m.largest_batch)
      out += "  largest batch that fitted: " + std::to_string(*m.largest_batch) +
             (m.failed_batch ? " (" + std::to_string(*m.failed_batch) + " ran out of memory)"
                             : " (the search's cap; more may fit)") +
             "\n";
  }
  if (!advice.python_lines.empty()) {
    out += "\nIn your training script:\n";
    for (const auto& l : advice.python_lines) out += "  " + l + "\n";
  }
  auto env = TuneEnvLines(advice, ctx.shell);
  if (!env.empty()) {
    out += "\nIn your shell (or `gpudoctor tune --apply FILE`):\n";
    for (const auto& l : env) out += "  " + l + "\n";
  }
  if (!advice.notes.empty()) {
    out += "\nNotes:\n";
    for (const auto& n : advice.notes) out += "  " + n + "\n";
  }
  std::vector<TuneSkip> skips = o.skips;
  if (run.allocator)
    skips.insert(skips.end(), run.allocator->output.skips.begin(), run.allocator->output.skips.end());
  if (!skips.empty()) {
    out += "\nNot measured:\n";
    for (const auto& s : skips) out += "  " + s.item + ": " + s.reason + "\n";
  }
  if (!run.problems.empty()) {
    out += "\nProblems:\n";
    for (const auto& p : run.problems) {
      out += "  " + std::string(ToString(p.severity)) + " [" + p.id + "] " + p.title + "\n";
      for (const auto& e : p.evidence) out += "      " + e + "\n";
    }
  }
  return out;
}

}  // namespace gpudoctor
