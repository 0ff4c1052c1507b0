// A saved `gpudoctor tune --json` document (docs/tune.md), read back for the HTML report: the device and
// framework, each model's knob table, the recommendation against the generic advice, the lines to paste and
// the problems. Tolerant of missing fields (each is optional); a document of another kind is an error.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

struct TuneKnobEntry {
  std::string knob, without, with, why;
  std::optional<double> without_rate, with_rate, change_percent;
  bool recommended = false;
};

struct TuneModelEntry {
  std::string model, unit;
  std::vector<TuneKnobEntry> knobs;
  std::string recommended_precision;
  bool recommended_channels_last = false;
  bool recommended_benchmark = false;
  std::optional<double> recommended_batch, recommended_rate, generic_batch, generic_rate, largest_batch;
};

struct TuneProblemEntry {
  std::string severity, id, title;
};

struct TuneDocument {
  std::string status;  // "ok", "no-gpu", "timeout", ...
  std::string device, backend, torch_version, python_env;
  std::optional<double> elapsed_ms;
  std::vector<TuneModelEntry> models;
  std::vector<std::string> python_lines;
  std::vector<TuneProblemEntry> problems;
};

Result<TuneDocument> ParseTuneJson(std::string_view text, const std::string& origin);

}  // namespace gpudoctor
