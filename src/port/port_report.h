// Rendering `gpudoctor port`'s report: text for people, JSON for tools (docs/port.md), and the exit code.
#pragma once

#include <string>

#include "port/port_types.h"

namespace gpudoctor {

std::string RenderPortText(const PortReport& report);
std::string RenderPortJson(const PortReport& report);

// 0 nothing to look at, 1 warnings (hazards to check), 2 errors (the result will not build or run as it is:
// unsupported APIs, APIs newer than --hip-version, inline PTX, ...), 3 a file could not be read or lexed.
int PortExitCode(const PortReport& report);

}  // namespace gpudoctor
