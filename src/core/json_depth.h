// The nesting limit for JSON from outside (saved snapshots and reports, recorded machines, workers'
// lines). nlohmann's parser copies values recursively while it builds them, so a value nested about
// 100,000 deep overflows the stack (issue 35); every reader of outside JSON checks the depth here first,
// with a scan of the text that recurses into nothing.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

// gpudoctor's own documents nest fewer than 20 levels; toml++ allows 256 for the knowledge base.
inline constexpr size_t kMaxJsonDepth = 256;

// The deepest nesting of arrays and objects in `text`, counting the brackets outside strings; the count
// stops at `limit` + 1. Invalid JSON is counted too (the parser reports it afterwards).
size_t JsonNestingDepth(std::string_view text, size_t limit = kMaxJsonDepth);

// "ORIGIN: JSON nested deeper than 256 levels" when `text` nests deeper than kMaxJsonDepth, else nothing.
std::optional<std::string> JsonTooDeep(std::string_view text, std::string_view origin);

// `text` parsed without exceptions as `Json` (nlohmann::json or ordered_json); a discarded value when it
// is not valid JSON or nests deeper than kMaxJsonDepth. For readers that only tell valid from invalid.
template <typename Json>
Json ParseJsonWithinDepth(std::string_view text) {
  if (JsonNestingDepth(text) > kMaxJsonDepth) return Json(Json::value_t::discarded);
  return Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}

}  // namespace gpudoctor
