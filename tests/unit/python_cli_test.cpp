// --python-env and check --live through the real binary: an environment named on the command line is
// examined, --live refuses a recorded machine, and without --live no interpreter is ever started (a
// fake python that leaves a mark proves it).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "platform/process.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Gpudoctor;
using testing::kFixtures;

namespace stdfs = std::filesystem;

class PythonCli : public ::testing::Test {
 protected:
  void SetUp() override {
    // The live machine's probes read Windows paths on Windows; these cases build a POSIX venv.
    if (stdfs::path::preferred_separator == '\\') GTEST_SKIP() << "a POSIX layout";
    root_ = testing::ProcessTempPath(
        "python_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    stdfs::remove_all(root_);
    stdfs::create_directories(root_ / "venv/bin");
    stdfs::create_directories(root_ / "venv/lib/python3.12/site-packages/torch");
    std::ofstream(root_ / "venv/pyvenv.cfg") << "home = /usr/bin\nversion = 3.12.3\n";
    std::ofstream(root_ / "venv/lib/python3.12/site-packages/torch/version.py")
        << "__version__ = '2.7.1+cu128'\ncuda = '12.8'\n";
    // A python that leaves a mark and reports an import error, as the live script would print it.
    std::ofstream(root_ / "venv/bin/python3")
        << "#!/bin/sh\ntouch '" << (root_ / "ran").string() << "'\ncat > /dev/null\n"
        << "echo '{\"type\": \"result\", \"id\": \"live\", \"stage\": \"import\", \"error\": \"ImportError: "
           "fake "
           "python\"}'\n";
    stdfs::permissions(root_ / "venv/bin/python3", stdfs::perms::owner_all);
  }
  void TearDown() override {
    std::error_code ec;
    if (!root_.empty()) stdfs::remove_all(root_, ec);
  }
  std::string Venv() const { return (root_ / "venv").string(); }
  bool Ran() const { return stdfs::exists(root_ / "ran"); }
  bool CanRunScripts() const {
    ProcessRequest probe;
    probe.argv = {(root_ / "venv/bin/python3").string()};
    auto r = RunProcess(probe);
    bool ok = r.ok() && r->exit_code == 0;
    stdfs::remove(root_ / "ran");
    return ok;
  }
  stdfs::path root_;
};

TEST_F(PythonCli, InfoExaminesTheGivenEnvironment) {
  auto r = Gpudoctor({"info", "--json", "--python-env", Venv()});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  bool found = false;
  for (const auto& e : doc["python_envs"]) {
    if (e["path"] != Venv()) continue;
    found = true;
    EXPECT_EQ(e["kind"], "venv");
    EXPECT_EQ(e["torch"]["version"], "2.7.1+cu128");
    EXPECT_EQ(e["found_by"][0], "--python-env");
  }
  EXPECT_TRUE(found) << r.stdout_text;
  EXPECT_FALSE(Ran());
}

TEST_F(PythonCli, CheckWithoutLiveStartsNoInterpreter) {
  auto r = Gpudoctor({"check", "--json", "--python-env", Venv()});
  EXPECT_NE(r.exit_code, 3) << r.stderr_text;
  EXPECT_FALSE(Ran()) << "check ran an interpreter without --live";
  EXPECT_EQ(r.stdout_text.find("framework.live_"), std::string::npos);
}

TEST_F(PythonCli, CheckLiveRunsItAndReportsTheImportError) {
  if (!CanRunScripts()) GTEST_SKIP() << "this build cannot run shell scripts";
  auto r = Gpudoctor({"check", "--json", "--live", "--python-env", Venv()});
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_TRUE(Ran());
  EXPECT_NE(r.stdout_text.find("framework.live_import_error"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("ImportError: fake python"), std::string::npos);
}

TEST(PythonCliFlags, LiveIsForThisMachineOnly) {
  auto r = Gpudoctor({"check", "--live", "--sysroot", kFixtures + "gtx1080-desktop"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_text.find("--sysroot"), std::string::npos) << r.stderr_text;
  EXPECT_EQ(Gpudoctor({"check", "--live", "--from", "x.json"}).exit_code, 3);
  EXPECT_EQ(Gpudoctor({"info", "--python-env", "/x", "--from", "x.json"}).exit_code, 3);
}

TEST(PythonCliFlags, PythonEnvInsideASysroot) {
  auto r = Gpudoctor({"info", "--json", "--sysroot", kFixtures + "phoenix-apu-laptop", "--python-env",
                      "/home/greta/ai/.venv", "--python-env", "/home/greta/missing"});
  ASSERT_EQ(r.exit_code, 0) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  ASSERT_GE(doc["python_envs"].size(), 1u);
  EXPECT_EQ(doc["python_envs"][0]["found_by"][0], "--python-env");
  EXPECT_NE(r.stdout_text.find("--python-env /home/greta/missing: no such folder"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
