// Issue 13: the knowledge base's age is judged against a clock given as input: `check` notes data
// older than 180 days (knowledge.stale) and says how to get newer data; nothing at 180 days or less.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "knowledge/knowledge_loader.h"
#include "knowledge_test_util.h"
#include "rules/knowledge_age.h"
#include "rules/rules.h"

namespace gpudoctor {
namespace {

using testing::DaysAfter;

TEST(KnowledgeAge, DaysBetweenDates) {
  EXPECT_EQ(DaysBetween("2026-12-03", "2027-06-01"), 180);
  EXPECT_EQ(DaysBetween("2024-02-28", "2024-03-01"), 2);  // a leap year
  EXPECT_EQ(DaysBetween("2026-12-03", "2026-12-01"), -2);
  EXPECT_FALSE(DaysBetween("2026-12", "2027-01-01"));
  EXPECT_FALSE(DaysBetween("2026-02-30", "2027-01-01"));
  EXPECT_EQ(DateOf(std::chrono::sys_days{std::chrono::year(2026) / 12 / 3} + std::chrono::hours(23)),
            "2026-12-03");
}

TEST(KnowledgeAge, StaleAfter180DaysWithTheWayToNewerData) {
  auto db = LoadEmbeddedKnowledge();
  ASSERT_TRUE(db.ok()) << db.error().message;
  const std::string as_of = db->AsOf();
  ASSERT_EQ(as_of.size(), 10u);
  EXPECT_FALSE(KnowledgeAgeFinding(*db, as_of));
  EXPECT_FALSE(KnowledgeAgeFinding(*db, DaysAfter(as_of, 180)));
  auto stale = KnowledgeAgeFinding(*db, DaysAfter(as_of, 181));
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->id, "knowledge.stale");
  EXPECT_EQ(stale->severity, Severity::kInfo);
  EXPECT_NE(stale->title.find("181 days old"), std::string::npos) << stale->title;
  ASSERT_FALSE(stale->evidence.empty());
  EXPECT_NE(stale->evidence[0].find("as of " + as_of), std::string::npos) << stale->evidence[0];
  std::string fixes;
  for (const auto& a : stale->fix) fixes += a.text + "\n";
  EXPECT_NE(fixes.find("--db DIR"), std::string::npos) << fixes;
  EXPECT_NE(fixes.find("db lint"), std::string::npos) << fixes;
  EXPECT_NE(FindRuleInfo("knowledge.stale"), nullptr);
}

TEST(KnowledgeAge, CheckAddsTheNoteOnlyWhenTodayIsGiven) {
  auto db = LoadEmbeddedKnowledge();
  ASSERT_TRUE(db.ok());
  Snapshot snap;
  RuleOptions options;
  auto has_stale = [](const std::vector<Finding>& fs) {
    return std::any_of(fs.begin(), fs.end(), [](const Finding& f) { return f.id == "knowledge.stale"; });
  };
  EXPECT_FALSE(has_stale(RunAllRules(snap, *db, options)));
  options.today = DaysAfter(db->AsOf(), 400);
  EXPECT_TRUE(has_stale(RunAllRules(snap, *db, options)));
  options.today = DaysAfter(db->AsOf(), 30);
  EXPECT_FALSE(has_stale(RunAllRules(snap, *db, options)));
}

}  // namespace
}  // namespace gpudoctor
