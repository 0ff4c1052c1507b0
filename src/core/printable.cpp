// Printable text for the terminal (see printable.h).
#include "core/printable.h"

#include <algorithm>

namespace gpudoctor {
namespace {

// Length of the UTF-8 sequence starting at s[i] when it is valid and printable, else 0.
size_t ValidSequence(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c >= 0x20 && c < 0x7f) return 1;
  size_t n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xc0) != 0x80) return 0;
  unsigned char c1 = byte(i + 1);
  if (n == 2 && c == 0xc2 && c1 < 0xa0) return 0;                                   // C1 control (CSI)
  if (n == 3 && ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0))) return 0;  // overlong, surrogate
  if (n == 4 && ((c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 >= 0x90))) return 0;  // overlong, > U+10FFFF
  return n;
}

}  // namespace

std::string Printable(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 3);
  size_t i = 0;
  while (i < text.size()) {
    size_t n = ValidSequence(text, i);
    if (out.size() + std::max<size_t>(n, 1) > max_bytes) {
      out += "...";
      break;
    }
    if (n == 0) {
      out.push_back(text[i] == '\t' ? ' ' : '?');
      ++i;
    } else {
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

}  // namespace gpudoctor
