// `gpudoctor report` through the real binary: the page is written whole (never over an existing file
// without --force, no temporary left behind), `-o -` writes to stdout, and a missing, malformed or
// wrong kind of input file is exit 3 with the file named and nothing written. Also pins the report's
// reader to what today's `gpudoctor verify --json` writes (fake backend).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_test_util.h"
#include "gates/verify_json.h"
#include "platform/process.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::FreshTempDir;
using testing::Gpudoctor;
using testing::kSource;
using testing::ReadFileText;

namespace stdfs = std::filesystem;
const std::string kH100Machine = kSource + "/tests/fixtures/sysroot/h100-sxm-server";
const std::string kBench = kSource + "/tests/fixtures/reports/bench-h200-synthetic.json";
const std::string kVerify = kSource + "/tests/fixtures/reports/verify-fake-wrong-result.json";

TEST(ReportCli, WritesTheWholePageAndNeverOverwritesWithoutForce) {
  stdfs::path dir = FreshTempDir("report_cli_write");
  const std::string out = (dir / "report.html").string();
  auto r =
      Gpudoctor({"report", "-o", out, "--sysroot", kH100Machine, "--verify", kVerify, "--bench", kBench});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(r.stdout_text.empty());
  EXPECT_NE(r.stderr_text.find("report written to"), std::string::npos);
  const std::string html = ReadFileText(out);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("</html>"), std::string::npos);
  EXPECT_NE(html.find("Not this machine: read from recorded machine"), std::string::npos);
  EXPECT_NE(html.find("RESULT CHECK FAILED"), std::string::npos);
  EXPECT_EQ(std::distance(stdfs::directory_iterator(dir), stdfs::directory_iterator{}),
            1);  // no temporary left

  std::ofstream(out, std::ios::trunc) << "mine";
  auto again = Gpudoctor({"report", "-o", out, "--sysroot", kH100Machine});
  EXPECT_EQ(again.exit_code, 3);
  EXPECT_NE(again.stderr_text.find("already exists"), std::string::npos) << again.stderr_text;
  EXPECT_EQ(ReadFileText(out), "mine");
  auto forced = Gpudoctor({"report", "-o", out, "--sysroot", kH100Machine, "--force"});
  EXPECT_EQ(forced.exit_code, 0) << forced.stderr_text;
  EXPECT_EQ(ReadFileText(out).rfind("<!DOCTYPE html>", 0), 0u);
}

TEST(ReportCli, DashWritesToStdout) {
  auto r = Gpudoctor({"report", "-o", "-", "--sysroot", kH100Machine, "--bench", kBench});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_EQ(r.stdout_text.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(r.stdout_text.find("<svg"), std::string::npos);
}

TEST(ReportCli, NeedsAnOutputFile) {
  auto r = Gpudoctor({"report", "--sysroot", kH100Machine});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_text.find("give -o FILE.html"), std::string::npos) << r.stderr_text;
  EXPECT_TRUE(r.stdout_text.empty());
}

TEST(ReportCli, BadInputFilesAreExit3AndWriteNothing) {
  stdfs::path dir = FreshTempDir("report_cli_bad");
  const std::string out = (dir / "report.html").string();
  const std::string broken = (dir / "broken.json").string();
  std::ofstream(broken) << "{\n  \"schema\": \"gpudoctor.bench/1\",\n  \"benchmarks\": [\n";
  struct Case {
    std::vector<std::string> args;
    std::string message;
  } cases[] = {
      {{"--verify", (dir / "missing.json").string()},
       "--verify: " + (dir / "missing.json").string() + ": no such file"},
      {{"--bench", broken}, broken + ":4: not valid JSON"},
      {{"--bench", kVerify}, "it is a `gpudoctor verify --json` document (give it with --verify)"},
      {{"--verify", kBench}, "it is a `gpudoctor bench --json` document (give it with --bench)"},
      {{"--verify", dir.string()}, "is a folder, not a file"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> args = {"report", "-o", out, "--sysroot", kH100Machine};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = Gpudoctor(args);
    EXPECT_EQ(r.exit_code, 3) << c.message;
    EXPECT_NE(r.stderr_text.find(c.message), std::string::npos) << r.stderr_text;
    EXPECT_TRUE(r.stdout_text.empty());
    EXPECT_FALSE(stdfs::exists(out)) << c.message;
  }
}

TEST(ReportCli, HelpHasExamples) {
  auto r = Gpudoctor({"report", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.stdout_text.find("Examples:"), std::string::npos);
  EXPECT_NE(r.stdout_text.find("--verify verify.json --bench bench.json"), std::string::npos);
}

// What `gpudoctor verify --json` writes today must stay readable by the report.
TEST(ReportCli, ReadsWhatVerifyWritesToday) {
  stdfs::path dir = FreshTempDir("report_cli_verify");
  const std::string script = (dir / "fake.json").string();
  std::ofstream(script)
      << R"({"devices": [{"name": "Fake GPU", "pci_address": "0000:03:00.0", "arch": "sm_90",
                               "memory_total_bytes": 16777216}]})";
  auto r = Gpudoctor({"verify", "--json", "--fake-script", script, "--inject", "wrong-result",
                      "--sustain-seconds", "0.3", "--gate-timeout", "20"});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  auto doc = VerifyReportFromJson(r.stdout_text, "verify output");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  size_t failed = 0;
  for (const auto& g : doc->gates) failed += g.status == GateStatus::kFail;
  EXPECT_EQ(failed, 1u);
  EXPECT_FALSE(doc->gates.empty());
}

}  // namespace
}  // namespace gpudoctor
