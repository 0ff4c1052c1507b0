// The [[torch_wheel]] entry of data/pytorch_wheels.toml for a wheel whose GPU code was read
// (wheel_code.h), so a maintainer pastes what the binaries hold instead of copying arch lists by hand.
#pragma once

#include <string>

#include "core/result.h"
#include "probe/common/wheel_code.h"

namespace gpudoctor {

// TOML text: a comment naming what was read, then one [[torch_wheel]] table with torch (the release
// series), variant, cuda + cuda_archs ("8.6", "12.0+PTX") or rocm + gfx, source, note and
// `checked = <checked>` (YYYY-MM-DD). An Error when the wheel holds no version or no GPU code.
Result<std::string> WheelTomlText(const WheelCode& code, const std::string& checked);

}  // namespace gpudoctor
