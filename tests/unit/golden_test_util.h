// Golden files (tests/golden/): a test compares what it renders with the file and fails on any difference.
// Only the test binary's own argument --update-goldens (`./dev.sh update-goldens`) makes it write the files
// instead: an argument, never an environment variable, so a setting inherited by a CI or developer run cannot
// turn every golden comparison into a pass.
#pragma once

#include <filesystem>
#include <string>

namespace gpudoctor::testing {

// The golden files' folder, ending in '/': kGolden + "vm-no-gpu.check.txt".
inline const std::string kGolden = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/golden/";

// Whether this run was started with --update-goldens (set once by test_main.cpp, before any test runs).
bool& UpdateGoldensRequested();

// The golden file's text against `got`: a failure naming the first differing line, or, with --update-goldens,
// the file rewritten (and a line on stdout saying so).
void CompareWithGolden(const std::filesystem::path& golden, const std::string& got);

// A unified-style excerpt around the first line where `want` and `got` differ.
std::string FirstDifference(const std::string& want, const std::string& got);

}  // namespace gpudoctor::testing
