// Cross-file invariants of the knowledge base (see knowledge_invariants.cpp for the list). Run by the
// loader after the reference checks, so the built-in data, a `--db` folder and `db lint` all obey
// them. Internal to src/knowledge.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

// Appends one KnowledgeError per broken invariant; `display_names` maps Origin::file to the shown name.
void CheckInvariants(const KnowledgeDb& db, const std::map<std::string, std::string>& display_names,
                     std::vector<KnowledgeError>& errors);

}  // namespace gpudoctor
