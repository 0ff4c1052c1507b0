// `gpudoctor explain` end to end: the real binary on arguments, a file, stdin and an unreadable path,
// checking exit codes (0 nothing or info, 1 warnings, 2 errors, 3 tool failure) and the JSON form.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "platform/process.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

const std::string kMachine = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/rx6700xt-desktop";

ProcessResult RunExplain(std::vector<std::string> args, const std::string& stdin_text = "") {
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH, "explain"};
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.stdin_text = stdin_text;
  req.timeout = std::chrono::milliseconds(60000);
  req.extra_env = {{"NO_COLOR", "1"}};
  auto r = RunProcess(req);
  EXPECT_TRUE(r.ok());
  return r.ok() ? *r : ProcessResult{};
}

TEST(ExplainCommand, MessageArgumentWithErrorExitsTwo) {
  auto r = RunExplain(
      {"--sysroot", kMachine, "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!"});
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("hip.no_binary_for_gpu"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("10.3.0"), std::string::npos) << r.stdout_text;
}

TEST(ExplainCommand, WarningsExitOneAndInfoExitsZero) {
  EXPECT_EQ(RunExplain({"--sysroot", kMachine, "hipErrorPeerAccessNotEnabled"}).exit_code, 1);
  EXPECT_EQ(RunExplain({"--sysroot", kMachine, "hipErrorNotReady"}).exit_code, 0);
}

TEST(ExplainCommand, UnknownTextFromStdinPrintsTheSummary) {
  auto r = RunExplain({"--sysroot", kMachine}, "nothing we know\nat all\n");
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("No known problem matched"), std::string::npos) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("gfx1031"), std::string::npos) << r.stdout_text;
}

// `cmd | gpudoctor explain -`: the lone '-' is standard input, as with -f -, not a one-line message "-".
TEST(ExplainCommand, ALoneDashReadsStandardInput) {
  auto r =
      RunExplain({"--sysroot", kMachine, "--json", "-"},
                 "epoch 1\nhipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n");
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["matches"][0]["id"], "hip.no_binary_for_gpu");
  EXPECT_EQ(doc["input"]["lines"], 2);
}

// A Windows text-mode stdin would end at the 0x1A byte (Ctrl-Z) and never see the message after it.
TEST(ExplainCommand, StdinIsReadAsBytesPastCtrlZAndCarriageReturns) {
  std::string log = std::string("binary noise \x1a here\r\n") +
                    "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\r\n";
  auto r = RunExplain({"--sysroot", kMachine, "--json"}, log);
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("hip.no_binary_for_gpu"), std::string::npos) << r.stdout_text;
}

TEST(ExplainCommand, FileInputAndJson) {
  auto path = testing::ProcessTempPath("explain_test.log");
  {
    std::ofstream out(path, std::ios::binary);
    out << "epoch 1\nRuntimeError: HIP error: invalid device function\nepoch 2\n";
  }
  auto r = RunExplain({"--sysroot", kMachine, "--json", "-f", path.string()});
  std::filesystem::remove(path);
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["matches"][0]["id"], "hip.invalid_device_function");
  EXPECT_EQ(doc["matches"][0]["first_line"], 2);
  EXPECT_EQ(doc["input"]["lines"], 3);
}

// `gpudoctor explain train.log`: the one argument names a file, so the file is read (a user who forgets -f
// must not be told that nothing matched in the file's name).
TEST(ExplainCommand, OneArgumentNamingAFileReadsTheFile) {
  auto path = testing::ProcessTempPath("explain_positional.log");
  {
    std::ofstream out(path, std::ios::binary);
    out << "epoch 1\nRuntimeError: HIP error: invalid device function\nepoch 2\n";
  }
  auto r = RunExplain({"--sysroot", kMachine, "--json", path.string()});
  std::filesystem::remove(path);
  EXPECT_EQ(r.exit_code, 2) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text);
  EXPECT_EQ(doc["matches"][0]["id"], "hip.invalid_device_function");
  EXPECT_EQ(doc["input"]["lines"], 3);
  EXPECT_NE(r.stderr_text.find("reading the log in the file"), std::string::npos) << r.stderr_text;
}

TEST(ExplainCommand, UnreadableFileExitsThree) {
  auto r = RunExplain({"--sysroot", kMachine, "-f", "/nonexistent/gpudoctor/log.txt"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.stderr_text.find("cannot read"), std::string::npos) << r.stderr_text;
}

// A log pasted from another machine (it names a GPU the RX 6700 XT fixture does not have) is explained
// with the log's facts; --here says it is this machine after all.
TEST(ExplainCommand, ALogFromAnotherMachineIsExplainedWithItsOwnFacts) {
  const std::string log =
      "YOLOv5 torch-1.12.1+rocm5.1.1 CUDA:0 (AMD Radeon RX 6800 XT, 16368MiB)\n"
      "hipErrorNoBinaryForGpu: Unable to find code object for all current devices!\n";
  auto other = RunExplain({"--sysroot", kMachine, "--json"}, log);
  auto doc = nlohmann::json::parse(other.stdout_text);
  EXPECT_TRUE(doc["log_machine"]["other_machine"].get<bool>()) << other.stdout_text;
  EXPECT_EQ(doc["matches"][0]["facts_about"], "the log's machine");
  ASSERT_GE(doc["log_facts"].size(), 2u);
  EXPECT_EQ(doc["log_facts"][0]["line"], 1);

  auto here = RunExplain({"--sysroot", kMachine, "--json", "--here"}, log);
  auto forced = nlohmann::json::parse(here.stdout_text);
  EXPECT_FALSE(forced["log_machine"]["other_machine"].get<bool>());
  EXPECT_FALSE(forced["matches"][0]["facts"].empty());
}

}  // namespace
}  // namespace gpudoctor
