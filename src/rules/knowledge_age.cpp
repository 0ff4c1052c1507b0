// The knowledge base's age (see knowledge_age.h): date arithmetic on "YYYY-MM-DD" through
// std::chrono's calendar types, and the finding that says how to get newer data.
#include "rules/knowledge_age.h"

#include <cstdio>

#include "core/strings.h"

namespace gpudoctor {
namespace {

std::optional<std::chrono::sys_days> ParseDay(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto y = ParseU64(text.substr(0, 4)), m = ParseU64(text.substr(5, 2)), d = ParseU64(text.substr(8, 2));
  if (!y || !m || !d) return std::nullopt;
  std::chrono::year_month_day ymd{std::chrono::year(static_cast<int>(*y)),
                                  std::chrono::month(static_cast<unsigned>(*m)),
                                  std::chrono::day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days(ymd);
}

}  // namespace

KnowledgeStamp StampOf(const KnowledgeDb& db) {
  return KnowledgeStamp{db.AsOf(), db.origin};
}

std::string DateOf(std::chrono::system_clock::time_point when) {
  std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(when)};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

std::optional<int> DaysBetween(std::string_view from, std::string_view to) {
  auto a = ParseDay(from), b = ParseDay(to);
  if (!a || !b) return std::nullopt;
  return static_cast<int>((*b - *a).count());
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
