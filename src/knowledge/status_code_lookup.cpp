// KnowledgeDb's lookup of status_codes.toml: a code's name, its name without the API's prefix, or its
// number, to the row that says what it means.
#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/strings.h"
#include "knowledge/knowledge_db.h"

namespace gpudoctor {
namespace {

// A number as a log prints a status: "-5", "5", "0x887A0005", or an HRESULT's eight hex digits alone.
std::optional<int64_t> StatusNumber(std::string_view text) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative) text.remove_prefix(1);
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  } else if (text.size() == 8 &&
             std::any_of(text.begin(), text.end(), [](char c) { return std::isalpha(c); })) {
    base = 16;
  }
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return negative ? -value : value;
}

// A name as bindings print it in CamelCase ("ErrorOutOfDeviceMemory" of Vulkan-Hpp, "PlatformNotFoundKhr"),
// in the C header's words: an underscore before each capital that follows a small letter or a digit,
// then lower case ("error_out_of_device_memory"). A name with an underscore or in one case is kept as it is.
std::string SnakeName(std::string_view text) {
  const bool has_upper = std::any_of(text.begin(), text.end(), [](char c) { return std::isupper(c); });
  const bool has_lower = std::any_of(text.begin(), text.end(), [](char c) { return std::islower(c); });
  if (text.find('_') != std::string_view::npos || !has_upper || !has_lower) return ToLower(text);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (i > 0 && std::isupper(c) && (std::islower(text[i - 1]) || std::isdigit(text[i - 1]))) out += '_';
    out += c;
  }
  return ToLower(out);
}

}  // namespace

const StatusCode* KnowledgeDb::FindStatusCode(std::string_view api, std::string_view text) const {
  const std::string name = SnakeName(text);
  const std::optional<int64_t> number = StatusNumber(text);
  const StatusCode* by_tail = nullptr;
  for (const StatusCode& s : status_codes) {
    if (s.api != api) continue;
    const std::string code = ToLower(s.code);
    if (code == name) return &s;
    if (number && s.value == number) return &s;
    // "ERROR_DEVICE_LOST" for VK_ERROR_DEVICE_LOST: the name minus a prefix ending in '_'.
    if (by_tail == nullptr && name.size() + 1 < code.size() && code.ends_with(name) &&
        code[code.size() - name.size() - 1] == '_')
      by_tail = &s;
  }
  return by_tail;
}

bool KnowledgeDb::HasStatusApi(std::string_view api) const {
  return std::any_of(status_codes.begin(), status_codes.end(),
                     [&](const StatusCode& s) { return s.api == api; });
}

}  // namespace gpudoctor
