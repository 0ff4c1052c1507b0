// Checks over a whole loaded knowledge base: duplicate ids, and references between files (every gfx
// named anywhere exists in gfx_targets.toml, override values select real targets, wheels belong to a
// known torch release, ...). Internal to src/knowledge; run by knowledge_loader.cpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

// `display_names` maps each Origin::file (base name) to the name errors should show. With
// `cross_checks` false only the checks inside one file run (duplicates); true adds the references and the
// invariants of knowledge_invariants.h. Also completes entries
// from other files (a wheel's python versions and date come from its torch release).
void CheckKnowledge(KnowledgeDb& db, const std::map<std::string, std::string>& display_names,
                    bool cross_checks, std::vector<KnowledgeError>& errors);

}  // namespace gpudoctor
