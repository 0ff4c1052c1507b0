// Renders a tune run (tune_report.h). Rates are printed with their unit; a missing one is "n/a".
#include "tune/tune_report.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/text_table.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

std::string Rate(std::optional<double> r) {
  if (!r) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, *r >= 100 ? "%.0f" : "%.1f", *r);
  return buf;
}

Json OptionalNumber(std::optional<double> v) {
  return v ? Json(*v) : Json(nullptr);
}

template <typename T>
Json OptionalCount(std::optional<T> v) {
  return v ? Json(*v) : Json(nullptr);
}

}  // namespace

std::vector<std::string> TuneEnvLines(const TuneAdvice& advice, Shell shell) {
  std::vector<std::string> lines;
  for (const auto& [name, value] : advice.env)
    lines.push_back(RenderAction(FixAction::SetEnv(name, value), shell).text);
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
    out += "  each figure: " + std::to_string(o.hello->timed_steps) + " timed training steps after " +
           std::to_string(o.hello->warmup_steps) + " warm-up steps, synthetic data\n";
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.1f s", static_cast<double>(run.elapsed_ms) / 1000);
  out += "  took: " + std::string(elapsed) + "\n";

  for (const auto& m : advice.models) {
    out += "\n" + m.model + " (" + m.unit + ")\n";
    TextTable table({"knob", "without", m.unit, "with", m.unit, "change", "use", "why"});
    for (const auto& k : m.knobs)
      table.AddRow({k.knob, k.without, Rate(k.without_rate), k.with, Rate(k.with_rate),
                    k.change_percent ? FormatChange(*k.change_percent) : "n/a", k.recommended ? "yes" : "no",
                    k.why});
    out += table.Render();
    std::string settings = m.precision == "fp32" ? "fp32" : "AMP " + m.precision;
    if (m.channels_last) settings += ", channels_last";
    if (m.benchmark) settings += ", cudnn.benchmark";
    settings += ", batch " + std::to_string(m.batch);
    out += "  recommended: " + settings + ": " + Rate(m.recommended_rate) + " " + m.unit + "\n";
    out += "  generic advice (fp32, batch " + std::to_string(m.generic_batch) + "): " + Rate(m.generic_rate) +
           " " + m.unit;
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
  if (!o.skips.empty()) {
    out += "\nNot measured:\n";
    for (const auto& s : o.skips) out += "  " + s.item + ": " + s.reason + "\n";
  }
  if (!run.problems.empty()) {
    out += "\nProblems:\n";
    for (const auto& p : run.problems) {
      out += "  " + p.severity + " [" + p.id + "] " + p.title + "\n";
      for (const auto& e : p.evidence) out += "      " + e + "\n";
    }
  }
  return out;
}

std::string RenderTuneJson(const TuneRun& run, const TuneAdvice& advice, const TuneReportContext& ctx) {
  Json j;
  j["schema"] = SchemaName("tune", kTuneSchemaVersion);
  j["status"] = run.status;
  j["python_env"] = ctx.python_env;
  j["interpreter"] = run.interpreter;
  j["device_requested"] = ctx.device;
  j["quick"] = ctx.quick;
  j["elapsed_ms"] = run.elapsed_ms;
  j["exit_code"] = OptionalCount(run.exit_code);
  j["signal"] = OptionalCount(run.signal);
  const TuneChildOutput& o = run.output;
  if (o.hello) {
    j["framework"] = {
        {"torch", o.hello->torch_version},
        {"torchvision",
         o.hello->torchvision_version.empty() ? Json(nullptr) : Json(o.hello->torchvision_version)},
        {"backend", o.hello->backend},
        {"device", o.hello->device},
        {"bf16", o.hello->bf16},
        {"size", o.hello->size},
        {"warmup_steps", o.hello->warmup_steps},
        {"timed_steps", o.hello->timed_steps}};
  } else {
    j["framework"] = nullptr;
  }
  Json measurements = Json::array();
  for (const auto& m : o.measurements)
    measurements.push_back({{"model", m.model},
                            {"role", m.role},
                            {"precision", m.precision},
                            {"channels_last", m.channels_last},
                            {"benchmark", m.benchmark},
                            {"batch", m.batch},
                            {"timed_steps", m.timed_steps},
                            {"seconds", m.seconds},
                            {"samples_per_s", m.samples_per_s},
                            {"rate", m.units_per_s},
                            {"unit", m.unit},
                            {"loss", OptionalNumber(m.loss)},
                            {"loss_finite", m.loss_finite}});
  j["measurements"] = measurements;
  Json searches = Json::array();
  for (const auto& s : o.searches) {
    Json tried = Json::array();
    for (auto [b, ok] : s.tried) tried.push_back({{"batch", b}, {"fitted", ok}});
    searches.push_back({{"model", s.model},
                        {"precision", s.precision},
                        {"largest_batch", s.largest},
                        {"failed_batch", OptionalCount(s.failed_at)},
                        {"cap", s.cap},
                        {"seconds", s.seconds},
                        {"tried", tried}});
  }
  j["batch_searches"] = searches;
  Json models = Json::array();
  for (const auto& m : advice.models) {
    Json knobs = Json::array();
    for (const auto& k : m.knobs)
      knobs.push_back({{"knob", k.knob},
                       {"without", k.without},
                       {"with", k.with},
                       {"without_rate", OptionalNumber(k.without_rate)},
                       {"with_rate", OptionalNumber(k.with_rate)},
                       {"change_percent", OptionalNumber(k.change_percent)},
                       {"recommended", k.recommended},
                       {"why", k.why}});
    models.push_back(
        {{"model", m.model},
         {"unit", m.unit},
         {"knobs", knobs},
         {"recommended",
          {{"precision", m.precision},
           {"channels_last", m.channels_last},
           {"benchmark", m.benchmark},
           {"batch", m.batch},
           {"rate", OptionalNumber(m.recommended_rate)}}},
         {"generic",
          {{"precision", "fp32"}, {"batch", m.generic_batch}, {"rate", OptionalNumber(m.generic_rate)}}},
         {"largest_batch", OptionalCount(m.largest_batch)},
         {"failed_batch", OptionalCount(m.failed_batch)}});
  }
  j["models"] = models;
  j["python_lines"] = advice.python_lines;
  Json env = Json::object();
  for (const auto& [k, v] : advice.env) env[k] = v;
  j["env"] = env;
  Json skips = Json::array();
  for (const auto& s : o.skips) skips.push_back({{"item", s.item}, {"reason", s.reason}});
  j["skipped"] = skips;
  Json problems = Json::array();
  for (const auto& p : run.problems)
    problems.push_back(
        {{"severity", p.severity}, {"id", p.id}, {"title", p.title}, {"evidence", p.evidence}});
  j["problems"] = problems;
  j["stderr_tail"] = run.stderr_tail;
  // The child's strings are its own bytes: one that is not UTF-8 is written as U+FFFD, never thrown.
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace gpudoctor
