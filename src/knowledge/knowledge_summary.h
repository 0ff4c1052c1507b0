// What `gpudoctor db show` and `db lint` report about a loaded knowledge base: entries per section
// (and how many are unconfirmed or carry no `checked` date), and per file the share of entries
// confirmed and the oldest `checked` date. Pure functions of the data; the lint is knowledge_lint.h.
#pragma once

#include <cstddef>
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

// One file's provenance: a `checked` date says when it was last looked at, `confirmed` whether the
// values were compared with the source.
struct FileCount {
  std::string file;  // base name: "pytorch_wheels.toml"
  size_t entries = 0;
  size_t confirmed = 0;        // entries without confirmed = false
  std::string oldest_checked;  // "" when no entry has a date
};

struct KnowledgeSummary {
  std::string as_of;   // newest checked date, "" when none
  std::string origin;  // KnowledgeDb::origin
  std::vector<std::string> files;
  std::vector<SectionCount> sections;  // in the order KnowledgeDb::VisitProvenance visits them
  std::vector<FileCount> by_file;      // sorted by file name
  size_t entries = 0;
};

KnowledgeSummary SummarizeKnowledge(const KnowledgeDb& db);

}  // namespace gpudoctor
