// Environment-layer rules on Snapshots built in code: variables that hide every GPU, invalid and
// cross-family overrides, a global override over mixed GPUs, LD_LIBRARY_PATH and ROCM_PATH naming
// another ROCm than PyTorch's, LD_LIBRARY_PATH naming the current folder. Each rule also has a case where it
// must stay quiet.
#include <gtest/gtest.h>

#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

struct EnvironmentRuleCase {
  const char* name;
  std::vector<std::pair<std::string, std::string>> env;
  bool nvidia;
  const char* fires;  // "" = must not fire `id`
  const char* id;
};

Snapshot EnvironmentRuleMachine(const EnvironmentRuleCase& c) {
  Snapshot s = Linux();
  if (c.nvidia) {
    AddNvidia(s, 0x2330, 9, 0);
  } else {
    AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
    AddTorch(s, "2.5.1+rocm6.2", "", "6.2.41133");
    AddRocm(s, "6.2.4-139", "/opt/rocm-6.2.4");
    AddRocm(s, "6.2.4-139", "/opt/rocm");
  }
  for (const auto& [k, v] : c.env) s.environment[k] = v;
  return s;
}

std::vector<EnvironmentRuleCase> EnvironmentRuleCases() {
  return {
      {"HipMinusOne", {{"HIP_VISIBLE_DEVICES", "-1"}}, false, "yes", "environment.devices_hidden"},
      {"RocrOutOfRange", {{"ROCR_VISIBLE_DEVICES", "3"}}, false, "yes", "environment.devices_hidden"},
      {"HipZeroIsFine", {{"HIP_VISIBLE_DEVICES", "0"}}, false, "", "environment.devices_hidden"},
      {"CudaEmpty", {{"CUDA_VISIBLE_DEVICES", ""}}, true, "yes", "environment.devices_hidden"},
      {"CudaMinusOne", {{"CUDA_VISIBLE_DEVICES", "-1"}}, true, "yes", "environment.devices_hidden"},
      {"CudaUuidIsFine", {{"CUDA_VISIBLE_DEVICES", "GPU-1234"}}, true, "", "environment.devices_hidden"},
      {"OverrideAsGfxName",
       {{"HSA_OVERRIDE_GFX_VERSION", "gfx1030"}},
       false,
       "yes",
       "environment.override_invalid"},
      {"OverrideTwoParts",
       {{"HSA_OVERRIDE_GFX_VERSION", "10.3"}},
       false,
       "yes",
       "environment.override_invalid"},
      {"OverrideValid", {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}}, false, "", "environment.override_invalid"},
      {"OverrideCdnaOnRdna",
       {{"HSA_OVERRIDE_GFX_VERSION", "9.4.2"}},
       false,
       "yes",
       "environment.override_cross_family"},
      {"OverrideRdna2OnRdna3",
       {{"HSA_OVERRIDE_GFX_VERSION", "10.3.0"}},
       false,
       "yes",
       "environment.override_cross_family"},
      {"OverrideOwnTarget",
       {{"HSA_OVERRIDE_GFX_VERSION", "11.0.0"}},
       false,
       "",
       "environment.override_cross_family"},
      {"LdPathOtherRocm",
       {{"LD_LIBRARY_PATH", "/opt/rocm-6.4.1/lib:/usr/local/lib"}},
       false,
       "yes",
       "environment.ld_library_path_shadow"},
      {"LdPathSameSeries",
       {{"LD_LIBRARY_PATH", "/opt/rocm-6.2.4/lib"}},
       false,
       "",
       "environment.ld_library_path_shadow"},
      {"RocmPathDisagrees",
       {{"ROCM_PATH", "/opt/rocm-6.2.4"}, {"LD_LIBRARY_PATH", "/opt/rocm-7.0.2/lib"}},
       false,
       "yes",
       "environment.rocm_paths_disagree"},
      {"RocmPathAgrees",
       {{"ROCM_PATH", "/opt/rocm"}, {"LD_LIBRARY_PATH", "/opt/rocm-6.2.4/lib"}},
       false,
       "",
       "environment.rocm_paths_disagree"},
      {"LdPathTrailingColon",
       {{"LD_LIBRARY_PATH", "/nonexistent:"}},
       true,
       "yes",
       "environment.ld_library_path_current_folder"},
      {"LdPathLeadingColon",
       {{"LD_LIBRARY_PATH", ":/usr/local/cuda/lib64"}},
       true,
       "yes",
       "environment.ld_library_path_current_folder"},
      {"LdPathRelative",
       {{"LD_LIBRARY_PATH", "lib"}},
       true,
       "yes",
       "environment.ld_library_path_current_folder"},
      {"LdPathAbsolute",
       {{"LD_LIBRARY_PATH", "/usr/local/cuda/lib64:/opt/x"}},
       true,
       "",
       "environment.ld_library_path_current_folder"},
      {"NothingSet", {}, false, "yes", "environment.ok"},
  };
}

class EnvironmentRule : public ::testing::TestWithParam<EnvironmentRuleCase> {};

TEST_P(EnvironmentRule, FiresOrStaysQuiet) {
  const EnvironmentRuleCase& c = GetParam();
  auto fs = RunRules(EnvironmentRuleMachine(c));
  EXPECT_EQ(Has(fs, c.id), *c.fires != '\0') << c.id << ": " << Ids(fs);
}

INSTANTIATE_TEST_SUITE_P(Cases, EnvironmentRule, ::testing::ValuesIn(EnvironmentRuleCases()),
                         [](const ::testing::TestParamInfo<EnvironmentRuleCase>& p) {
                           return std::string(p.param.name);
                         });

// The fix keeps the absolute folders; with none left, it unsets the variable.
TEST(EnvironmentRules, CurrentFolderInLibraryPathFixKeepsTheAbsoluteFolders) {
  Snapshot s = Linux();
  AddNvidia(s, 0x2330, 9, 0);
  s.environment["LD_LIBRARY_PATH"] = ":/usr/local/cuda/lib64::/opt/x:";
  auto all = RunRules(s);
  const Finding* f = FindId(all, "environment.ld_library_path_current_folder");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->evidence[0].find("an empty element"), std::string::npos) << f->evidence[0];
  EXPECT_NE(BashFix(*f).find("export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/opt/x"), std::string::npos)
      << BashFix(*f);
  s.environment["LD_LIBRARY_PATH"] = ".:";
  all = RunRules(s);
  f = FindId(all, "environment.ld_library_path_current_folder");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(BashFix(*f).find("unset LD_LIBRARY_PATH"), std::string::npos) << BashFix(*f);
}

TEST(EnvironmentRules, InvalidOverrideFixUsesTheKnownValue) {
  Snapshot s = Linux();
  AddAmd(s, 0x73DF, 0xC1, "gfx1031", 12);
  s.environment["HSA_OVERRIDE_GFX_VERSION"] = "gfx1030";
  auto f_all = RunRules(s);
  const Finding* f = FindId(f_all, "environment.override_invalid");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(BashFix(*f).find("export HSA_OVERRIDE_GFX_VERSION=10.3.0"), std::string::npos) << BashFix(*f);
}

TEST(EnvironmentRules, Rdna1OverrideIsCrossFamilyAndUnset) {
  Snapshot s = Linux();
  AddAmd(s, 0x731F, 0xC1, "gfx1010", 8);
  s.environment["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
  auto f_all = RunRules(s);
  const Finding* f = FindId(f_all, "environment.override_cross_family");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(BashFix(*f).find("unset HSA_OVERRIDE_GFX_VERSION"), std::string::npos);
}

TEST(EnvironmentRules, GlobalOverrideOverMixedGpus) {
  Snapshot s = Linux();
  AddAmd(s, 0x744C, 0xC8, "gfx1100", 24);
  AddAmd(s, 0x164E, 0xC1, "gfx1036", 0, true);
  s.environment["HSA_OVERRIDE_GFX_VERSION"] = "11.0.0";
  auto fs = RunRules(s);
  EXPECT_TRUE(Has(fs, "environment.override_mixed_gpus")) << Ids(fs);
  // Issue 13: the per-node form names libhsakmt's node id, CPU node 0 included: the dGPU is node 1.
  const Finding* f = FindId(fs, "environment.override_mixed_gpus");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(BashFix(*f).find("unset HSA_OVERRIDE_GFX_VERSION\nexport HSA_OVERRIDE_GFX_VERSION_1=11.0.0"),
            std::string::npos)
      << BashFix(*f);
}

}  // namespace
}  // namespace gpudoctor

namespace gpudoctor {
namespace {

using namespace testing_rules;

// Issue 13: on the Steam Deck (gfx1033) the gfx1030 code the override borrows, and AMD's own gfx1033
// build, train to wrong results (unsloth PR 8412): an error, never a suggestion.
TEST(EnvironmentRules, Gfx1033OverrideIsAKnownBadPitfall) {
  Snapshot s = Linux();
  AddAmd(s, 0x163F, 0xAE, "gfx1033", 1, true);
  s.environment["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0";
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "environment.override_known_bad");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(BashFix(*f).find("unset HSA_OVERRIDE_GFX_VERSION"), std::string::npos) << BashFix(*f);
  EXPECT_FALSE(Has(fs, "runtime.override_ok")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "environment.override_cross_family")) << Ids(fs);
  EXPECT_EQ(Db().FindOverrideRule("gfx1033"), nullptr);
  s.environment.erase("HSA_OVERRIDE_GFX_VERSION");
  EXPECT_FALSE(Has(RunRules(s), "runtime.override_needed"));
}

}  // namespace
}  // namespace gpudoctor
