// A snapshot past its stated size ceiling is an error value before any parsing (issue 35 item 1: a
// 60 MB one took about 25 times its size in memory and ended in std::terminate).
#include <gtest/gtest.h>

#include <string>

#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

TEST(UserFileLimits, SnapshotPastItsCeilingIsRefusedBeforeParsing) {
  // Valid JSON, padded past the ceiling: refused by its size, not parsed.
  std::string text = "{\"schema\":\"gpudoctor.snapshot/2\",\"x\":[";
  text.append(kMaxSnapshotBytes, ' ');
  text += "]}";
  auto snap = SnapshotFromJson(text, "big.json");
  ASSERT_FALSE(snap.ok());
  EXPECT_NE(snap.error().message.find("a snapshot is at most 16 MiB"), std::string::npos)
      << snap.error().message;
}

}  // namespace
}  // namespace gpudoctor
