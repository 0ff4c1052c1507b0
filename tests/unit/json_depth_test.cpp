// Outside JSON nested deeper than gpudoctor reads (issue 35): refused with a user error before the JSON
// library recurses, never a crash. The snapshot below crashed `info --from` (SIGSEGV) before the limit.
#include <gtest/gtest.h>

#include <string>

#include "core/json_depth.h"
#include "core/json_reader.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

// {"a":[[[...]]],"b":1}: a value `depth` arrays deep followed by another key (the crashing shape).
std::string DeepValueThenKey(size_t depth) {
  return "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + ",\"b\":1}";
}

TEST(JsonDepth, DeepSnapshotIsAUserErrorNotACrash) {
  auto s = SnapshotFromJson(DeepValueThenKey(104687), "min.json");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::kUser);
  EXPECT_NE(s.error().message.find("min.json: JSON nested deeper than"), std::string::npos)
      << s.error().message;
}

TEST(JsonDepth, DeepDocumentIsRefusedByTheSharedReader) {
  auto doc = ParseJsonObject(DeepValueThenKey(100000), "bench.json", "");
  ASSERT_FALSE(doc.ok());
  EXPECT_NE(doc.error().message.find("bench.json: JSON nested deeper than"), std::string::npos)
      << doc.error().message;
}

TEST(JsonDepth, BracketsInsideStringsDoNotCount) {
  EXPECT_EQ(JsonNestingDepth(R"({"a": [1, {"b": 2}]})"), 3u);
  EXPECT_EQ(JsonNestingDepth(R"({"a": "[[[[{{{{"})"), 1u);
  EXPECT_EQ(JsonNestingDepth(R"({"a": "x\"[[[", "b": ["\\"]})"), 2u);
  EXPECT_EQ(JsonNestingDepth("42"), 0u);
}

TEST(JsonDepth, TheLimitItselfStillParses) {
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_FALSE(JsonTooDeep(at_limit, "x.json"));
  EXPECT_FALSE(ParseJsonWithinDepth<JsonValue>(at_limit).is_discarded());
  const std::string past = "[" + at_limit + "]";
  EXPECT_EQ(JsonTooDeep(past, "x.json"), "x.json: JSON nested deeper than 256 levels");
  EXPECT_TRUE(ParseJsonWithinDepth<nlohmann::ordered_json>(past).is_discarded());
}
}  // namespace
}  // namespace gpudoctor
