// `gpudoctor check --json`: the findings as a versioned document with a summary of the snapshot
// (schema: docs/check-json.md).
#pragma once

#include <string>
#include <vector>

#include "rules/finding.h"
#include "rules/shell.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

inline constexpr int kCheckSchemaVersion = 1;

std::string RenderCheckJson(const Snapshot& snapshot, std::vector<Finding> findings, Shell shell,
                            int exit_code);

}  // namespace gpudoctor
