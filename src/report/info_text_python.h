// The "Python environments" section of `gpudoctor info`: each environment found, the PyTorch in it with
// the GPU code read from its libraries, the other frameworks, and which vendor runtime each would load.
#pragma once

#include <string>

#include "report/info_text.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

std::string PythonSection(const Snapshot& snapshot, const TextStyle& style);

}  // namespace gpudoctor
