// The version this binary was built as: `git describe` of its source tree ("0.1.0-gabc1234",
// "0.2.0-3-gdef5678-dirty"), or the CMake project version when built outside git. Defined in a file
// cmake/BuildVersion.cmake writes at build time, so a new commit changes it without a re-configure.
#pragma once

#include <string_view>

namespace gpudoctor {

std::string_view BuildVersion();

}  // namespace gpudoctor
