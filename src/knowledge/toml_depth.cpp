// The pre-scan of toml_depth.h: one pass over the bytes, strings and comments skipped.
#include "knowledge/toml_depth.h"

#include <string>

namespace gpudoctor {
namespace {

// Where a string that starts at `i` ("x", 'x', """x""", '''x''') ends: the index after it. Single-line
// strings end at the line's end at the latest; `line` counts the newlines of multi-line ones.
size_t SkipString(std::string_view text, size_t i, uint32_t& line) {
  const char quote = text[i];
  const bool multi = text.compare(i, 3, std::string(3, quote)) == 0;
  size_t j = i + (multi ? 3 : 1);
  while (j < text.size()) {
    const char c = text[j];
    if (c == '\\' && quote == '"') {
      if (j + 1 < text.size() && text[j + 1] == '\n') ++line;
      j += 2;
      continue;
    }
    if (c == '\n') {
      if (!multi) return j;
      ++line;
    }
    if (c == quote && (!multi || text.compare(j, 3, std::string(3, quote)) == 0)) return j + (multi ? 3 : 1);
    ++j;
  }
  return j;
}

}  // namespace

std::optional<uint32_t> TomlTooDeepLine(std::string_view text, size_t limit) {
  std::string open;  // the brackets open now, innermost last ('[' or '{')
  bool in_key = true;
  size_t key_dots = 0;  // dots of keys in this statement so far
  uint32_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      const uint32_t start = line;
      i = SkipString(text, i, line) - 1;
      if (line != start) in_key = false;
    } else if (c == '#') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '\n') {
      ++line;
      in_key = open.empty() || open.back() == '{';
      if (open.empty()) key_dots = 0;
    } else if (c == '=') {
      in_key = false;
    } else if (c == '.' && in_key) {
      ++key_dots;
    } else if (c == '[' || c == '{') {
      open.push_back(c);
      if (c == '{') in_key = true;  // an inline table's first key; '[' keeps a header's key a key
    } else if ((c == ']' || c == '}') && !open.empty()) {
      open.pop_back();
    } else if (c == ',' && !open.empty()) {
      in_key = open.back() == '{';
    }
    if (key_dots + open.size() > limit) return line;
  }
  return std::nullopt;
}

}  // namespace gpudoctor
