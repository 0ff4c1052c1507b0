// The byte builders of binfmt_fixtures.h, kept out of line so the optimizer cannot carry a caller's
// "empty vector" into libstdc++'s growth code (the GCC 13 -Warray-bounds false positive, issue 19).
#include "binfmt_fixtures.h"

namespace gpudoctor::testing {

void PutLe(std::vector<uint8_t>& out, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<uint8_t>(value >> (8 * i)));
}

void PutText(std::vector<uint8_t>& out, std::string_view text) {
  out.insert(out.end(), text.begin(), text.end());
}

void Append(std::vector<uint8_t>& out, const std::vector<uint8_t>& more, size_t from) {
  if (from < more.size()) out.insert(out.end(), more.begin() + static_cast<std::ptrdiff_t>(from), more.end());
}

}  // namespace gpudoctor::testing
