// The JSON nesting check (see json_depth.h): one pass over the bytes, strings skipped with their escapes.
#include "core/json_depth.h"

namespace gpudoctor {

size_t JsonNestingDepth(std::string_view text, size_t limit) {
  size_t depth = 0;
  size_t deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

size_t JsonValueCount(std::string_view text, size_t limit) {
  size_t count = 1;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if ((c == '[' || c == '{' || c == ',') && ++count > limit) {
      return count;
    }
  }
  return count;
}

std::optional<std::string> JsonTooDeep(std::string_view text, std::string_view origin) {
  if (JsonNestingDepth(text) > kMaxJsonDepth)
    return std::string(origin) + ": JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  if (JsonValueCount(text) > kMaxJsonValues)
    return std::string(origin) + ": JSON holding more than " + std::to_string(kMaxJsonValues) +
           " values (parsed, it would take more than 64 MiB of memory; gpudoctor's own documents hold a few "
           "thousand)";
  return std::nullopt;
}

}  // namespace gpudoctor
