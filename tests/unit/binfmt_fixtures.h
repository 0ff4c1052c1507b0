// Shared by the binfmt tests: the real GPU binaries under tests/fixtures/binaries (built by its
// build.sh) loaded into memory, and small builders for synthetic headers.
#pragma once

#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::testing {

inline std::string BinaryFixturePath(const std::string& name) {
  return std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/binaries/" + name;
}

inline std::vector<uint8_t> LoadBinaryFixture(const std::string& name) {
  std::ifstream in(BinaryFixturePath(name), std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The byte builders are defined out of line (binfmt_fixtures.cpp) on purpose. Inlined into a caller
// that starts from an empty vector, GCC's value-range analysis follows the "size 0" state into
// libstdc++'s growth code and reports writes past a zero-length array: -Warray-bounds from GCC 13 at
// -O2 and above (issue 19), -Wstringop-overflow from GCC 12 at -O3. Out of line, `out` is just a
// vector of unknown size and there is nothing to misread.
void PutLe(std::vector<uint8_t>& out, uint64_t value, int bytes);
void PutText(std::vector<uint8_t>& out, std::string_view text);
void Append(std::vector<uint8_t>& out, const std::vector<uint8_t>& more, size_t from = 0);

// An uncompressed offload bundle whose entries have no code (offsets point past the header).
inline std::vector<uint8_t> MakeBundle(const std::vector<std::string>& ids) {
  std::vector<uint8_t> out;
  PutText(out, "__CLANG_OFFLOAD_BUNDLE__");
  PutLe(out, ids.size(), 8);
  uint64_t header = 32;
  for (const auto& id : ids) header += 24 + id.size();
  for (const auto& id : ids) {
    PutLe(out, header, 8);
    PutLe(out, 0, 8);
    PutLe(out, id.size(), 8);
    PutText(out, id);
  }
  return out;
}

}  // namespace gpudoctor::testing
