// check --live: the interpreter's output turned into a PythonLiveRun, and real runs of fake
// interpreters (shell scripts that hang, crash, print garbage or a report) and, where installed, of
// Debian's python3 with its CPU-only python3-torch.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "probe/common/python_live.h"
#include "probe_sysroot_builder.h"

namespace gpudoctor {
namespace {

constexpr std::chrono::milliseconds kLimit{60000};

ProcessResult PythonExited(int code, std::string out, std::string err = "") {
  ProcessResult r;
  r.exit_code = code;
  r.stdout_text = std::move(out);
  r.stderr_text = std::move(err);
  r.elapsed = std::chrono::milliseconds(1234);
  return r;
}

TEST(LiveRun, ReadsTheReportAmongOtherOutput) {
  auto run = InterpretLiveRun(
      "/v/bin/python",
      PythonExited(
          0,
          "{\"type\": \"begin\", \"id\": \"import\"}\nsome library banner\n"
          "{\"type\": \"begin\", \"id\": \"is_available\"}\n\n"
          "{\"type\": \"result\", \"id\": \"live\", \"stage\": \"done\", \"torch_version\": \"2.7.1+cu128\", "
          "\"torch_file\": "
          "\"/v/torch/__init__.py\", "
          "\"cuda\": \"12.8\", \"hip\": null, \"cuda_available\": true, \"device_count\": 1, "
          "\"device_names\": "
          "[\"NVIDIA H200\"], \"arch_list\": [\"sm_90\", \"sm_100\"], \"matmul_max_abs_error\": 0.0001, "
          "\"matmul_max_abs_value\": 180.5}\n"),
      std::chrono::milliseconds(60000));
  EXPECT_EQ(run.status, "ok");
  EXPECT_EQ(run.stage, "done");
  EXPECT_EQ(run.torch_version, "2.7.1+cu128");
  EXPECT_EQ(run.hip, "");
  EXPECT_EQ(run.cuda_available, true);
  EXPECT_EQ(run.device_count, 1u);
  EXPECT_EQ(run.device_names, (std::vector<std::string>{"NVIDIA H200"}));
  EXPECT_EQ(run.arch_list, (std::vector<std::string>{"sm_90", "sm_100"}));
  ASSERT_TRUE(run.matmul_max_abs_error);
  EXPECT_DOUBLE_EQ(*run.matmul_max_abs_error, 0.0001);
  EXPECT_EQ(run.elapsed_ms, 1234u);
}

TEST(LiveRun, TimeoutCrashGarbageAndNotStarted) {
  ProcessResult hang = PythonExited(
      0, "{\"type\": \"begin\", \"id\": \"import\"}\n{\"type\": \"begin\", \"id\": \"is_available\"}\n",
      "loading...\n");
  hang.timed_out = true;
  hang.exit_code.reset();
  auto h = InterpretLiveRun("p", hang, kLimit);
  EXPECT_EQ(h.status, "timeout");
  EXPECT_EQ(h.stage, "is_available");
  EXPECT_EQ(h.stderr_tail, (std::vector<std::string>{"loading..."}));

  ProcessResult crash = PythonExited(0, "{\"type\": \"begin\", \"id\": \"matmul\"}\n");
  crash.exit_code.reset();
  crash.term_signal = 11;
  auto c = InterpretLiveRun("p", crash, kLimit);
  EXPECT_EQ(c.status, "crashed");
  EXPECT_EQ(c.stage, "matmul");
  // Windows: a DLL the import needs is missing, and the process ends with STATUS_DLL_NOT_FOUND.
  EXPECT_EQ(InterpretLiveRun("p", PythonExited(static_cast<int>(0xC0000135u), ""), kLimit).status, "crashed");

  auto garbage =
      InterpretLiveRun("p", PythonExited(0, "{\"type\": \"result\", \"id\": \"live\", \n\x01\x02"), kLimit);
  EXPECT_EQ(garbage.status, "no-report");
  auto failed = InterpretLiveRun(
      "p", PythonExited(1, "", std::string(100, 'x') + "\n" + std::string(20, '\n') + "boom\n"), kLimit);
  EXPECT_EQ(failed.status, "failed");
  EXPECT_EQ(failed.stderr_tail.back(), "boom");

  auto none =
      InterpretLiveRun("p", Result<ProcessResult>(EnvError("cannot execute p: no such file")), kLimit);
  EXPECT_EQ(none.status, "not-started");
  EXPECT_NE(none.error.find("no such file"), std::string::npos);
}

TEST(LiveRun, StderrTailIsBounded) {
  std::string err;
  for (int i = 0; i < 50; ++i) err += "line " + std::to_string(i) + " " + std::string(1000, 'y') + "\n";
  auto run = InterpretLiveRun("p", PythonExited(1, "", err), kLimit);
  ASSERT_EQ(run.stderr_tail.size(), 8u);
  EXPECT_EQ(run.stderr_tail.back().rfind("line 49 ", 0), 0u);
  EXPECT_LE(run.stderr_tail.back().size(), 303u);
}

// Fake interpreters: shell scripts in a temporary folder, run through the real RunProcess.
class FakeInterpreters : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists("/bin/sh")) GTEST_SKIP() << "no /bin/sh";
    ProcessRequest probe;
    probe.argv = {"/bin/sh", "-c", "exit 0"};
    auto r = RunProcess(probe);
    if (!r.ok() || r->exit_code != 0) GTEST_SKIP() << "this build cannot run shell scripts";
  }

  std::string Script(const std::string& name, const std::string& body) {
    std::string path = root_.root() + "/" + name;
    std::ofstream(path) << "#!/bin/sh\n" << body;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
  }

  // One environment holding torch whose interpreter is `interpreter`.
  static Snapshot With(const std::string& interpreter) {
    Snapshot s;
    PythonEnv e;
    e.path = "/fake";
    e.site_packages = "/fake/lib/python3.12/site-packages";
    e.interpreter = interpreter;
    e.torch = TorchInstall{};
    e.torch->version = "2.7.1+cu128";
    s.python_envs.push_back(e);
    return s;
  }

  testing::SysrootBuilder root_;
};

TEST_F(FakeInterpreters, HangIsATimeoutWithTheStageItHungIn) {
  Snapshot s = With(Script(
      "hang", "echo '{\"type\": \"begin\", \"id\": \"import\"}'\necho 'HIP: waiting' >&2\nexec sleep 30\n"));
  RunLivePythonChecks(s, LiveOptions{std::chrono::milliseconds(700)});
  ASSERT_TRUE(s.python_envs[0].live);
  EXPECT_EQ(s.python_envs[0].live->status, "timeout");
  EXPECT_EQ(s.python_envs[0].live->stage, "import");
  EXPECT_EQ(s.python_envs[0].live->stderr_tail, (std::vector<std::string>{"HIP: waiting"}));
}

TEST_F(FakeInterpreters, CrashGarbageAndAReport) {
  Snapshot crash =
      With(Script("crash", "echo '{\"type\": \"begin\", \"id\": \"is_available\"}'\nkill -SEGV $$\n"));
  RunLivePythonChecks(crash, LiveOptions{std::chrono::milliseconds(5000)});
  ASSERT_TRUE(crash.python_envs[0].live);
  EXPECT_EQ(crash.python_envs[0].live->status, "crashed");
  EXPECT_EQ(crash.python_envs[0].live->signal, 11);

  Snapshot garbage = With(Script("garbage", "cat > /dev/null\nprintf '\\001\\377 not json\\n'\nexit 0\n"));
  RunLivePythonChecks(garbage, LiveOptions{std::chrono::milliseconds(5000)});
  EXPECT_EQ(garbage.python_envs[0].live->status, "no-report");

  Snapshot good = With(Script("good",
                              "cat > /dev/null\necho '{\"type\": \"result\", \"id\": \"live\", \"stage\": "
                              "\"import\", \"error\": \"ModuleNotFoundError: No "
                              "module named torch\"}'\n"));
  RunLivePythonChecks(good, LiveOptions{std::chrono::milliseconds(5000)});
  ASSERT_TRUE(good.python_envs[0].live);
  EXPECT_EQ(good.python_envs[0].live->status, "ok");
  EXPECT_EQ(good.python_envs[0].live->error, "ModuleNotFoundError: No module named torch");
}

TEST_F(FakeInterpreters, MissingInterpreterIsNotStarted) {
  Snapshot s = With(root_.root() + "/no-such-python");
  RunLivePythonChecks(s, LiveOptions{std::chrono::milliseconds(2000)});
  ASSERT_TRUE(s.python_envs[0].live);
  EXPECT_TRUE(s.python_envs[0].live->status == "not-started" || s.python_envs[0].live->status == "failed")
      << s.python_envs[0].live->status;
}

TEST_F(FakeInterpreters, NothingRunsWithoutTorchOrInterpreter) {
  Snapshot s = With(Script("never", "touch " + root_.root() + "/ran\n"));
  s.python_envs[0].torch.reset();
  s.python_envs.push_back(With("").python_envs[0]);
  RunLivePythonChecks(s, LiveOptions{std::chrono::milliseconds(2000)});
  EXPECT_FALSE(s.python_envs[0].live);
  EXPECT_FALSE(s.python_envs[1].live);
  EXPECT_FALSE(std::filesystem::exists(root_.root() + "/ran"));
}

// Debian 12's python3-torch (1.13, built without CUDA): the real script, a real import.
TEST(LiveRunDebianTorch, CpuBuildReportsNoGpu) {
  if (std::filesystem::path::preferred_separator == '\\') GTEST_SKIP() << "a Linux interpreter";
  const std::string python = "/usr/bin/python3";
  const std::string site = "/usr/lib/python3/dist-packages";
  if (!std::filesystem::exists(site + "/torch/version.py") || !std::filesystem::exists(python))
    GTEST_SKIP() << "Debian's python3-torch is not installed (apt-get install python3-torch)";
  Snapshot s;
  PythonEnv e;
  e.path = "/usr";
  e.site_packages = site;
  e.interpreter = python;
  e.torch = TorchInstall{};
  s.python_envs.push_back(e);
  RunLivePythonChecks(s, LiveOptions{});
  ASSERT_TRUE(s.python_envs[0].live);
  const PythonLiveRun& run = *s.python_envs[0].live;
  EXPECT_EQ(run.status, "ok") << run.error;
  EXPECT_EQ(run.stage, "done") << run.error;
  EXPECT_EQ(run.error, "");
  EXPECT_EQ(run.torch_file.rfind(site, 0), 0u) << run.torch_file;
  EXPECT_EQ(run.cuda_available, false);
  EXPECT_EQ(run.cuda, "");
}

}  // namespace
}  // namespace gpudoctor
