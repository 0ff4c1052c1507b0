// CUDA-only flags in a folder's build files (CMakeLists.txt, *.cmake, Makefile, *.mk): reported with line and
// column and what hipcc or CMake's HIP language takes instead; build files are never rewritten.
#pragma once

#include <string_view>

#include "port/port_map.h"
#include "port/port_types.h"

namespace gpudoctor {

// True for the file names scanned as build files.
bool IsBuildFileName(std::string_view file_name);

// One finding per line at most: the first rule of the table (data/port/hazards.toml) that matches.
PortFileReport ScanBuildFile(std::string_view text, const PortMap& map);

}  // namespace gpudoctor
