// Rendering a VerifyReport as text: the gate table (pass / fail / skip, time, the headline figure, the
// reason) and the verdict line. The JSON document is the type's codec, gates/verify_json.h.
#pragma once

#include <string>

#include "gates/verify_result.h"

namespace gpudoctor {

// "all 12 gates passed", "1 gate failed: kernel", "no usable GPU: ...".
std::string VerifyVerdict(const VerifyReport& report);

std::string RenderVerifyText(const VerifyReport& report, bool color);

// One progress line for stderr while the gates run: "  kernel      pass   0.6 s".
std::string RenderGateProgress(const GateResult& result);

}  // namespace gpudoctor
