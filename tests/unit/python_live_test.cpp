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
          "GPUDOCTOR_STAGE import\nsome library banner\nGPUDOCTOR_STAGE is_available\n\nGPUDOCTOR_LIVE "
          "{\"stage\": \"done\", \"torch_version\": \"2.7.1+cu128\", \"torch_file\": "
          "\"/v/torch/__init__.py\", "
          "\"cuda\": \"12.8\", \"hip\": null, \"cuda_available\": true, \"device_count\": 1, "
          "\"device_names\": "
          "[\"NVIDIA H200\"], \"arch_list\": [\"sm_90\", \"sm_100\"], \"matmul_max_abs_error\": 0.0001, "
          "\"matmul_max_abs_value\": 180.5}\n"));
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
  ProcessResult hang =
      PythonExited(0, "GPUDOCTOR_STAGE import\nGPUDOCTOR_STAGE is_available\n", "loading...\n");
  hang.timed_out = true;
  hang.exit_code.reset();
  auto h = InterpretLiveRun("p", hang);
  EXPECT_EQ(h.status, "timeout");
  EXPECT_EQ(h.stage, "is_available");
  EXPECT_EQ(h.stderr_tail, (std::vector<std::string>{"loading..."}));

  ProcessResult crash = PythonExited(0, "GPUDOCTOR_STAGE matmul\n");
  crash.exit_code.reset();
  crash.term_signal = 11;
  EXPECT_EQ(InterpretLiveRun("p", crash).status, "crashed");

  auto garbage = InterpretLiveRun("p", PythonExited(0, "GPUDOCTOR_LIVE {not json\n\x01\x02"));
  EXPECT_EQ(garbage.status, "no-report");
  auto failed = InterpretLiveRun(
      "p", PythonExited(1, "", std::string(100, 'x') + "\n" + std::string(20, '\n') + "boom\n"));
  EXPECT_EQ(failed.status, "failed");
  EXPECT_EQ(failed.stderr_tail.back(), "boom");

  auto none = InterpretLiveRun("p", Result<ProcessResult>(EnvError("cannot execute p: no such file")));
  EXPECT_EQ(none.status, "not-started");
  EXPECT_NE(none.error.find("no such file"), std::string::npos);
}

TEST(LiveRun, StderrTailIsBounded) {
  std::string err;
  for (int i = 0; i < 50; ++i) err += "line " + std::to_string(i) + " " + std::string(1000, 'y') + "\n";
  auto run = InterpretLiveRun("p", PythonExited(1, "", err));
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
  Snapshot s = With(Script("hang", "echo GPUDOCTOR_STAGE import\necho 'HIP: waiting' >&2\nexec sleep 30\n"));
  RunLivePythonChecks(s, LiveOptions{std::chrono::milliseconds(700)});
  ASSERT_TRUE(s.python_envs[0].live);
  EXPECT_EQ(s.python_envs[0].live->status, "timeout");
  EXPECT_EQ(s.python_envs[0].live->stage, "import");
  EXPECT_EQ(s.python_envs[0].live->stderr_tail, (std::vector<std::string>{"HIP: waiting"}));
}

TEST_F(FakeInterpreters, CrashGarbageAndAReport) {
  Snapshot crash = With(Script("crash", "echo GPUDOCTOR_STAGE is_available\nkill -SEGV $$\n"));
  RunLivePythonChecks(crash, LiveOptions{std::chrono::milliseconds(5000)});
  ASSERT_TRUE(crash.python_envs[0].live);
  EXPECT_EQ(crash.python_envs[0].live->status, "crashed");
  EXPECT_EQ(crash.python_envs[0].live->signal, 11);

  Snapshot garbage = With(Script("garbage", "cat > /dev/null\nprintf '\\001\\377 not json\\n'\nexit 0\n"));
  RunLivePythonChecks(garbage, LiveOptions{std::chrono::milliseconds(5000)});
  EXPECT_EQ(garbage.python_envs[0].live->status, "no-report");

  Snapshot good = With(Script(
      "good",
      "cat > /dev/null\necho 'GPUDOCTOR_LIVE {\"stage\": \"import\", \"error\": \"ModuleNotFoundError: No "
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
