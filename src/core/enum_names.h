// An enum's words in one table, read both ways: the name a value is written as (JSON, text, flags) and the
// value a name stands for. One table per enum replaces a switch for one direction and a list of every
// value for the other, which had to be kept in step by hand.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace gpudoctor {

template <typename E>
struct EnumName {
  E value;
  const char* name;
};

// The name of `value`; the table's first name for a value it lacks (only a cast makes one).
template <typename E, std::size_t N>
constexpr const char* NameIn(const std::array<EnumName<E>, N>& table, E value) {
  for (const EnumName<E>& e : table)
    if (e.value == value) return e.name;
  return table.front().name;
}

// The value `name` stands for; nullopt for a name the table lacks.
template <typename E, std::size_t N>
constexpr std::optional<E> ValueIn(const std::array<EnumName<E>, N>& table, std::string_view name) {
  for (const EnumName<E>& e : table)
    if (name == e.name) return e.value;
  return std::nullopt;
}

}  // namespace gpudoctor
