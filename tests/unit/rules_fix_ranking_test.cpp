// Issue 30 item 4: where the installed PyTorch lacks the GPU's own code, the fixes come in the order of
// data/overrides.toml's [[fix_ranking]]: a build made for the target first where one exists, the override
// as its caveated fallback, a nightly; each kind only where it exists for the GPU.
#include <gtest/gtest.h>

#include "rules/target_fix_ranking.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

std::vector<Finding> RunWith(const Snapshot& s, const KnowledgeDb& db) {
  return RunAllRules(s, db, RuleOptions{});
}

// ---- Issue 30 item 4: fixes ranked by data (overrides.toml [[fix_ranking]]) ----

// RX 7800 XT (gfx1101, override 11.0.0 "works") on torch 2.2's rocm5.7 wheel, which lacks gfx1101 while
// later pytorch.org wheels carry it: the native wheel first, the override as the caveated fallback.
TEST(FixRanking, NativeWheelBeforeTheOverrideWhereOneExists) {
  Snapshot s = Linux();
  AddAmd(s, 0x747E, 0xC8, "gfx1101", 0, false);
  AddTorch(s, "2.2.2+rocm5.7", "", "5.7.31921");
  auto fs = RunRules(s);
  for (const char* id : {"framework.torch_no_kernels", "runtime.override_needed"}) {
    const Finding* f = FindId(fs, id);
    ASSERT_NE(f, nullptr) << id << ": " << Ids(fs);
    EXPECT_NE(BashFix(*f).find("pip install torch torchvision torchaudio --index-url "
                               "https://download.pytorch.org/whl/rocm"),
              std::string::npos)
        << id << ": " << BashFix(*f);
    EXPECT_EQ(BashFix(*f).find("HSA_OVERRIDE_GFX_VERSION"), std::string::npos) << id << ": " << BashFix(*f);
    ASSERT_FALSE(f->alternatives.empty()) << id;
    const FixOption& o = f->alternatives.front();
    EXPECT_EQ(o.fix, std::vector<FixAction>{FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "11.0.0")}) << id;
    EXPECT_NE(o.summary.find("only while this build stays"), std::string::npos) << o.summary;
    EXPECT_EQ(o.summary.find("risky"), std::string::npos) << o.summary;  // 11.0.0 is known to work on gfx1101
  }
}

// RX 6700 XT (gfx1031): no official build carries it, the override works: the override first, TheRock's
// nightly after it; no "only while" caveat, since no build to wait for exists.
TEST(FixRanking, OverrideFirstWhereNoBuildCarriesTheTarget) {
  Snapshot s = Linux();
  AddAmd(s, 0x73DF, 0xC1, "gfx1031", 0, false);
  AddTorch(s, "2.5.1+rocm6.2", "", "6.2.41133");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(BashFix(*f), "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n");
  EXPECT_EQ(f->fix_summary.find("only while"), std::string::npos) << f->fix_summary;
  ASSERT_EQ(f->alternatives.size(), 1u);
  EXPECT_NE(f->alternatives[0].summary.find("[nightly]"), std::string::npos) << f->alternatives[0].summary;
}

// The order is the data's: a knowledge base whose row puts the nightly first gives the nightly first.
TEST(FixRanking, TheDataDecidesTheOrder) {
  Snapshot s = Linux();
  AddAmd(s, 0x73DF, 0xC1, "gfx1031", 0, false);
  AddTorch(s, "2.5.1+rocm6.2", "", "6.2.41133");
  KnowledgeDb db = Db();
  for (FixRanking& r : db.fix_rankings)
    if (r.gfx.empty()) r.order = {TargetFixKind::kCommunityBuild, TargetFixKind::kOverride};
  auto fs = RunWith(s, db);
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->fix_summary.find("[nightly]"), std::string::npos) << f->fix_summary;
  ASSERT_EQ(f->alternatives.size(), 1u);
  EXPECT_EQ(f->alternatives[0].fix,
            std::vector<FixAction>{FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "10.3.0")});
  // A kind the row leaves out is not offered.
  for (FixRanking& r : db.fix_rankings)
    if (r.gfx.empty()) r.order = {TargetFixKind::kOverride};
  fs = RunWith(s, db);
  f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(f->alternatives.empty());
}

// The two rows the data has: the default order, and the one for targets whose override is risky or
// unverified (the nightly before the override).
TEST(FixRanking, TheDataHasADefaultRowAndOneForRiskyOverrides) {
  const FixRanking* any = Db().FindFixRanking(FixSituation::kCodeLacksTarget, "gfx1101");
  ASSERT_NE(any, nullptr);
  EXPECT_TRUE(any->gfx.empty());
  EXPECT_EQ(any->order.front(), TargetFixKind::kNativeBuild);
  const FixRanking* risky = Db().FindFixRanking(FixSituation::kCodeLacksTarget, "gfx1103");
  ASSERT_NE(risky, nullptr);
  EXPECT_NE(risky, any);
  EXPECT_EQ(risky->order.back(), TargetFixKind::kOverride);
  // Every target named has a risky or unverified override rule: the row's note says so.
  for (const std::string& gfx : risky->gfx) {
    const OverrideRule* rule = Db().FindOverrideRule(gfx);
    ASSERT_NE(rule, nullptr) << gfx;
    EXPECT_NE(rule->verdict, OverrideVerdict::kWorks) << gfx;
  }
}

// Findings say which unconfirmed entries they rest on; confirmed ones are not named.
TEST(Unconfirmed, CiteNamesOnlyUnconfirmedEntries) {
  Finding f;
  Provenance confirmed;
  confirmed.sources = {"https://a.example/"};
  confirmed.origin = {"gpus_amd.toml", 12};
  Cite(f, confirmed);
  EXPECT_EQ(f.link, "https://a.example/");
  EXPECT_TRUE(f.unconfirmed.empty());
  Provenance unsure = confirmed;
  unsure.confirmed = false;
  unsure.origin = {"overrides.toml", 45};
  RestsOn(f, unsure);
  RestsOn(f, unsure);  // once only
  EXPECT_EQ(f.link, "https://a.example/");
  EXPECT_EQ(f.unconfirmed, std::vector<std::string>{"overrides.toml:45"});
}

}  // namespace
}  // namespace gpudoctor
