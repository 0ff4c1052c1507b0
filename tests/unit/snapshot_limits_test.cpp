// Outside JSON is refused before parsing when it would take too much memory (issue 35 item 1: a 60 MB
// snapshot of 20 million `[]` took about 25 times its size and ended in std::terminate): a snapshot
// past its size ceiling, any document past its value ceiling.
#include <gtest/gtest.h>

#include <string>

#include "core/json_depth.h"
#include "core/json_reader.h"
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

TEST(UserFileLimits, DocumentPastTheValueCeilingIsRefusedBeforeParsing) {
  std::string text = "{\"schema\":\"gpudoctor.verify/1\",\"x\":[";
  for (size_t i = 0; i < kMaxJsonValues; ++i) text += "0,";
  text += "0]}";
  auto doc = ParseJsonObject(text, "verify.json", "");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message.find("JSON holding more than 1048576 values"), std::string::npos)
      << doc.error().message;
  // Strings are not counted: commas inside them are text.
  EXPECT_EQ(JsonValueCount("[\"a,b,c\", {\"k\": [1, 2]}]"), 6u);
}

}  // namespace
}  // namespace gpudoctor
