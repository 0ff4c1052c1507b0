// `gpudoctor tune`'s text (docs/tune.md; the JSON is tune_json.h): the knob table per model, the recommended
// lines, generic advice against the recommendation, the largest batch, and each problem with its evidence.
#pragma once

#include <string>

#include "platform/shell_syntax.h"
#include "tune/tune_advice.h"
#include "tune/tune_runner.h"

namespace gpudoctor {

struct TuneReportContext {
  std::string python_env;  // the environment's prefix
  std::string device;      // what --device asked for
  bool quick = false;
  Shell shell = Shell::kBash;
};

std::string RenderTuneText(const TuneRun& run, const TuneAdvice& advice, const TuneReportContext& ctx);

// The environment lines for `shell` (export X=Y, $env:X = "Y", set X=Y).
std::vector<std::string> TuneEnvLines(const TuneAdvice& advice, Shell shell);

}  // namespace gpudoctor
