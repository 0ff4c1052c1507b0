// Counts per section and lint warnings over a KnowledgeDb (see knowledge_summary.h).
#include "knowledge/knowledge_summary.h"

#include <algorithm>

namespace gpudoctor {

KnowledgeSummary SummarizeKnowledge(const KnowledgeDb& db) {
  KnowledgeSummary s;
  s.as_of = db.AsOf();
  s.origin = db.origin;
  s.files = db.files;
  db.VisitProvenance([&](std::string_view section, const Provenance& p) {
    auto it = std::find_if(s.sections.begin(), s.sections.end(),
                           [&](const SectionCount& c) { return c.section == section; });
    if (it == s.sections.end()) {
      s.sections.push_back(SectionCount{std::string(section)});
      it = std::prev(s.sections.end());
    }
    ++it->entries;
    it->unconfirmed += !p.confirmed;
    it->undated += p.checked.empty();
    ++s.entries;
  });
  return s;
}

std::vector<KnowledgeError> LintWarnings(const KnowledgeDb& db, const std::set<std::string>& files,
                                         std::string_view today) {
  std::vector<KnowledgeError> out;
  db.VisitProvenance([&](std::string_view section, const Provenance& p) {
    if (files.find(p.origin.file) == files.end()) return;
    if (p.checked.empty()) {
      out.push_back({p.origin.file, p.origin.line,
                     std::string(section) +
                         " entry has no checked date (checked = YYYY-MM-DD: the day it was "
                         "last compared with its source)"});
    } else if (!today.empty() && p.checked > today) {
      out.push_back({p.origin.file, p.origin.line,
                     std::string(section) + " entry is checked " + p.checked + ", after today (" +
                         std::string(today) + ")"});
    }
  });
  std::sort(out.begin(), out.end(), [](const KnowledgeError& a, const KnowledgeError& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  });
  return out;
}

}  // namespace gpudoctor
