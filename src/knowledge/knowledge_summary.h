// What `gpudoctor db show` and `db lint` report about a loaded knowledge base: entries per section
// (and how many are unconfirmed or carry no `checked` date), and the lint warnings that do not stop
// a load (an entry never checked, a `checked` date after today). Pure functions of the data.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

struct SectionCount {
  std::string section;  // "torch_wheel"
  size_t entries = 0;
  size_t unconfirmed = 0;  // confirmed = false
  size_t undated = 0;      // no checked date
};

struct KnowledgeSummary {
  std::string as_of;   // newest checked date, "" when none
  std::string origin;  // KnowledgeDb::origin
  std::vector<std::string> files;
  std::vector<SectionCount> sections;  // in the order KnowledgeDb::VisitProvenance visits them
  size_t entries = 0;
};

KnowledgeSummary SummarizeKnowledge(const KnowledgeDb& db);

// Lint warnings for the entries whose file (base name) is in `files`: no `checked` date, or one after
// `today` ("YYYY-MM-DD"; empty skips that test). Each names the entry's file and line.
std::vector<KnowledgeError> LintWarnings(const KnowledgeDb& db, const std::set<std::string>& files,
                                         std::string_view today);

}  // namespace gpudoctor
