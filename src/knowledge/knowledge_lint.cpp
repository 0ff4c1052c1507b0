// Provenance lint over a KnowledgeDb (see knowledge_lint.h).
#include "knowledge/knowledge_lint.h"

#include <algorithm>
#include <array>

#include "core/calendar_date.h"

namespace gpudoctor {

bool NoteSaysUnverified(std::string_view note) {
  std::string lower(note);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
  constexpr std::array<std::string_view, 4> kPhrases = {"not verified", "unverified", "not re-read",
                                                        "not re-checked"};
  return std::any_of(kPhrases.begin(), kPhrases.end(),
                     [&](std::string_view p) { return lower.find(p) != std::string::npos; });
}

std::string CheckedDateWarning(std::string_view what, std::string_view checked, std::string_view today) {
  if (today.empty() || checked.empty()) return "";
  if (checked > today)
    return std::string(what) + " is checked " + std::string(checked) + ", after today (" +
           std::string(today) + ")";
  auto days = DaysBetween(checked, today);
  if (days && *days > kCheckedMaxAgeDays) {
    return std::string(what) + " was last checked " + std::string(checked) + ", " + std::to_string(*days) +
           " days ago (more than " + std::to_string(kCheckedMaxAgeDays) +
           "): compare it with its source again and set checked to that day";
  }
  return "";
}

ProvenanceLint LintProvenance(const KnowledgeDb& db, const std::set<std::string>& files,
                              std::string_view today) {
  ProvenanceLint out;
  db.VisitProvenance([&](std::string_view section, const Provenance& p) {
    if (files.find(p.origin.file) == files.end()) return;
    const std::string what = std::string(section) + " entry";
    if (p.checked.empty()) {
      out.errors.push_back({p.origin.file, p.origin.line,
                            what + " has no checked date (checked = YYYY-MM-DD: the day it was last "
                                   "compared with its source)"});
    } else if (std::string w = CheckedDateWarning(what, p.checked, today); !w.empty()) {
      out.warnings.push_back({p.origin.file, p.origin.line, std::move(w)});
    }
    if (p.confirmed && NoteSaysUnverified(p.note)) {
      out.errors.push_back({p.origin.file, p.origin.line,
                            what + "'s note says it was not verified, but it lacks confirmed = false: a "
                                   "checked date alone does not say it was compared with its source; add "
                                   "confirmed = false, or compare it and reword the note"});
    }
  });
  auto by_place = [](const KnowledgeError& a, const KnowledgeError& b) {
    return a.file != b.file ? a.file < b.file : a.line < b.line;
  };
  std::stable_sort(out.errors.begin(), out.errors.end(), by_place);
  std::stable_sort(out.warnings.begin(), out.warnings.end(), by_place);
  return out;
}

}  // namespace gpudoctor
