// Reads a saved `tune --json` document for the report (tune_input.h); every field type-checked.
#include "report/tune_input.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/json_reader.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

constexpr size_t kMaxItems = 256;

std::string Text(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> Number(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  double v = it->get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

bool Flag(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

const Json* Array(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_array() ? &*it : nullptr;
}

TuneModelEntry ReadModel(const Json& m) {
  TuneModelEntry e;
  e.model = Text(m, "model");
  e.unit = Text(m, "unit");
  if (const Json* knobs = Array(m, "knobs")) {
    for (const auto& k : *knobs) {
      if (!k.is_object() || e.knobs.size() >= kMaxItems) continue;
      TuneKnobEntry row;
      row.knob = Text(k, "knob");
      row.without = Text(k, "without");
      row.with = Text(k, "with");
      row.why = Text(k, "why");
      row.without_rate = Number(k, "without_rate");
      row.with_rate = Number(k, "with_rate");
      row.change_percent = Number(k, "change_percent");
      row.recommended = Flag(k, "recommended");
      e.knobs.push_back(row);
    }
  }
  if (auto it = m.find("recommended"); it != m.end() && it->is_object()) {
    e.recommended_precision = Text(*it, "precision");
    e.recommended_channels_last = Flag(*it, "channels_last");
    e.recommended_benchmark = Flag(*it, "benchmark");
    e.recommended_batch = Number(*it, "batch");
    e.recommended_rate = Number(*it, "rate");
  }
  if (auto it = m.find("generic"); it != m.end() && it->is_object()) {
    e.generic_batch = Number(*it, "batch");
    e.generic_rate = Number(*it, "rate");
  }
  e.largest_batch = Number(m, "largest_batch");
  return e;
}

}  // namespace

Result<TuneDocument> ParseTuneJson(std::string_view text, const std::string& origin) {
  Json j = Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return UserError(origin + " is not JSON", "give the file `gpudoctor tune --json > tune.json` wrote");
  // Major version 1 is the only one so far (kTuneSchemaVersion in src/tune/, a layer report/ does not use).
  auto version =
      ExpectSchema(j, "tune", 1, origin, "give the file `gpudoctor tune --json > tune.json` wrote");
  if (!version.ok()) return version.error();
  TuneDocument d;
  d.status = Text(j, "status");
  d.python_env = Text(j, "python_env");
  d.elapsed_ms = Number(j, "elapsed_ms");
  if (auto it = j.find("framework"); it != j.end() && it->is_object()) {
    d.device = Text(*it, "device");
    d.backend = Text(*it, "backend");
    d.torch_version = Text(*it, "torch");
  }
  if (const Json* models = Array(j, "models"))
    for (const auto& m : *models)
      if (m.is_object() && d.models.size() < kMaxItems) d.models.push_back(ReadModel(m));
  if (const Json* lines = Array(j, "python_lines"))
    for (const auto& l : *lines)
      if (l.is_string() && d.python_lines.size() < kMaxItems) d.python_lines.push_back(l.get<std::string>());
  if (const Json* problems = Array(j, "problems"))
    for (const auto& p : *problems)
      if (p.is_object() && d.problems.size() < kMaxItems)
        d.problems.push_back({Text(p, "severity"), Text(p, "id"), Text(p, "title")});
  return d;
}

}  // namespace gpudoctor
