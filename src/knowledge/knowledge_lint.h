// What `gpudoctor db lint` says about the provenance of a loaded knowledge base, beyond what stops a
// load: entries never checked or whose note admits they were not compared with their source (errors),
// and `checked` dates after today or older than kCheckedMaxAgeDays (warnings). Pure functions of the
// data and of `today`, which the caller reads from its clock (tests pass a fixed day).
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge_db.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {

// The oldest a `checked` date may be before lint warns. 180 days: the data's facts move monthly (ROCm
// and driver point releases, a torch release about every quarter), so an entry unchecked for half a
// year has missed a torch release and several ROCm releases; the same span after which `check` calls
// the whole knowledge base stale (kKnowledgeStaleDays, rules/knowledge_age.h).
inline constexpr int kCheckedMaxAgeDays = 180;

struct ProvenanceLint {
  std::vector<KnowledgeError> errors;
  std::vector<KnowledgeError> warnings;
};

// Lints the entries whose file (base name) is in `files`. Errors: no `checked` date; a note saying
// "not verified", "unverified", "not re-read" or "not re-checked" on an entry without
// `confirmed = false`. Warnings: `checked` after `today`, or more than kCheckedMaxAgeDays before it
// (`today` "YYYY-MM-DD"; empty skips both). Each names the entry's file and line, sorted by them.
ProvenanceLint LintProvenance(const KnowledgeDb& db, const std::set<std::string>& files,
                              std::string_view today);

// Whether a note admits the entry was not compared with its source (the phrases above, any case).
bool NoteSaysUnverified(std::string_view note);

// The warning for a `checked` date relative to `today` ("" when none): after today, or older than
// kCheckedMaxAgeDays. `what` names the entry ("torch_wheel entry").
std::string CheckedDateWarning(std::string_view what, std::string_view checked, std::string_view today);

}  // namespace gpudoctor
