// The child protocol every child of gpudoctor speaks: its lines, and the one reading of how a child ended
// that the GPU workers, tune's framework child and check --live's script share.
#include "platform/child_protocol.h"

#include <gtest/gtest.h>

#include "probe/common/python_live.h"
#include "tune/tune_runner.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

ProcessResult Ended(std::optional<int> exit_code, std::optional<int> signal, std::string out = "") {
  ProcessResult p;
  p.exit_code = exit_code;
  p.term_signal = signal;
  p.stdout_text = std::move(out);
  return p;
}

TEST(ChildProtocol, ReadsOnlyObjectsWithAStringTypeAndKeepsTheirOrder) {
  const std::string out =
      "banner from a library\n"
      "{\"type\": \"begin\", \"id\": \"import\"}\n"
      "{\"id\": \"no type\"}\n"
      "{\"type\": 3}\n"
      "{\"type\": \"begin\", \"id\": 7}\n"
      "[1, 2]\n"
      "  {\"type\": \"result\", \"id\": \"live\", \"x\": 1}  \n"
      "{\"type\": \"begin\", \"id\": \"matmul\"}\n"
      "{\"type\": \"progress\"}\n";
  const std::vector<ChildLine> lines = ReadChildLines(out);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].type, "begin");
  EXPECT_EQ(lines[0].id, "import");
  EXPECT_EQ(lines[1].type, "result");
  EXPECT_EQ(lines[1].json, "{\"type\": \"result\", \"id\": \"live\", \"x\": 1}");
  EXPECT_EQ(lines[3].id, "");
  EXPECT_EQ(LastBegun(lines), "matmul");
  EXPECT_EQ(LastBegun({}), "");
}

TEST(ChildProtocol, ABeginLineReadsBackAsItWasWritten) {
  const std::vector<ChildLine> lines = ReadChildLines(ChildLineText("begin", "gemm \"bf16\"\n") + "\n");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].type, "begin");
  EXPECT_EQ(lines[0].id, "gemm \"bf16\"\n");
}

TEST(ChildProtocol, HowAChildEndedInOneWording) {
  const auto limit = std::chrono::milliseconds(20000);
  EXPECT_EQ(ReadChildEnd(Ended(0, std::nullopt), limit).kind, ChildEndKind::kExited);
  EXPECT_EQ(ReadChildEnd(Ended(0, std::nullopt), limit).how, "");
  ChildEnd failed = ReadChildEnd(Ended(3, std::nullopt), limit);
  EXPECT_EQ(failed.kind, ChildEndKind::kFailed);
  EXPECT_EQ(failed.how, "exited with code 3");
  ChildEnd segv = ReadChildEnd(Ended(std::nullopt, 11), limit);
  EXPECT_EQ(segv.kind, ChildEndKind::kCrashed);
  EXPECT_EQ(segv.how, "was killed by signal 11 (segmentation fault)");
  EXPECT_EQ(ReadChildEnd(Ended(std::nullopt, 64), limit).how, "was killed by signal 64");
  ProcessResult hung = Ended(std::nullopt, 9);
  hung.timed_out = true;
  ChildEnd timeout = ReadChildEnd(hung, std::chrono::milliseconds(1500));
  EXPECT_EQ(timeout.kind, ChildEndKind::kTimedOut);
  EXPECT_EQ(timeout.how, "timed out after 2 s");
}

// Windows ends a process with the NTSTATUS of the exception that ended it; the loader's own codes are what
// a Python child shows when a DLL of a GPU library is missing or of another version.
TEST(ChildProtocol, WindowsExceptionCodesAreCrashesWithTheirMeaning) {
  const auto limit = std::chrono::milliseconds(1000);
  ChildEnd dll = ReadChildEnd(Ended(static_cast<int>(0xC0000135u), std::nullopt), limit);
  EXPECT_EQ(dll.kind, ChildEndKind::kCrashed);
  EXPECT_EQ(dll.how, "crashed with exception 0xc0000135 (a DLL it needs was not found)");
  EXPECT_NE(
      ReadChildEnd(Ended(-1073741511, std::nullopt), limit).how.find("0xc0000139 (a DLL lacks a function"),
      std::string::npos);
  EXPECT_EQ(ReadChildEnd(Ended(static_cast<int>(0xC0000005u), std::nullopt), limit).how,
            "crashed with exception 0xc0000005 (access violation)");
  EXPECT_EQ(ReadChildEnd(Ended(static_cast<int>(0xC0DE0001u), std::nullopt), limit).how,
            "crashed with exception 0xc0de0001");
  EXPECT_EQ(WindowsExceptionName(0x80000003u), "");
}

// The three readers of a finished child say the same thing of the same end.
TEST(ChildProtocol, WorkerTuneAndLiveChecksReadACrashAlike) {
  const std::string wording = "crashed with exception 0xc0000135 (a DLL it needs was not found)";
  ProcessResult crash =
      Ended(static_cast<int>(0xC0000135u), std::nullopt, ChildLineText("begin", "resnet50/fp16") + "\n");
  WorkerOutcome worker = InterpretWorkerProcess({"resnet50/fp16"}, crash, 20);
  EXPECT_NE(worker.why.find(wording), std::string::npos) << worker.why;
  TuneRun tune = InterpretTuneRun("python", crash, std::chrono::milliseconds(20000));
  EXPECT_EQ(tune.status, "crashed");
  ASSERT_FALSE(tune.problems.empty());
  EXPECT_EQ(tune.problems[0].id, "tune.child_crashed");
  EXPECT_NE(tune.problems[0].title.find(wording + " while running resnet50/fp16"), std::string::npos)
      << tune.problems[0].title;
  PythonLiveRun live = InterpretLiveRun("python", crash, std::chrono::milliseconds(20000));
  EXPECT_EQ(live.status, "crashed");
  EXPECT_EQ(live.stage, "resnet50/fp16");
}

}  // namespace
}  // namespace gpudoctor
