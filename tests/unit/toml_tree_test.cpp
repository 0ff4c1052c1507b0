// The TOML tree's own bounds (knowledge/toml_tree.h): a table header of thousands of dotted keys nests
// tables that deep, which toml++'s limit of 256 nested values does not cover; converting it recursed once
// per key and overflowed the stack (issue 35, attempt 70: `db lint`, `--db`).
#include "knowledge/toml_tree.h"

#include "knowledge/toml_depth.h"

#include <gtest/gtest.h>

#include <string>

namespace gpudoctor {
namespace {

std::string DottedHeader(size_t keys) {
  std::string header = "[a";
  for (size_t i = 1; i < keys; ++i) header += ".a";
  return header + "]\nx = 1\n";
}

TEST(TomlTree, DeepDottedHeaderIsAnErrorNotACrash) {
  TomlParse parse = ParseTomlTree(DottedHeader(22812), "overrides.toml");
  EXPECT_FALSE(parse.root.has_value());
  EXPECT_NE(parse.error.find("nested deeper than"), std::string::npos) << parse.error;
  EXPECT_EQ(parse.error_line, 1u);
}

TEST(TomlTree, DottedHeaderWithinTheLimitConverts) {
  TomlParse parse = ParseTomlTree(DottedHeader(40), "overrides.toml");
  ASSERT_TRUE(parse.root.has_value()) << parse.error;
  const TomlNode* node = &*parse.root;
  for (int i = 0; i < 40; ++i) {
    node = node->Find("a");
    ASSERT_NE(node, nullptr);
  }
  ASSERT_NE(node->Find("x"), nullptr);
  EXPECT_EQ(node->Find("x")->integer, 1);
}

// The pre-scan counts the dots of keys only: numbers, strings and comments never count.
TEST(TomlTree, DepthScanCountsKeysNotValues) {
  std::string floats = "x = [";
  for (int i = 0; i < 400; ++i) floats += "1.5, ";
  floats += "2.5]\n";
  EXPECT_FALSE(TomlTooDeepLine(floats));
  const std::string dots(400, '.');
  EXPECT_FALSE(TomlTooDeepLine("s = \"" + dots + "\" # " + dots + "\n"));
  EXPECT_FALSE(TomlTooDeepLine("t = '''\n" + dots + "\n'''\n"));
  EXPECT_FALSE(TomlTooDeepLine("[[a.b]]\nv = {c.d = 1.5, e = [1.5, 2.5]}\n"));
  EXPECT_EQ(TomlTooDeepLine("ok = 1\n" + DottedHeader(300)), 2u);
  std::string inline_keys = "x = {a";
  for (int i = 0; i < 300; ++i) inline_keys += ".a";
  EXPECT_EQ(TomlTooDeepLine("\n" + inline_keys + " = 1}\n"), 2u);
}

}  // namespace
}  // namespace gpudoctor
