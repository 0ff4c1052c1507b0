// LoadStatus (core/load_status.h) against the words saved snapshots, verify and bench reports and the
// worker protocol already hold, which must keep reading and writing the same.
#include "core/load_status.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(LoadStatusNames, AreTheWordsTheDocumentsHold) {
  EXPECT_EQ(LoadStatusName(LoadStatus::kLoaded), "loaded");
  EXPECT_EQ(LoadStatusName(LoadStatus::kAbsent), "absent");
  EXPECT_EQ(LoadStatusName(LoadStatus::kBroken), "broken");
  EXPECT_EQ(LoadStatusName(LoadStatus::kNotTried), "not-tried");
  EXPECT_EQ(LoadStatusName(LoadStatus::kNotProbed), "not-probed");
}

TEST(LoadStatusNames, EachWordReadsBackAsItsStatus) {
  for (LoadStatus s : {LoadStatus::kLoaded, LoadStatus::kAbsent, LoadStatus::kBroken, LoadStatus::kNotTried,
                       LoadStatus::kNotProbed}) {
    auto back = LoadStatusFromName(LoadStatusName(s));
    ASSERT_TRUE(back.has_value()) << LoadStatusName(s);
    EXPECT_EQ(*back, s);
  }
}

TEST(LoadStatusNames, OtherWordsAreRefused) {
  for (const char* word : {"", "Loaded", "missing", "not found", "not_tried", "notprobed", "loaded "})
    EXPECT_FALSE(LoadStatusFromName(word).has_value()) << word;
}

}  // namespace
}  // namespace gpudoctor
