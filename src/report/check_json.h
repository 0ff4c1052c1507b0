// `gpudoctor check --json`: the findings as a versioned document with a summary of the snapshot
// (schema: docs/check-json.md).
#pragma once

#include <string>
#include <vector>

#include "rules/finding.h"
#include "rules/knowledge_age.h"
#include "rules/shell.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

inline constexpr int kCheckSchemaVersion = 1;

// `knowledge` becomes {"knowledge": {"as_of", "origin"}} (as_of null when unknown).
std::string RenderCheckJson(const Snapshot& snapshot, std::vector<Finding> findings, Shell shell,
                            int exit_code, const KnowledgeStamp& knowledge = {});

}  // namespace gpudoctor
