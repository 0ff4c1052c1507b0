// Children die with their parent (issue 35 item 3): RunProcess passes Ctrl-C and SIGTERM on to the
// child's process group and waits for it, then raises the signal again in this process; a parent
// that is killed or stuck leaves no child running past its limit, and a killed parent leaves none of
// the child's own children either (issue 35, grandchildren: platform/posix/group_reaper.h). POSIX
// only: on Windows the child lives in a Job object that ends with the parent
// (platform/windows/windows_process.cpp).
#ifndef _WIN32
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "platform/process.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// The fields of /proc/PID/stat these tests read.
struct ProcStat {
  pid_t pid = 0;
  char state = 0;
  long ppid = 0;
  long group = 0;
};

std::optional<ProcStat> ReadProcStat(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t close = stat.rfind(')');  // the name before it may hold spaces and parentheses
  ProcStat s;
  s.pid = pid;
  if (close == std::string::npos ||
      std::sscanf(stat.c_str() + close + 1, " %c %ld %ld", &s.state, &s.ppid, &s.group) != 3)
    return std::nullopt;
  return s;
}

// Every process /proc lists now (one that ends while it is read is left out).
std::vector<ProcStat> EveryProcess() {
  std::vector<ProcStat> all;
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (auto s = ReadProcStat(static_cast<pid_t>(std::stol(name)))) all.push_back(*s);
  }
  return all;
}

// A zombie waiting for its reaper does not run.
bool Runs(const ProcStat& s) {
  return s.state != 'Z' && s.state != 'X';
}

// Polls `done` every `step` until it holds or `bound` passes; true when it held.
template <typename Done>
bool WaitUntil(Done done, milliseconds bound, milliseconds step) {
  const auto give_up = std::chrono::steady_clock::now() + bound;
  while (!done()) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(step);
  }
  return true;
}

// Whether a process of group `pgid` still runs.
bool GroupHasLiveMembers(pid_t pgid) {
  for (const ProcStat& s : EveryProcess())
    if (s.group == pgid && Runs(s)) return true;
  return false;
}

// Waits (a generous bound unless told, not a timing assertion) for the group to end; true when it did.
bool GroupEnds(pid_t pgid, milliseconds bound = std::chrono::seconds(30)) {
  return WaitUntil([&] { return !GroupHasLiveMembers(pgid); }, bound, milliseconds(20));
}

// Whether process `pid` runs.
bool IsRunning(pid_t pid) {
  const std::optional<ProcStat> s = ReadProcStat(pid);
  return s && Runs(*s);
}

// Waits up to `bound` for process `pid` to stop running; true when it did.
bool EndsWithin(pid_t pid, milliseconds bound) {
  return WaitUntil([&] { return !IsRunning(pid); }, bound, milliseconds(10));
}

// The processes (zombies included) whose parent is this process.
std::vector<pid_t> ChildrenOfThisProcess() {
  std::vector<pid_t> children;
  for (const ProcStat& s : EveryProcess())
    if (s.ppid == ::getpid()) children.push_back(s.pid);
  return children;
}

// A shell that leads the child's group, starts a grandchild in it, prints its own id (the group's)
// and the grandchild's, and waits. `prelude` runs first (a trap).
ProcessRequest ShellWithGrandchild(const std::string& prelude) {
  ProcessRequest request;
  request.argv = {"/bin/sh", "-c", prelude + "sleep 300 & echo $$ $!; wait; sleep 300"};
  request.timeout = std::chrono::seconds(300);
  return request;
}

// The signal the test's own handler saw: the handler a program had before RunProcess.
volatile std::sig_atomic_t g_seen_signal = 0;
extern "C" void RecordSignal(int signal) {
  g_seen_signal = signal;
}

// Installs RecordSignal for `signal`, as a program's own handler, and puts back the old one after.
class RecordingHandler {
 public:
  explicit RecordingHandler(int signal) : signal_(signal) {
    g_seen_signal = 0;
    struct sigaction action = {};
    action.sa_handler = RecordSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_, &action, &old_);
  }
  ~RecordingHandler() { ::sigaction(signal_, &old_, nullptr); }

 private:
  int signal_;
  struct sigaction old_ = {};
};

// Runs the shell, raising `signal` in this process once it printed its group; returns that group.
pid_t RunAndSignal(const std::string& prelude, int signal, ProcessResult& out) {
  ProcessRequest request = ShellWithGrandchild(prelude);
  pid_t group = 0;
  std::string seen;
  request.on_stdout = [&](std::string_view piece) {
    seen += piece;
    if (group == 0 && seen.find('\n') != std::string::npos) {
      group = static_cast<pid_t>(std::stol(seen));
      ::raise(signal);  // as Ctrl-C or `kill` would, while the child runs
    }
  };
  auto r = RunProcess(request);
  EXPECT_TRUE(r.ok()) << r.error().message;
  if (r.ok()) out = *r;
  return group;
}

TEST(ChildStop, SigintIsPassedOnToTheChildGroupThenRaisedAgain) {
  RecordingHandler handler(SIGINT);
  ProcessResult result;
  const pid_t group = RunAndSignal("", SIGINT, result);
  ASSERT_GT(group, 0);
  EXPECT_TRUE(result.interrupted);
  EXPECT_FALSE(result.timed_out);
  EXPECT_EQ(result.term_signal, SIGINT) << "the shell ended by the signal passed on";
  EXPECT_EQ(g_seen_signal, SIGINT) << "raised again for the handler the program had";
  EXPECT_TRUE(GroupEnds(group)) << "the grandchild in the child's group is gone too";
  struct sigaction now = {};
  ::sigaction(SIGINT, nullptr, &now);
  EXPECT_EQ(now.sa_handler, RecordSignal) << "the program's handler is back";
}

TEST(ChildStop, ChildGroupIgnoringSigtermIsKilledAfterTheGrace) {
  RecordingHandler handler(SIGTERM);
  ProcessResult result;
  const pid_t group = RunAndSignal("trap '' TERM; ", SIGTERM, result);
  ASSERT_GT(group, 0);
  EXPECT_TRUE(result.interrupted);
  EXPECT_EQ(result.term_signal, SIGKILL);
  EXPECT_EQ(g_seen_signal, SIGTERM);
  EXPECT_TRUE(GroupEnds(group));
}

// A parent process (forked from this test) running a child through RunProcess; it writes the child's
// group id to `report_fd`. Returns the parent's id.
pid_t StartParent(int report_fd, std::chrono::milliseconds timeout) {
  const pid_t parent = ::fork();
  if (parent != 0) return parent;
  ProcessRequest request = ShellWithGrandchild("");
  request.timeout = timeout;
  request.on_stdout = [&](std::string_view piece) { (void)!::write(report_fd, piece.data(), piece.size()); };
  (void)RunProcess(request);
  ::_exit(0);
}

struct ParentRun {
  pid_t parent = 0;
  pid_t group = 0;
  pid_t grandchild = 0;
};

// Reads the shell's line "GROUP GRANDCHILD" as the parent passed it on.
void ReadIds(int fd, ParentRun& run) {
  std::string text;
  char c = 0;
  while (text.find('\n') == std::string::npos && ::read(fd, &c, 1) == 1) text += c;
  long group = 0, grandchild = 0;
  if (std::sscanf(text.c_str(), "%ld %ld", &group, &grandchild) != 2) return;
  run.group = static_cast<pid_t>(group);
  run.grandchild = static_cast<pid_t>(grandchild);
}

ParentRun StartParentAndChild(std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  ParentRun run;
  run.parent = StartParent(fds[1], timeout);
  ::close(fds[1]);
  ReadIds(fds[0], run);
  ::close(fds[0]);
  return run;
}

TEST(ChildStop, ParentSentSigtermEndsAsTheSignalWouldAndLeavesNoChild) {
  ParentRun run = StartParentAndChild(std::chrono::seconds(300));
  ASSERT_GT(run.parent, 0);
  ASSERT_GT(run.group, 0);
  ASSERT_EQ(::kill(run.parent, SIGTERM), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(run.parent, &status, 0), run.parent);
  ASSERT_TRUE(WIFSIGNALED(status)) << "a shell shows 143";
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(GroupEnds(run.group));
}

// Issue 35, grandchildren: gpudoctor killed by SIGKILL (no handler runs) while its child has children
// of its own, as Python's multiprocessing or compile workers. The kernel ends the child
// (PR_SET_PDEATHSIG) but not the grandchild; the group reaper RunProcess starts beside the child ends
// the whole group, itself included. Before the reaper the grandchild ran on with PPID 1.
TEST(ChildStop, ChildAndGrandchildOfAKilledParentDieWithIt) {
  ParentRun run = StartParentAndChild(std::chrono::seconds(300));
  ASSERT_GT(run.group, 0);
  ASSERT_GT(run.grandchild, 0);
  ASSERT_TRUE(IsRunning(run.grandchild));
  ASSERT_EQ(::kill(run.parent, SIGKILL), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(run.parent, &status, 0), run.parent);
  const bool grandchild_ended = EndsWithin(run.grandchild, milliseconds(1500));
  const bool group_ended = GroupEnds(run.group, milliseconds(500));
  ::kill(-run.group, SIGKILL);  // what a failure left behind
  EXPECT_TRUE(grandchild_ended) << "the grandchild outlived the killed parent";
  EXPECT_TRUE(group_ended) << "the child or the reaper outlived the killed parent";
}

// A child that ends normally: the reaper is dismissed and reaped, and nothing else in the child's
// group is killed (a grandchild that let go of the output lives on, as before the reaper).
TEST(ChildStop, ChildThatEndsNormallyLeavesNoReaperAndKillsNothingElse) {
  ProcessRequest request;
  request.argv = {"/bin/sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"};
  const std::vector<pid_t> children_before = ChildrenOfThisProcess();
  auto r = RunProcess(request);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->exit_code, 0) << r->stderr_text;
  const pid_t grandchild = static_cast<pid_t>(std::stol(r->stdout_text));
  EXPECT_EQ(ChildrenOfThisProcess(), children_before) << "a reaper or a child was left behind";
  EXPECT_FALSE(EndsWithin(grandchild, milliseconds(200))) << "the grandchild was killed";
  ::kill(grandchild, SIGKILL);
}

// A child past its limit: its group is killed, the reaper with it, and none is left unreaped.
TEST(ChildStop, ChildPastItsLimitLeavesNoReaperAndNoGrandchild) {
  ProcessRequest request = ShellWithGrandchild("");
  request.timeout = milliseconds(300);
  pid_t grandchild = 0;
  request.on_stdout = [&](std::string_view piece) {
    long group = 0, second = 0;
    if (std::sscanf(std::string(piece).c_str(), "%ld %ld", &group, &second) == 2)
      grandchild = static_cast<pid_t>(second);
  };
  const std::vector<pid_t> children_before = ChildrenOfThisProcess();
  auto r = RunProcess(request);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  ASSERT_GT(grandchild, 0);
  EXPECT_TRUE(EndsWithin(grandchild, milliseconds(1000)));
  EXPECT_EQ(ChildrenOfThisProcess(), children_before) << "a reaper or a child was left behind";
}

TEST(ChildStop, ChildHoldsItsOwnLimitWhenTheParentIsStuck) {
  // The parent's limit is 1 s, but the parent is stopped: the child's own alarm ends it.
  ParentRun run = StartParentAndChild(milliseconds(1000));
  ASSERT_GT(run.group, 0);
  ASSERT_EQ(::kill(run.parent, SIGSTOP), 0);
  EXPECT_TRUE(EndsWithin(run.group, std::chrono::seconds(60))) << "the child outlived its own limit";
  ::kill(-run.group, SIGKILL);
  ::kill(run.parent, SIGKILL);
  ::kill(run.parent, SIGCONT);
  int status = 0;
  ::waitpid(run.parent, &status, 0);
}

}  // namespace
}  // namespace gpudoctor
#endif
