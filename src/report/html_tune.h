// The HTML report's tune section: a saved `gpudoctor tune --json` (read by tune's own codec, tune_json.h)
// shown as each model's knob table, the recommendation against the generic advice (fp32, batch 32), the
// lines to paste (Python and environment), the notes and the problems. Only on the page when
// `report --tune FILE` gives one.
#pragma once

#include <string>

#include "tune/tune_result.h"

namespace gpudoctor {

// The <section id="tune"> element.
std::string RenderTuneSection(const TuneResult& tune, const std::string& origin);

}  // namespace gpudoctor
