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

// Both grow the vector first and then write by index: GCC 12 at -O3 (the mingw-w64 build) reports
// false overflows for insert() and push_back() into a fresh vector.
inline void PutLe(std::vector<uint8_t>& out, uint64_t value, int bytes) {
  size_t at = out.size();
  out.resize(at + static_cast<size_t>(bytes));
  for (int i = 0; i < bytes; ++i) out[at + static_cast<size_t>(i)] = static_cast<uint8_t>(value >> (8 * i));
}

inline void PutText(std::vector<uint8_t>& out, std::string_view text) {
  size_t at = out.size();
  out.resize(at + text.size());
  for (size_t i = 0; i < text.size(); ++i) out[at + i] = static_cast<uint8_t>(text[i]);
}

inline void Append(std::vector<uint8_t>& out, const std::vector<uint8_t>& more, size_t from = 0) {
  size_t at = out.size();
  size_t n = from < more.size() ? more.size() - from : 0;
  out.resize(at + n);
  for (size_t i = 0; i < n; ++i) out[at + i] = more[from + i];
}

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
