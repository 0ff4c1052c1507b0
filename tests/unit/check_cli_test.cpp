// `gpudoctor check` through the real binary: exit codes per verdict, --json, --shell, --explain, and
// the tool's own failures (a broken snapshot or knowledge-base file: the file and line named, exit 3,
// nothing on stdout).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "platform/process.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::FreshTempDir;
using testing::Gpudoctor;
using testing::kFixtures;

namespace stdfs = std::filesystem;

TEST(CheckCli, ExitCodeIsTheVerdict) {
  EXPECT_EQ(Gpudoctor({"check", "--sysroot", kFixtures + "mi300x-8gpu-node"}).exit_code, 0);
  EXPECT_EQ(Gpudoctor({"check", "--sysroot", kFixtures + "strix-halo-laptop"}).exit_code, 1);
  auto r = Gpudoctor({"check", "--sysroot", kFixtures + "vm-no-gpu"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.stdout_text.find("[x] Hardware: No AMD or NVIDIA GPU found"), std::string::npos)
      << r.stdout_text;
}

// The data's age is judged against --today (which Gpudoctor() passes to every `check` of the tests), never
// the clock, where given: outputs of the tests do not change once the clock is 180 days past the as-of date.
TEST(CheckCli, TodayDecidesWhetherTheKnowledgeIsStale) {
  auto fresh = Gpudoctor({"check", "--json", "--sysroot", kFixtures + "mi300x-8gpu-node"});
  EXPECT_EQ(fresh.exit_code, 0) << fresh.stderr_text;
  EXPECT_EQ(fresh.stdout_text.find("knowledge.stale"), std::string::npos) << fresh.stdout_text;
  auto late =
      Gpudoctor({"check", "--json", "--today", "2099-01-01", "--sysroot", kFixtures + "mi300x-8gpu-node"});
  EXPECT_EQ(late.exit_code, 0) << late.stderr_text;  // an info finding
  EXPECT_NE(late.stdout_text.find("knowledge.stale"), std::string::npos) << late.stdout_text;
  EXPECT_NE(late.stdout_text.find("today is 2099-01-01"), std::string::npos) << late.stdout_text;
  auto bad = Gpudoctor({"check", "--today", "tomorrow", "--sysroot", kFixtures + "vm-no-gpu"});
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_NE(bad.stderr_text.find("--today"), std::string::npos) << bad.stderr_text;
}

TEST(CheckCli, JsonIsAVersionedDocument) {
  auto r = Gpudoctor({"check", "--json", "--sysroot", kFixtures + "rx7900xtx-raphael"});
  EXPECT_EQ(r.exit_code, 2);
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.stdout_text;
  EXPECT_EQ(doc["schema"], "gpudoctor.check/1");
  EXPECT_FALSE(doc.contains("schema_version"));
  EXPECT_EQ(doc["exit_code"], 2);
  EXPECT_EQ(doc["verdict"], "error");
  ASSERT_EQ(doc["layers"].size(), 4u);
  EXPECT_EQ(doc["findings"][0]["severity"], "error");
  EXPECT_EQ(doc["machine"]["gpus"].size(), 2u);
}

TEST(CheckCli, ShellFlagChangesTheFixSyntax) {
  auto ps = Gpudoctor({"check", "--shell", "powershell", "--sysroot", kFixtures + "rx7900xtx-raphael"});
  EXPECT_NE(ps.stdout_text.find("$env:HIP_VISIBLE_DEVICES = \"0\""), std::string::npos) << ps.stdout_text;
  auto cmd = Gpudoctor({"check", "--shell", "cmd", "--sysroot", kFixtures + "rx7900xtx-raphael"});
  EXPECT_NE(cmd.stdout_text.find("set HIP_VISIBLE_DEVICES=0"), std::string::npos) << cmd.stdout_text;
  auto bash = Gpudoctor({"check", "--sysroot", kFixtures + "rx7900xtx-raphael"});
  EXPECT_NE(bash.stdout_text.find("export HIP_VISIBLE_DEVICES=0"), std::string::npos) << bash.stdout_text;
}

TEST(CheckCli, ExplainPrintsTheLongText) {
  auto r = Gpudoctor({"check", "--explain", "runtime.override_needed"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("What it checks:"), std::string::npos);
  auto bad = Gpudoctor({"check", "--explain", "no.such_rule"});
  EXPECT_EQ(bad.exit_code, 3);
  EXPECT_TRUE(bad.stdout_text.empty());
}

TEST(CheckCli, BrokenSnapshotNamesFileAndLine) {
  stdfs::path dir = FreshTempDir("check_cli_snapshot");
  stdfs::path file = dir / "snap.json";
  std::ofstream(file) << "{\n  \"schema\": \"gpudoctor.snapshot\",\n  \"os\": {\"family\": \"linux\",,}\n}\n";
  auto r = Gpudoctor({"check", "--from", file.string()});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(r.stdout_text.empty()) << r.stdout_text;
  EXPECT_NE(r.stderr_text.find(file.string() + ":3"), std::string::npos) << r.stderr_text;
  stdfs::remove_all(dir);
}

TEST(CheckCli, BrokenDataFileNamesFileAndLine) {
  stdfs::path dir = FreshTempDir("check_cli_db");
  for (const auto& e : stdfs::directory_iterator(std::string(GPUDOCTOR_SOURCE_DIR) + "/data"))
    if (e.is_regular_file() && e.path().extension() == ".toml")
      stdfs::copy_file(e.path(), dir / e.path().filename());
  {
    std::ofstream out(dir / "overrides.toml", std::ios::app);
    out << "\n[[override_rule]]\ngfx = [\"gfx1031\"\n";
  }
  auto r = Gpudoctor({"check", "--db", dir.string(), "--sysroot", kFixtures + "vm-no-gpu"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_TRUE(r.stdout_text.empty()) << r.stdout_text;
  EXPECT_NE(r.stderr_text.find("overrides.toml:"), std::string::npos) << r.stderr_text;
  auto ok = Gpudoctor({"check", "--db", std::string(GPUDOCTOR_SOURCE_DIR) + "/data", "--sysroot",
                       kFixtures + "mi300x-8gpu-node"});
  EXPECT_EQ(ok.exit_code, 0) << ok.stderr_text;
  stdfs::remove_all(dir);
}

TEST(CheckCli, PlainGpudoctorRunsCheck) {
  auto r = Gpudoctor({});
  ASSERT_TRUE(r.exit_code.has_value());
  EXPECT_LE(*r.exit_code, 2) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.rfind("gpudoctor check:", 0), 0u) << r.stdout_text;
}

}  // namespace
}  // namespace gpudoctor
