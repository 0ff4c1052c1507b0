// Snapshot <-> JSON (schema in docs/snapshot-schema.md). Reading checks the
// schema version and reports malformed input with a message naming the field.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Pretty-printed JSON document, keys in a stable order.
std::string SnapshotToJson(const Snapshot& snapshot);
// `origin` names the input in error messages (a file path, "stdin").
Result<Snapshot> SnapshotFromJson(std::string_view text, const std::string& origin);

}  // namespace gpudoctor
