// Context rules (docs/explain.md): a refinement takes over a match of the entry it refines when its
// evidence is in the same log (anywhere or within N lines), outranks it and absorbs the evidence line.
// Every refinement of the built-in catalog is checked both ways: with its evidence and without it.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/log_scanner.h"
#include "explain_test_util.h"

namespace gpudoctor {
namespace {

ExplainCatalogLoad ParseCatalog(const std::string& text) {
  return ParseExplainCatalog({{"test.toml", text}});
}

const char* kPair = R"(
[[explain]]
id = "t.plain"
title = "plain"
severity = "error"
patterns = ['BOOM happened here']
cause = "c"
fix = "plain fix"
checked = 2026-12-03
source = "https://example.com/a"
samples = ["BOOM happened here"]

[[explain]]
id = "t.plain.near"
refines = "t.plain"
title = "refined"
severity = "error"
priority = 5
context = ['evidence line marker']
within = 2
cause = "c"
fix = "refined fix"
checked = 2026-12-03
source = "https://example.com/b"
samples = ["evidence line marker\nBOOM happened here"]

[[explain]]
id = "t.marker"
title = "the evidence alone is a finding too"
severity = "warning"
patterns = ['evidence line marker']
cause = "c"
fix = "f"
checked = 2026-12-03
source = "https://example.com/c"
samples = ["evidence line marker"]
)";

TEST(ExplainContext, EveryBuiltInRefinementNeedsItsEvidence) {
  size_t refinements = 0;
  for (const ExplainEntry& r : EmbeddedCatalog().entries) {
    if (r.refines.empty()) continue;
    ++refinements;
    ASSERT_NE(EmbeddedCatalog().Find(r.refines), nullptr) << r.id;
    EXPECT_GT(r.priority, EmbeddedCatalog().Find(r.refines)->priority) << r.id;
    for (const std::string& sample : r.samples) {
      auto with = ScanEmbedded(sample);
      RankExplainMatches(with);
      ASSERT_FALSE(with.empty()) << r.id;
      EXPECT_EQ(with.front().entry->id, r.id) << sample;
      ASSERT_NE(with.front().context.refined, nullptr) << r.id;
      EXPECT_EQ(with.front().context.refined->id, r.refines);
      // The same log without the evidence lines is the plain entry's.
      std::istringstream lines(sample);
      std::string without;
      for (std::string line; std::getline(lines, line);) {
        bool evidence = false;
        for (const ExplainPattern& p : r.context) evidence = evidence || std::regex_search(line, *p.regex);
        if (!evidence) without += line + "\n";
      }
      auto plain = ScanEmbedded(without);
      RankExplainMatches(plain);
      ASSERT_FALSE(plain.empty()) << r.id << ": " << without;
      EXPECT_EQ(plain.front().entry->id, r.refines) << without;
      EXPECT_EQ(plain.front().context.refined, nullptr);
    }
  }
  EXPECT_GE(refinements, 5u);
}

TEST(ExplainContext, WithinLimitsHowFarTheEvidenceMayBe) {
  auto load = ParseCatalog(kPair);
  ASSERT_TRUE(load.errors.empty()) << load.errors.front().ToString();
  const ExplainCatalog& c = load.catalog;
  auto near = ScanText(c, "x\nevidence line marker\ny\nBOOM happened here\n");
  ASSERT_EQ(near.size(), 1u);  // the evidence line is absorbed into the refinement
  EXPECT_EQ(near[0].entry->id, "t.plain.near");
  EXPECT_EQ(near[0].context.line, 2u);
  EXPECT_EQ(near[0].context.excerpt, "evidence line marker");
  EXPECT_EQ(near[0].first_line, 4u);

  auto far = ScanText(c, "evidence line marker\n1\n2\n3\n4\nBOOM happened here\n");
  RankExplainMatches(far);
  ASSERT_EQ(far.size(), 2u);  // too far: both stand on their own
  EXPECT_EQ(far[0].entry->id, "t.plain");
  EXPECT_EQ(far[1].entry->id, "t.marker");

  auto after = ScanText(c, "BOOM happened here\nevidence line marker\n");
  ASSERT_EQ(after.size(), 1u);  // evidence below the match counts as well
  EXPECT_EQ(after[0].entry->id, "t.plain.near");
}

TEST(ExplainContext, EvidenceSeenElsewhereIsNotAbsorbed) {
  auto load = ParseCatalog(kPair);
  ASSERT_TRUE(load.errors.empty());
  auto m =
      ScanText(load.catalog, "evidence line marker\nBOOM happened here\nq\nq\nq\nq\nevidence line marker\n");
  RankExplainMatches(m);
  ASSERT_EQ(m.size(), 2u);  // the marker occurs twice: it stays a finding of its own
  EXPECT_EQ(m[0].entry->id, "t.plain.near");
  EXPECT_EQ(m[1].entry->id, "t.marker");
  EXPECT_EQ(m[1].count, 2u);
}

TEST(ExplainContext, LoaderRejectsBrokenRefinements) {
  auto unknown = ParseCatalog(std::string(kPair) + R"(
[[explain]]
id = "t.orphan"
refines = "t.nothing"
title = "x"
severity = "error"
priority = 9
context = ['something else here']
cause = "c"
fix = "f"
checked = 2026-12-03
source = "https://example.com/d"
samples = ["x"]
)");
  ASSERT_FALSE(unknown.errors.empty());
  EXPECT_NE(unknown.errors.front().ToString().find("does not exist"), std::string::npos);

  auto low = ParseCatalog(std::string(kPair) + R"(
[[explain]]
id = "t.plain.low"
refines = "t.plain"
title = "x"
severity = "error"
context = ['something else here']
cause = "c"
fix = "f"
checked = 2026-12-03
source = "https://example.com/d"
samples = ["x"]
)");
  ASSERT_FALSE(low.errors.empty());
  EXPECT_NE(low.errors.front().ToString().find("higher priority"), std::string::npos);

  auto with_patterns = ParseCatalog(std::string(kPair) + R"(
[[explain]]
id = "t.plain.pat"
refines = "t.plain"
title = "x"
severity = "error"
priority = 7
patterns = ['own pattern here']
context = ['something else here']
cause = "c"
fix = "f"
checked = 2026-12-03
source = "https://example.com/d"
samples = ["x"]
)");
  ASSERT_FALSE(with_patterns.errors.empty());
  EXPECT_NE(with_patterns.errors.front().ToString().find("no 'patterns'"), std::string::npos);

  auto chained = ParseCatalog(std::string(kPair) + R"(
[[explain]]
id = "t.plain.near.more"
refines = "t.plain.near"
title = "x"
severity = "error"
priority = 9
context = ['something else here']
cause = "c"
fix = "f"
checked = 2026-12-03
source = "https://example.com/d"
samples = ["x"]
)");
  ASSERT_FALSE(chained.errors.empty());
  EXPECT_NE(chained.errors.front().ToString().find("itself a refinement"), std::string::npos);

  auto stray = ParseCatalog(R"(
[[explain]]
id = "t.stray"
title = "x"
severity = "error"
patterns = ['stray pattern here']
context = ['only refinements have this']
cause = "c"
fix = "f"
checked = 2026-12-03
source = "https://example.com/d"
samples = ["x"]
)");
  EXPECT_FALSE(stray.errors.empty());  // context without refines is an unknown field
}

TEST(ExplainContext, RankingPutsSeverityThenPriorityThenAppearanceFirst) {
  auto load = ParseCatalog(kPair);
  ASSERT_TRUE(load.errors.empty());
  auto m = ScanText(load.catalog, "evidence line marker\nq\nq\nq\nq\nBOOM happened here\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].entry->id, "t.marker");  // in order of appearance before ranking
  RankExplainMatches(m);
  EXPECT_EQ(m[0].entry->id, "t.plain");  // the error outranks the earlier warning
}

}  // namespace
}  // namespace gpudoctor
