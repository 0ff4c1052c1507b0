// Small string helpers shared by the parsers of outside data (sysfs, /proc, os-release).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

std::string_view Trim(std::string_view s);
std::vector<std::string_view> SplitLines(std::string_view text);
std::vector<std::string_view> Split(std::string_view s, char sep);
bool StartsWith(std::string_view s, std::string_view prefix);
bool EndsWith(std::string_view s, std::string_view suffix);
std::string ToLower(std::string_view s);
// "a, b, c": the items joined by `separator` (a title, an evidence line, a flag's accepted words).
std::string JoinList(const std::vector<std::string>& items, const std::string& separator = ", ");
// A Python distribution name as PEP 503 compares them: lowercase, every run of '-', '_' and '.' as one
// '-' ("Rocm_SDK.core" -> "rocm-sdk-core"). The probe reads names with it and the knowledge base and
// the rules look them up with it.
std::string NormalizeDistName(std::string_view name);
// Whether `text` matches `pattern`, where each '*' stands for any run of characters (none included) and
// every other character for itself: "libbitsandbytes_cuda124.so" matches "libbitsandbytes_cuda*".
bool WildcardMatch(std::string_view text, std::string_view pattern);
// A line of a child's output for a message: trimmed, cut to `max_chars` with "..." after the cut.
std::string ClipLine(std::string_view s, size_t max_chars);
// The last `count` non-empty lines of a child's output, each clipped as ClipLine does.
std::vector<std::string> LastLines(std::string_view text, size_t count, size_t max_chars);

// Strict number parsing: the whole (trimmed) text must be the number, no overflow.
std::optional<uint64_t> ParseU64(std::string_view s, int base = 10);
std::optional<int64_t> ParseI64(std::string_view s);
// Accepts "0x744c" or "744c".
std::optional<uint64_t> ParseHex(std::string_view s);
std::optional<double> ParseDouble(std::string_view s);

// "%04x"-style lowercase hex with fixed width.
std::string Hex(uint64_t v, int width);
// Human units: 25769803776 -> "24.0 GiB".
std::string FormatBytes(uint64_t bytes);

}  // namespace gpudoctor
