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

// The most values (arrays, objects, members, elements) a document from outside may hold. Parsed JSON
// takes about 64 bytes a value: 20 million `[]` (60 MB) took 1.5 GB and, out of memory, ended in
// std::terminate inside nlohmann's noexcept destroy, and 4 million (12 MB) still ended in bad_alloc
// under a 300 MB address-space limit (issue 35). 2^20 values hold a parse to about 64 MiB, and are
// 300 times what gpudoctor's largest document holds (an 8-GPU node's snapshot: about 3,300 values).
inline constexpr size_t kMaxJsonValues = size_t{1} << 20;

// The values in `text`, counted as the brackets and commas outside strings plus one; the count stops at
// `limit` + 1.
size_t JsonValueCount(std::string_view text, size_t limit = kMaxJsonValues);

// Why `text` is refused before parsing, when it is: "ORIGIN: JSON nested deeper than 256 levels" past
// kMaxJsonDepth, "ORIGIN: JSON holding more than 1048576 values" past kMaxJsonValues; else nothing.
std::optional<std::string> JsonTooDeep(std::string_view text, std::string_view origin);

// `text` parsed without exceptions as `Json` (nlohmann::json or ordered_json); a discarded value when it
// is not valid JSON, nests deeper than kMaxJsonDepth or holds more than kMaxJsonValues. For readers that only
// tell valid from invalid.
template <typename Json>
Json ParseJsonWithinDepth(std::string_view text) {
  if (JsonNestingDepth(text) > kMaxJsonDepth || JsonValueCount(text) > kMaxJsonValues)
    return Json(Json::value_t::discarded);
  return Json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
}

}  // namespace gpudoctor
