// Counts per section and per file over a KnowledgeDb (see knowledge_summary.h).
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
    auto file = std::find_if(s.by_file.begin(), s.by_file.end(),
                             [&](const FileCount& c) { return c.file == p.origin.file; });
    if (file == s.by_file.end()) {
      s.by_file.emplace_back().file = p.origin.file;
      file = std::prev(s.by_file.end());
    }
    ++file->entries;
    file->confirmed += p.confirmed;
    if (!p.checked.empty() && (file->oldest_checked.empty() || p.checked < file->oldest_checked))
      file->oldest_checked = p.checked;
  });
  std::sort(s.by_file.begin(), s.by_file.end(),
            [](const FileCount& a, const FileCount& b) { return a.file < b.file; });
  return s;
}

}  // namespace gpudoctor
