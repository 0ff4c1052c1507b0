// `gpudoctor --version` (issue 19): the build's version and the knowledge base's as-of date, read from
// the data files' `as_of` / `checked` dates.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "cli/version_text.h"
#include "core/build_version.h"
#include "knowledge/knowledge_as_of.h"
#include "knowledge/knowledge_loader.h"
#include "platform/process.h"

namespace gpudoctor {
namespace {

std::optional<std::string> AsOf(std::vector<std::string_view> texts) {
  return KnowledgeAsOf(texts);
}

TEST(KnowledgeAsOf, TheNewestCheckedDateOfAnyFile) {
  EXPECT_EQ(AsOf({"[[a]]\nchecked = 2026-03-01\n[[a]]\nchecked = \"2026-11-30\"\n",
                  "points = [ { version = \"1\", checked = 2026-07-04 } ]\n"}),
            "2026-11-30");
}

TEST(KnowledgeAsOf, AnAsOfDateWinsOverCheckedDates) {
  EXPECT_EQ(AsOf({"as_of = 2026-10-01\n", "checked = 2026-12-01\n"}), "2026-10-01");
}

TEST(KnowledgeAsOf, OnlyTheKeysThemselvesWithAWholeDateCount) {
  EXPECT_EQ(AsOf({"rechecked = 2027-01-01\nchecked_by = 2027-01-01\nnote = \"not checked\"\n"}),
            std::nullopt);
  EXPECT_EQ(AsOf({"checked = 2026-1-01\nchecked = true\n"}), std::nullopt);
  EXPECT_EQ(AsOf({}), std::nullopt);
}

// --version scans the files for speed; check, info and db show ask the loaded database. Both must name the
// same day, or the tool would tell two ages of its own data.
TEST(KnowledgeAsOf, TheQuickScanAgreesWithTheLoadedDatabase) {
  auto db = LoadEmbeddedKnowledge();
  ASSERT_TRUE(db.ok()) << db.error().message;
  auto scanned = EmbeddedKnowledgeAsOf();
  ASSERT_TRUE(scanned.has_value());
  EXPECT_EQ(*scanned, db->AsOf());
}

TEST(VersionText, NamesTheBuildAndTheKnowledgeDate) {
  EXPECT_EQ(VersionText("0.2.0-3-gabc1234", "2026-12-03"),
            "gpudoctor 0.2.0-3-gabc1234\nknowledge as of 2026-12-03");
  EXPECT_NE(VersionText("0.1.0", std::nullopt).find("unknown"), std::string::npos);
}

TEST(VersionText, TheBinaryPrintsItsBuildVersion) {
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH, "--version"};
  req.timeout = std::chrono::milliseconds(20000);
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0);
  // The test and the binary are built from the same tree in the same build.
  // The first line, whatever ends it (CR LF from the Windows build).
  EXPECT_EQ(r->stdout_text.substr(0, r->stdout_text.find_first_of("\r\n")),
            "gpudoctor " + std::string(BuildVersion()))
      << r->stdout_text;
  EXPECT_NE(r->stdout_text.find("knowledge as of"), std::string::npos);
  EXPECT_FALSE(BuildVersion().empty());
}

}  // namespace
}  // namespace gpudoctor
