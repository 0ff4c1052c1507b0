// How deep a TOML text nests tables before toml++ builds them. toml++ limits nested values (arrays and
// inline tables) to 256 but not the tables a dotted key makes: "[a.a.a...]" with 22,812 keys (45 KB) builds
// a table that deep, and its own destructor, like our conversion, recurses once per level and overflows
// the stack (issue 35). toml_tree.cpp refuses such a text before parsing it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpudoctor {

// Deeper than this is refused, the limit toml++ keeps for nested values.
inline constexpr size_t kMaxTomlDepth = 256;

// The line (from 1) of the first statement whose dotted keys and open brackets together pass `limit`
// levels; nothing when none does. Counts the dots of keys (headers, the left of '=', keys of inline
// tables) outside strings and comments, so a value's numbers never count.
std::optional<uint32_t> TomlTooDeepLine(std::string_view text, size_t limit = kMaxTomlDepth);

}  // namespace gpudoctor
