// One flag's text read as a typed value, the same way for every command: each command parses all of its flags
// through these into its request before any work, so a bad value stops it before a probe or a worker starts.
// Every error names the flag, the text given and what the flag accepts ("--max-bytes 12Q: not a size; give
// bytes with an optional K, M or G (8, 64K, 256M, 1G)"). An empty text is "not given": the caller keeps its
// default. Pure functions.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/enum_names.h"
#include "core/result.h"

namespace gpudoctor {

// A byte count: digits with an optional K, M or G (powers of 1024) and an optional B; at least 1.
Result<std::optional<uint64_t>> SizeFlag(const std::string& flag, const std::string& text);
// A whole number from `min` to `max`.
Result<std::optional<uint64_t>> WholeFlag(const std::string& flag, const std::string& text, uint64_t min,
                                          uint64_t max);
// A number above `above` (exclusive) and at most `max`.
Result<std::optional<double>> NumberFlag(const std::string& flag, const std::string& text, double above,
                                         double max);
// Whole seconds from 1 to a day.
Result<std::optional<std::chrono::seconds>> SecondsFlag(const std::string& flag, const std::string& text);
// A calendar day written YYYY-MM-DD (2026-12-05), kept as that text.
Result<std::optional<std::string>> DateFlag(const std::string& flag, const std::string& text);
// One word of `choices`, exactly as written there; the error lists them all ("--level fast: not one of quick,
// standard, long").
Result<std::optional<std::string>> ChoiceFlag(const std::string& flag, const std::string& text,
                                              const std::vector<std::string>& choices);
// The words of an enum's name table (core/enum_names.h), in its order: the choices of a flag that names a
// value.
template <typename E, std::size_t N>
std::vector<std::string> ChoiceWords(const std::array<EnumName<E>, N>& table) {
  std::vector<std::string> words;
  for (const EnumName<E>& e : table) words.emplace_back(e.name);
  return words;
}
// One name of an enum's table, read as the value it stands for.
template <typename E, std::size_t N>
Result<std::optional<E>> ChoiceFlag(const std::string& flag, const std::string& text,
                                    const std::array<EnumName<E>, N>& table) {
  auto word = ChoiceFlag(flag, text, ChoiceWords(table));
  if (!word) return word.error();
  if (!*word) return std::optional<E>();
  return std::optional<E>(ValueIn(table, **word));
}

}  // namespace gpudoctor
