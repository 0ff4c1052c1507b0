// One flag's text read as a typed value, the same way for every command that takes numbers (verify, bench,
// collectives): each command parses all of its flags through these into its request before any work, so a
// bad value stops it before a probe or a worker starts. Every error names the flag, the text given and what
// the flag accepts ("--max-bytes 12Q: not a size; give bytes with an optional K, M or G (8, 64K, 256M, 1G)").
// An empty text is "not given": the caller keeps its default. Pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

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

}  // namespace gpudoctor
