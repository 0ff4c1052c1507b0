// Parsing and ordering of dotted version numbers (see version.h).
#include "knowledge/version.h"

#include <algorithm>

namespace gpudoctor {

std::optional<Version> Version::Parse(std::string_view text) {
  constexpr size_t kMaxParts = 4;
  constexpr size_t kMaxDigits = 9;
  Version v;
  size_t pos = 0;
  while (true) {
    size_t start = pos;
    uint32_t value = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (pos - start >= kMaxDigits) return std::nullopt;
      value = value * 10 + static_cast<uint32_t>(text[pos] - '0');
      ++pos;
    }
    if (pos == start) return std::nullopt;  // empty part or a non-digit
    if (v.parts_.size() == kMaxParts) return std::nullopt;
    v.parts_.push_back(value);
    if (pos == text.size()) break;
    if (text[pos] != '.') return std::nullopt;
    ++pos;
  }
  v.text_ = std::string(text);
  return v;
}

std::optional<Version> Version::ParseLeading(std::string_view text) {
  size_t end = 0;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) ++end;
  std::string_view numbers = text.substr(0, end);
  while (!numbers.empty() && numbers.back() == '.') numbers.remove_suffix(1);
  return Parse(numbers);
}

bool Version::HasPrefix(const Version& prefix) const {
  if (prefix.parts_.size() > parts_.size()) return false;
  return std::equal(prefix.parts_.begin(), prefix.parts_.end(), parts_.begin());
}

std::strong_ordering operator<=>(const Version& a, const Version& b) {
  size_t n = std::max(a.parts_.size(), b.parts_.size());
  for (size_t i = 0; i < n; ++i) {
    if (auto c = a.Part(i) <=> b.Part(i); c != 0) return c;
  }
  return std::strong_ordering::equal;
}

}  // namespace gpudoctor
