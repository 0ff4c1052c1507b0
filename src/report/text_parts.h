// Small pieces every text and HTML report writes the same way: a heading, "n/a" for what is unknown, a
// count with its noun.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/strings.h"
#include "report/info_text.h"

namespace gpudoctor {

// The heading of a section in the text report: bold where the terminal takes color.
inline std::string Heading(const std::string& text, const TextStyle& style) {
  return style.color ? "\033[1m" + text + "\033[0m\n" : text + "\n";
}

inline std::string OrNa(const std::string& s) {
  return s.empty() ? "n/a" : s;
}

inline std::string BytesOrNa(const std::optional<uint64_t>& v) {
  return v ? FormatBytes(*v) : "n/a";
}

// "1 warning", "3 warnings".
inline std::string Plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

}  // namespace gpudoctor
