// Children die with their parent (issue 35 item 3): RunProcess passes Ctrl-C and SIGTERM on to the
// child's process group and waits for it, then raises the signal again in this process; a parent
// that is killed or stuck leaves no child running past its limit. POSIX only: on Windows the child
// lives in a Job object that ends with the parent (platform/windows/windows_process.cpp).
#ifndef _WIN32
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "platform/process.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

// Whether a process of group `pgid` is still alive (a zombie waiting for its reaper is not).
bool GroupHasLiveMembers(pid_t pgid) {
  for (const auto& entry : fs::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(entry.path() / "stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    long ppid = 0, group = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %ld %ld", &state, &ppid, &group) != 3) continue;
    if (group == pgid && state != 'Z' && state != 'X') return true;
  }
  return false;
}

// Waits (a generous bound, not a timing assertion) for the group to end; true when it did.
bool GroupEnds(pid_t pgid) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (GroupHasLiveMembers(pgid)) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(milliseconds(20));
  }
  return true;
}

// A shell that leads the child's group, starts a grandchild in it, prints its own id (the group's)
// and waits. `prelude` runs first (a trap).
ProcessRequest ShellWithGrandchild(const std::string& prelude) {
  ProcessRequest request;
  request.argv = {"/bin/sh", "-c", prelude + "sleep 300 & echo $$; wait; sleep 300"};
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

pid_t ReadGroup(int fd) {
  std::string text;
  char c = 0;
  while (text.find('\n') == std::string::npos && ::read(fd, &c, 1) == 1) text += c;
  return text.empty() ? 0 : static_cast<pid_t>(std::stol(text));
}

struct ParentRun {
  pid_t parent = 0;
  pid_t group = 0;
};

ParentRun StartParentAndChild(std::chrono::milliseconds timeout) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  ParentRun run;
  run.parent = StartParent(fds[1], timeout);
  ::close(fds[1]);
  run.group = ReadGroup(fds[0]);
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

#ifdef __linux__
TEST(ChildStop, ChildOfAKilledParentDiesWithIt) {
  ParentRun run = StartParentAndChild(std::chrono::seconds(300));
  ASSERT_GT(run.group, 0);
  ASSERT_EQ(::kill(run.parent, SIGKILL), 0);  // no handler runs: the kernel ends the child
  int status = 0;
  ASSERT_EQ(::waitpid(run.parent, &status, 0), run.parent);
  // The shell (the group's leader) dies; its grandchild is not the kernel's to end.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (::kill(run.group, 0) == 0 && std::chrono::steady_clock::now() < give_up) {
    std::ifstream in("/proc/" + std::to_string(run.group) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (stat.empty() || stat.find(") Z") != std::string::npos) break;
    std::this_thread::sleep_for(milliseconds(20));
  }
  std::ifstream in("/proc/" + std::to_string(run.group) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(stat.empty() || stat.find(") Z") != std::string::npos) << stat;
  ::kill(-run.group, SIGKILL);  // the grandchild
}
#endif

TEST(ChildStop, ChildHoldsItsOwnLimitWhenTheParentIsStuck) {
  // The parent's limit is 1 s, but the parent is stopped: the child's own alarm ends it.
  ParentRun run = StartParentAndChild(milliseconds(1000));
  ASSERT_GT(run.group, 0);
  ASSERT_EQ(::kill(run.parent, SIGSTOP), 0);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool leader_gone = false;
  while (!leader_gone && std::chrono::steady_clock::now() < give_up) {
    std::ifstream in("/proc/" + std::to_string(run.group) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    leader_gone = stat.empty() || stat.find(") Z") != std::string::npos;
    if (!leader_gone) std::this_thread::sleep_for(milliseconds(50));
  }
  EXPECT_TRUE(leader_gone) << "the child outlived its own limit";
  ::kill(-run.group, SIGKILL);
  ::kill(run.parent, SIGKILL);
  ::kill(run.parent, SIGCONT);
  int status = 0;
  ::waitpid(run.parent, &status, 0);
}

}  // namespace
}  // namespace gpudoctor
#endif
