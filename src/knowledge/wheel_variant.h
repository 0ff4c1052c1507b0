// What the name of a pytorch.org wheel variant says: "cu126" is a build for CUDA 12.6. One reading for
// the knowledge loader (a wheel's variant must match its cuda), `setup` (the driver floor of the wheel it
// installs) and `explain` (the CUDA of a torch version a log prints, "2.1.0+cu121").
#pragma once

#include <optional>
#include <string_view>

#include "knowledge/version.h"

namespace gpudoctor {

// "cu118" -> 11.8, "cu126" -> 12.6, "cu130" -> 13.0, "cu92" -> 9.2: "cu" and two or three digits, the
// last one the minor. nullopt for anything else ("cpu", "rocm6.2", "", "cu", "cu1", "cu1x8", "cu1234").
std::optional<Version> CudaOfWheelVariant(std::string_view variant);

}  // namespace gpudoctor
