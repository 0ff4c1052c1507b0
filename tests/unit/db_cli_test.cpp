// Issue 13: `gpudoctor db show` / `db lint DIR` through the real binary, `--db DIR` as an overlay over
// the built-in data, and the knowledge base's as-of date in `check` and `explain` (text and JSON).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_test_util.h"
#include "knowledge/knowledge_as_of.h"
#include "knowledge/knowledge_loader.h"
#include "platform/process.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::FreshTempDir;
using testing::Gpudoctor;
using testing::kFixtures;
using testing::ReadFileText;

namespace stdfs = std::filesystem;
const std::string kData = std::string(GPUDOCTOR_SOURCE_DIR) + "/data";

stdfs::path CopyOfData(const std::string& name) {
  stdfs::path p = FreshTempDir("db_cli_" + name);
  for (const auto& e : stdfs::directory_iterator(kData))
    if (e.is_regular_file() && e.path().extension() == ".toml")
      stdfs::copy_file(e.path(), p / e.path().filename());
  return p;
}

KnowledgeDb Embedded() {
  auto db = LoadEmbeddedKnowledge();
  EXPECT_TRUE(db.ok());
  return db.ok() ? *db : KnowledgeDb{};
}

TEST(DbCli, ShowPrintsAsOfOriginAndCounts) {
  KnowledgeDb db = Embedded();
  ASSERT_FALSE(db.AsOf().empty());
  auto r = Gpudoctor({"db", "show"});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("As of    " + db.AsOf()), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("Origin   embedded"), std::string::npos) << r.stdout_text;
  auto j = Gpudoctor({"db", "show", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.stderr_text;
  auto doc = nlohmann::json::parse(j.stdout_text);
  EXPECT_EQ(doc["knowledge"]["as_of"], db.AsOf());
  EXPECT_EQ(doc["knowledge"]["origin"], "embedded");
  bool wheels = false;
  for (const auto& s : doc["knowledge"]["sections"]) {
    if (s["section"] == "torch_wheel") {
      wheels = true;
      EXPECT_EQ(s["entries"].get<size_t>(), db.torch_wheels.size());
    }
  }
  EXPECT_TRUE(wheels) << j.stdout_text;
}

// The newest checked date of data/ and data/explain/: linting as of that day judges no entry as dated
// after today, and the test does not depend on the clock.
std::string NewestCheckedInData() {
  std::vector<std::string> texts;
  for (const std::string& dir : {kData, kData + "/explain"})
    for (const auto& e : stdfs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".toml") texts.push_back(ReadFileText(e.path()));
  std::vector<std::string_view> views(texts.begin(), texts.end());
  return KnowledgeAsOf(views).value_or("");
}

TEST(DbCli, LintAcceptsTodaysDataFolder) {
  const std::string today = NewestCheckedInData();
  ASSERT_EQ(today.size(), 10u);
  auto r = Gpudoctor({"db", "lint", kData, "--today", today});
  ASSERT_TRUE(r.exit_code.has_value());
  // Clean: every entry, gpus_*.toml included, has its source and checked date (0, not 1 for warnings).
  EXPECT_EQ(*r.exit_code, 0) << r.stdout_text << r.stderr_text;
  EXPECT_EQ(r.stdout_text.find("error:"), std::string::npos) << r.stdout_text;
  EXPECT_EQ(r.stdout_text.find("warning:"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("0 error(s)"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("usable with --db"), std::string::npos) << r.stdout_text;
}

// Issue 30: db show gives per file the share of entries confirmed and the oldest checked date.
TEST(DbCli, ShowGivesConfirmedShareAndOldestCheckedPerFile) {
  auto j = Gpudoctor({"db", "show", "--json"});
  ASSERT_EQ(j.exit_code, 0) << j.stderr_text;
  auto doc = nlohmann::json::parse(j.stdout_text);
  bool wheels = false;
  for (const auto& f : doc["knowledge"]["by_file"]) {
    if (f["file"] != "pytorch_wheels.toml") continue;
    wheels = true;
    EXPECT_GT(f["entries"].get<size_t>(), f["confirmed"].get<size_t>()) << f.dump();
    EXPECT_EQ(f["oldest_checked"].get<std::string>().size(), 10u) << f.dump();
  }
  EXPECT_TRUE(wheels) << j.stdout_text;
  auto text = Gpudoctor({"db", "show"});
  EXPECT_NE(text.stdout_text.find("file                      entries  confirmed  oldest checked"),
            std::string::npos)
      << text.stdout_text;
  EXPECT_NE(text.stdout_text.find("  pytorch_wheels.toml"), std::string::npos) << text.stdout_text;
}

// Issue 30 (f): an entry checked more than 180 days before --today is a warning (exit 1); one without a
// checked date is an error (exit 2), as in the explain catalog.
TEST(DbCli, LintWarnsAboutOldDatesAndRejectsMissingOnes) {
  stdfs::path dir = CopyOfData("dates");
  auto old = Gpudoctor({"db", "lint", dir.string(), "--today", "2099-01-01"});
  EXPECT_EQ(old.exit_code, 1) << old.stdout_text << old.stderr_text;
  EXPECT_NE(old.stdout_text.find("days ago (more than 180): compare it with its source again"),
            std::string::npos)
      << old.stdout_text;
  auto bad = Gpudoctor({"db", "lint", dir.string(), "--today", "yesterday"});
  EXPECT_EQ(bad.exit_code, 3) << bad.stdout_text;
  EXPECT_NE(bad.stderr_text.find("--today"), std::string::npos) << bad.stderr_text;

  std::string text = ReadFileText(dir / "torch_companions.toml");
  const size_t at = text.find("checked = ");
  ASSERT_NE(at, std::string::npos) << text;
  text.erase(at, text.find('\n', at) + 1 - at);
  { std::ofstream(dir / "torch_companions.toml", std::ios::binary) << text; }
  auto missing = Gpudoctor({"db", "lint", dir.string(), "--today", NewestCheckedInData()});
  EXPECT_EQ(missing.exit_code, 2) << missing.stdout_text;
  // The folder as given, then "/" and the file (on Windows too: the separator is not the test's business).
  EXPECT_NE(missing.stdout_text.find("error: " + dir.string()), std::string::npos) << missing.stdout_text;
  EXPECT_NE(missing.stdout_text.find("torch_companions.toml:"), std::string::npos) << missing.stdout_text;
  EXPECT_NE(missing.stdout_text.find("has no checked date"), std::string::npos) << missing.stdout_text;
  stdfs::remove_all(dir);
}

TEST(DbCli, LintNamesFileAndLineOfAMalformedFolderAndChangesNothing) {
  stdfs::path dir = CopyOfData("malformed");
  {
    std::ofstream out(dir / "overrides.toml", std::ios::app);
    out << "\n[[override_rule]]\ngfx = [\"gfx1031\"\n";
  }
  {
    // A planted contradiction across files: a wheel built on a ROCm the release tables do not know.
    std::ofstream out(dir / "pytorch_wheels.toml", std::ios::app);
    out << "\n[[torch_wheel]]\ntorch = \"2.14\"\nvariant = \"rocm9.9\"\nrocm = \"9.9\"\ngfx = [\"gfx1100\"]\n"
           "checked = 2026-12-03\nsource = \"https://example.org/planted\"\n";
  }
  std::map<std::string, std::string> before;
  for (const auto& e : stdfs::directory_iterator(dir))
    before[e.path().filename().string()] = ReadFileText(e.path());
  auto r = Gpudoctor({"db", "lint", dir.string()});
  EXPECT_EQ(r.exit_code, 2) << r.stdout_text << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("overrides.toml:"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("fix the errors before using it"), std::string::npos) << r.stdout_text;
  std::map<std::string, std::string> after;
  for (const auto& e : stdfs::directory_iterator(dir))
    after[e.path().filename().string()] = ReadFileText(e.path());
  EXPECT_TRUE(before == after) << "db lint must not change the folder";
  // With only the syntax error fixed, the invariant is reported with its file and line.
  stdfs::copy_file(kData + "/overrides.toml", dir / "overrides.toml",
                   stdfs::copy_options::overwrite_existing);
  auto inv = Gpudoctor({"db", "lint", dir.string(), "--json"});
  EXPECT_EQ(inv.exit_code, 2) << inv.stdout_text;
  auto doc = nlohmann::json::parse(inv.stdout_text);
  ASSERT_FALSE(doc["errors"].empty());
  bool named = false;
  for (const auto& e : doc["errors"]) {
    std::string m = e["message"];
    if (m.find("ROCm 9.9 has no [[rocm_release]] series") != std::string::npos) {
      named = true;
      EXPECT_NE(e["file"].get<std::string>().find("pytorch_wheels.toml"), std::string::npos);
      EXPECT_GT(e["line"].get<int>(), 0);
    }
  }
  EXPECT_TRUE(named) << inv.stdout_text;
  stdfs::remove_all(dir);
}

// Issue 13: the explain catalog beside the tables carries a checked date on every entry; db lint DIR
// checks DIR/explain/: an entry without one, or dated after today, is an error at its file and line.
TEST(DbCli, LintChecksTheExplainCatalogDates) {
  stdfs::path dir = CopyOfData("explain_dates");
  stdfs::create_directories(dir / "explain");
  for (const auto& e : stdfs::directory_iterator(kData + "/explain"))
    stdfs::copy_file(e.path(), dir / "explain" / e.path().filename());
  auto clean = Gpudoctor({"db", "lint", dir.string(), "--today", NewestCheckedInData()});
  EXPECT_EQ(clean.exit_code, 0) << clean.stdout_text << clean.stderr_text;

  std::string text = ReadFileText(dir / "explain" / "libdrm.toml");
  const size_t at = text.find("checked = ");
  ASSERT_NE(at, std::string::npos) << text;
  std::string late = text;
  late.replace(at, std::string("checked = 2026-12-03").size(), "checked = 2999-01-01");
  { std::ofstream(dir / "explain" / "libdrm.toml", std::ios::binary) << late; }
  auto future = Gpudoctor({"db", "lint", dir.string(), "--today", NewestCheckedInData()});
  EXPECT_EQ(future.exit_code, 2) << future.stdout_text;
  EXPECT_NE(future.stdout_text.find("libdrm.toml:"), std::string::npos) << future.stdout_text;
  EXPECT_NE(future.stdout_text.find("after today"), std::string::npos) << future.stdout_text;

  std::string undated = text;
  undated.erase(at, text.find('\n', at) + 1 - at);
  { std::ofstream(dir / "explain" / "libdrm.toml", std::ios::binary) << undated; }
  auto missing = Gpudoctor({"db", "lint", dir.string(), "--today", NewestCheckedInData()});
  EXPECT_EQ(missing.exit_code, 2) << missing.stdout_text;
  EXPECT_NE(missing.stdout_text.find("has no checked date"), std::string::npos) << missing.stdout_text;
  stdfs::remove_all(dir);
}

TEST(DbCli, DbFolderIsAnOverlayOverTheBuiltInData) {
  KnowledgeDb db = Embedded();
  stdfs::path dir = FreshTempDir("db_cli_overlay");
  // One file only: the other files stay the built-in ones.
  std::string companions = ReadFileText(kData + "/torch_companions.toml");
  companions +=
      "\n[[torch_companion]]\ntorch = \"2.99\"\ntorchvision = [\"0.99\"]\ntorchaudio = [\"2.11\"]\n"
      "checked = 2099-01-01\nsource = \"https://example.org/overlay\"\n";
  std::ofstream(dir / "torch_companions.toml", std::ios::binary) << companions;
  auto r = Gpudoctor({"db", "show", "--db", dir.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["knowledge"]["origin"], dir.string() + " over embedded");
  EXPECT_EQ(doc["knowledge"]["as_of"], "2099-01-01");
  for (const auto& s : doc["knowledge"]["sections"]) {
    if (s["section"] == "torch_companion") {
      EXPECT_EQ(s["entries"].get<size_t>(), db.torch_companions.size() + 1);
    }
    if (s["section"] == "torch_wheel") {
      EXPECT_EQ(s["entries"].get<size_t>(), db.torch_wheels.size());
    }
  }
  // A checked date after today is a lint warning (exit 1), not an error.
  auto lint = Gpudoctor({"db", "lint", dir.string()});
  EXPECT_EQ(lint.exit_code, 1) << lint.stdout_text;
  EXPECT_NE(lint.stdout_text.find("after today"), std::string::npos) << lint.stdout_text;
  stdfs::remove_all(dir);
}

TEST(DbCli, CheckJsonCarriesTheAsOfDate) {
  KnowledgeDb db = Embedded();
  auto r = Gpudoctor({"check", "--json", "--sysroot", kFixtures + "mi300x-8gpu-node"});
  ASSERT_TRUE(r.exit_code.has_value());
  auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["knowledge"]["as_of"], db.AsOf());
  EXPECT_EQ(doc["knowledge"]["origin"], "embedded");
  auto text = Gpudoctor({"check", "--sysroot", kFixtures + "mi300x-8gpu-node"});
  EXPECT_NE(text.stdout_text.find("knowledge base as of " + db.AsOf() + " (embedded)"), std::string::npos)
      << text.stdout_text;
}

TEST(DbCli, ExplainShowsTheAsOfDateLikeCheck) {
  KnowledgeDb db = Embedded();
  ASSERT_FALSE(db.AsOf().empty());
  const std::string machine = kFixtures + "rx6700xt-desktop";
  auto r = Gpudoctor({"explain", "--json", "--sysroot", machine, "hipErrorNotReady"});
  ASSERT_TRUE(r.exit_code.has_value());
  auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["knowledge"]["as_of"], db.AsOf());
  EXPECT_EQ(doc["knowledge"]["origin"], "embedded");
  auto text = Gpudoctor({"explain", "--sysroot", machine, "hipErrorNotReady"});
  const std::string first_line = text.stdout_text.substr(0, text.stdout_text.find_first_of("\r\n"));
  EXPECT_EQ(first_line, "knowledge base as of " + db.AsOf() + " (embedded)") << text.stdout_text;
}

TEST(DbCli, UnknownActionIsAUsageError) {
  auto r = Gpudoctor({"db", "frobnicate"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_text.find("db show"), std::string::npos) << r.stderr_text;
}

}  // namespace
}  // namespace gpudoctor
