// What many test files share: paths into the source tree (the sources, the recorded machines), reading a
// whole file, byte units and small text helpers. One copy here instead of one per test file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::testing {

// The source tree this test binary was built from, as text and as a path to walk.
inline const std::string kSource = GPUDOCTOR_SOURCE_DIR;
inline const std::filesystem::path kSourceTree = GPUDOCTOR_SOURCE_DIR;

// The recorded machines, one folder each under tests/fixtures/sysroot/: kFixtures + "vm-no-gpu".
inline const std::string kFixtures = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/";

inline constexpr uint64_t kMiB = 1ull << 20;
inline constexpr uint64_t kGiB = 1ull << 30;

// The whole of a file, read as bytes ("" when it is missing).
inline std::string ReadFileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// True when `text` contains `part`.
inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// True when one of `v` is `s`.
inline bool Contains(const std::vector<std::string>& v, std::string_view s) {
  for (const auto& x : v)
    if (x == s) return true;
  return false;
}

// How many times `what` occurs in `text`, without overlaps.
inline size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

// Each of `lines` followed by a newline.
inline std::string Joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

}  // namespace gpudoctor::testing
