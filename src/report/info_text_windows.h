// The native-Windows sections of `gpudoctor info`: version, DXGI, virtualization, WSL, the Python
// interpreters, and every display adapter with its driver version and the vendor release it maps to.
#pragma once

#include <string>

#include "report/info_text.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// "" unless snapshot.os.family is OsFamily::kWindows. Each section starts with its heading line.
std::string RenderWindowsSections(const Snapshot& snapshot, const TextStyle& style);

}  // namespace gpudoctor
