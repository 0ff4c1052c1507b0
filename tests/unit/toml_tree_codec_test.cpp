// The compiled knowledge base (knowledge/toml_tree_codec.h, issue 34): every embedded data file's tree,
// decoded, is the tree ParseTomlTree makes of its text, field by field with its line numbers (so loading,
// errors and `db` output are the same as when the text was parsed at start), and a blob cut short or
// damaged is an error value, never a crash.
#include "knowledge/toml_tree_codec.h"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "knowledge/embedded_files.h"
#include "knowledge/knowledge_loader.h"

namespace gpudoctor {
namespace {

// Adds a failure naming the first difference under `path`; false when there is one.
bool SameCodecTree(const TomlNode& got, const TomlNode& want, const std::string& path) {
  if (got.kind != want.kind || got.line != want.line || got.text != want.text ||
      got.integer != want.integer ||
      std::bit_cast<uint64_t>(got.number) != std::bit_cast<uint64_t>(want.number) ||
      got.boolean != want.boolean || got.fields.size() != want.fields.size() ||
      got.items.size() != want.items.size()) {
    ADD_FAILURE() << path << ": decoded " << ToString(got.kind) << " at line " << got.line << " '" << got.text
                  << "', parsed " << ToString(want.kind) << " at line " << want.line << " '" << want.text
                  << "'";
    return false;
  }
  for (size_t i = 0; i < want.fields.size(); ++i) {
    if (got.fields[i].key != want.fields[i].key) {
      ADD_FAILURE() << path << ": key " << got.fields[i].key << " where " << want.fields[i].key
                    << " was parsed";
      return false;
    }
    if (!SameCodecTree(got.fields[i].value, want.fields[i].value, path + "." + want.fields[i].key))
      return false;
  }
  for (size_t i = 0; i < want.items.size(); ++i) {
    if (!SameCodecTree(got.items[i], want.items[i], path + "[" + std::to_string(i) + "]")) return false;
  }
  return true;
}

constexpr const char* kEveryKind = R"(top = "a \"quoted\" \u00e9 string"
negative = -9223372036854775808
big = 9223372036854775807
hex = 0xff
ratio = 0.1
infinite = -inf
not_a_number = nan
minus_zero = -0.0
yes = true
no = false
day = 2026-12-08
clock = 01:20:00
moment = 2026-12-08T01:20:00

[table.nested]
list = [1, "two", [3.5, { four = 4 }], []]
empty = {}

[[entry]]
name = "first"

[[entry]]
name = "second"
multi = """
two
lines"""
)";

TomlNode ParsedCodecSample() {
  TomlParse parsed = ParseTomlTree(kEveryKind, "sample.toml");
  EXPECT_TRUE(parsed.root.has_value()) << parsed.error;
  return parsed.root ? *parsed.root : TomlNode{};
}

TEST(TomlTreeCodec, EveryEmbeddedFileDecodesToItsParsedText) {
  size_t files = 0;
  for (const EmbeddedFile* file : EmbeddedKnowledgeFiles()) {
    SCOPED_TRACE(file->name);
    ++files;
    ASSERT_GT(file->tree_size, 0u) << "no compiled tree embedded";
    TomlParse parsed = ParseTomlTree(file->Text(), file->name);
    ASSERT_TRUE(parsed.root.has_value()) << parsed.error;
    TomlParse decoded = DecodeTomlTree(file->Tree());
    ASSERT_TRUE(decoded.root.has_value()) << decoded.error;
    EXPECT_TRUE(SameCodecTree(*decoded.root, *parsed.root, file->name));
  }
  EXPECT_GT(files, 10u);
}

TEST(TomlTreeCodec, EveryKindRoundTrips) {
  TomlNode root = ParsedCodecSample();
  ASSERT_NE(root.Find("moment"), nullptr);
  EXPECT_EQ(root.Find("moment")->kind, TomlNode::Kind::kDateTime);
  TomlParse decoded = DecodeTomlTree(EncodeTomlTree(root));
  ASSERT_TRUE(decoded.root.has_value()) << decoded.error;
  EXPECT_TRUE(SameCodecTree(*decoded.root, root, "sample"));
  EXPECT_EQ(decoded.root->Find("negative")->integer, INT64_MIN);
  EXPECT_EQ(decoded.root->Find("entry")->items[1].Find("multi")->line, 24u);
}

TEST(TomlTreeCodec, EveryTruncationIsAnError) {
  const std::string blob = EncodeTomlTree(ParsedCodecSample());
  for (size_t size = 0; size < blob.size(); ++size) {
    TomlParse decoded = DecodeTomlTree(std::string_view(blob).substr(0, size));
    EXPECT_FALSE(decoded.root.has_value()) << "cut at " << size;
    EXPECT_FALSE(decoded.error.empty()) << "cut at " << size;
  }
  EXPECT_NE(DecodeTomlTree(blob + "x").error.find("bytes after the tree"), std::string::npos);
}

// Any byte set to 0x00, 0x7f, 0x80 or 0xff: a tree or an error with a message, never a crash or a hang
// (the sanitizer builds catch a read outside the blob).
TEST(TomlTreeCodec, DamagedBytesAreATreeOrAnError) {
  const std::string blob = EncodeTomlTree(ParsedCodecSample());
  size_t errors = 0;
  for (size_t at = 0; at < blob.size(); ++at) {
    for (unsigned char value : {0x00, 0x7f, 0x80, 0xff}) {
      std::string damaged = blob;
      damaged[at] = static_cast<char>(value);
      TomlParse decoded = DecodeTomlTree(damaged);
      if (!decoded.root) {
        EXPECT_FALSE(decoded.error.empty()) << "byte " << at;
        ++errors;
      }
    }
  }
  EXPECT_GT(errors, blob.size() / 2);  // damage to kinds, lengths and counts is caught (to text is not)
  EXPECT_NE(DecodeTomlTree("GDTX\x01").error.find("GDTT"), std::string::npos);
}

TEST(TomlTreeCodec, HugeCountsAndDeepNestingAreErrors) {
  // A table claiming 2^62 fields: refused before anything is allocated.
  std::string huge("GDTT\x01\x00\x01", 7);
  huge += std::string("\x80\x80\x80\x80\x80\x80\x80\x80\x40", 9);
  EXPECT_NE(DecodeTomlTree(huge).error.find("count larger"), std::string::npos) << DecodeTomlTree(huge).error;
  // 100,000 arrays each holding the next: stops at the depth toml++ allows, not at the stack's end.
  std::string deep("GDTT\x01", 5);
  for (int i = 0; i < 100000; ++i) deep += std::string("\x01\x01\x01", 3);
  deep += std::string("\x05\x01\x00", 3);
  EXPECT_NE(DecodeTomlTree(deep).error.find("nested too deep"), std::string::npos)
      << DecodeTomlTree(deep).error;
}

TEST(TomlTreeCodec, LoaderReportsADamagedTreeAsAnError) {
  const unsigned char text[] = "x = 1\n";
  const unsigned char damaged[] = {'G', 'D', 'T', 'T', 1, 0};
  const EmbeddedFile embedded{"data/broken.toml", text, sizeof text - 1, damaged, sizeof damaged};
  KnowledgeFileText file{"data/broken.toml", "x = 1\n", &embedded};
  KnowledgeLoad load = ParseKnowledgeFile(file);
  ASSERT_FALSE(load.errors.empty());
  EXPECT_NE(load.errors[0].message.find("compiled tree"), std::string::npos) << load.errors[0].message;
}

// The knowledge tests plant entries by editing an embedded file's text: the edit must be parsed, not hidden
// behind the tree the build made of the original.
TEST(TomlTreeCodec, AnEditedEmbeddedTextIsParsed) {
  std::vector<KnowledgeFileText> files = EmbeddedKnowledgeTexts();
  ASSERT_FALSE(files.empty());
  KnowledgeFileText edited = files.front();
  ASSERT_NE(edited.embedded, nullptr);
  edited.text += "\n[[no_such_section]]\nx = 1\n";
  KnowledgeLoad load = ParseKnowledgeFile(edited);
  std::string messages;
  for (const KnowledgeError& e : load.errors) messages += e.ToString() + "\n";
  EXPECT_NE(messages.find("unknown section 'no_such_section'"), std::string::npos) << messages;
  EXPECT_TRUE(ParseKnowledgeFile(files.front()).errors.empty());
}

}  // namespace
}  // namespace gpudoctor
