// The HTML report's tune section: a saved `gpudoctor tune --json` shown as each model's knob table, the
// recommendation against the generic advice (fp32, batch 32), the lines to paste and the problems. Only
// on the page when `report --tune FILE` gives one.
#pragma once

#include <string>

#include "report/tune_input.h"

namespace gpudoctor {

// The <section id="tune"> element.
std::string RenderTuneSection(const TuneDocument& tune, const std::string& origin);

}  // namespace gpudoctor
