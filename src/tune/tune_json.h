// TuneResult <-> its JSON document, `gpudoctor tune --json` (schema "gpudoctor.tune/1", fields in
// docs/tune.md). The one codec of tune's result: tune writes with it, `report --tune` reads with it.
// Reading checks every field's type and names the file and the JSON path of the first problem; it never
// throws (fuzzed: fuzz/tune_protocol_fuzz.cpp). The advice (`models`, `python_lines`, `env`, `notes`) is
// written for people and scripts but not read back: the reader derives it again from the measurements,
// so a saved file is judged by today's rules. Files of the last release (no `loader`, `allocator`,
// `notes`, peak memory) read unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.h"
#include "tune/tune_result.h"

namespace gpudoctor {

inline constexpr int64_t kTuneSchemaMajor = 1;

// Pretty-printed.
std::string TuneResultToJson(const TuneResult& result);
// `origin` names the text in messages ("tune.json").
Result<TuneResult> TuneResultFromJson(std::string_view text, const std::string& origin);

}  // namespace gpudoctor
