// Rendering a VerifyReport: the gate table as text (pass / fail / skip, time, the headline figure, the
// reason) and the JSON document (schema in docs/verify-json.md).
#pragma once

#include <string>

#include "gates/verify_runner.h"

namespace gpudoctor {

inline constexpr int kVerifyJsonSchemaVersion = 1;

// "all 12 gates passed", "1 gate failed: kernel", "no usable GPU: ...".
std::string VerifyVerdict(const VerifyReport& report);

std::string RenderVerifyText(const VerifyReport& report, bool color);
std::string RenderVerifyJson(const VerifyReport& report);

// One progress line for stderr while the gates run: "  kernel      pass   0.6 s".
std::string RenderGateProgress(const GateResult& result);

}  // namespace gpudoctor
