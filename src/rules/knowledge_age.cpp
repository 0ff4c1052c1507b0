// The knowledge base's age (see knowledge_age.h): the finding that says how to get newer data.
#include "rules/knowledge_age.h"

namespace gpudoctor {

KnowledgeStamp StampOf(const KnowledgeDb& db) {
  return KnowledgeStamp{db.AsOf(), db.origin};
}

std::optional<Finding> KnowledgeAgeFinding(const KnowledgeDb& db, std::string_view today) {
  const std::string as_of = db.AsOf();
  auto days = DaysBetween(as_of, today);
  if (!days || *days <= kKnowledgeStaleDays) return std::nullopt;
  Finding f;
  f.id = "knowledge.stale";
  f.layer = Layer::kEnvironment;
  f.severity = Severity::kInfo;
  f.subject = "knowledge base (" + db.origin + ")";
  f.title = "gpudoctor's knowledge base is " + std::to_string(*days) +
            " days old: newer GPUs, ROCm, CUDA and PyTorch releases may be missing";
  f.evidence.push_back("required data checked within the last " + std::to_string(kKnowledgeStaleDays) +
                       " days, found data as of " + as_of + " (today is " + std::string(today) + ")");
  f.fix_summary = "get newer data: a newer gpudoctor, or the data/ folder of the project's repository";
  f.fix.push_back(FixAction::Manual("update gpudoctor to its newest release"));
  f.fix.push_back(FixAction::Manual(
      "or download the newest data/ folder of gpudoctor's repository, check it with `gpudoctor db lint "
      "DIR`, and run `gpudoctor check --db DIR` (DIR's files replace the built-in ones of the same name)"));
  return f;
}

}  // namespace gpudoctor
