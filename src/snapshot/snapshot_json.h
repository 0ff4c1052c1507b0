// Snapshot <-> JSON (schema in docs/snapshot-schema.md). Reading checks the
// schema version and reports malformed input with a message naming the field.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Pretty-printed JSON document, keys in a stable order.
std::string SnapshotToJson(const Snapshot& snapshot);
// The largest snapshot text read: parsed JSON takes about 25 times its text, and a snapshot of a
// large machine is well under 1 MiB.
inline constexpr size_t kMaxSnapshotBytes = 16u << 20;

// `origin` names the input in error messages (a file path, "stdin"). A text past kMaxSnapshotBytes,
// or one that runs out of memory, is an Error.
Result<Snapshot> SnapshotFromJson(std::string_view text, const std::string& origin);

}  // namespace gpudoctor
