// POSIX: running a child (a Python interpreter, the tool's own worker mode) with
// a timeout. fork + execve with pipes for stdin/stdout/stderr, all served by one
// poll loop so no pipe can fill up and deadlock; the child leads its own process
// group, and a timeout kills that whole group with SIGKILL.
//
// Children die with their parent (issue 35 item 3): while a child runs, SIGINT and SIGTERM are
// caught and passed on to its process group, which is waited for; the signal is then raised again
// in this process, so the parent ends as it would have (a shell's 130 or 143), or the handler
// installed before runs. Each child also holds its own limit: an alarm() armed before execve
// (kept across it) ends it a little after the parent's timeout, and on Linux the kernel kills it
// when the thread that started it dies (PR_SET_PDEATHSIG), even by SIGKILL. That reaches the child
// only: a reaper process in the child's group (group_reaper.h) kills the rest of the group, the
// child's own children, when this process ends before the child's run does.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/strings.h"
#include "platform/posix/group_reaper.h"
#include "platform/process.h"

extern char** environ;

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

std::string ErrnoText(int err) {
  return std::strerror(err);
}

// A file descriptor closed on scope exit.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Close(); }
  int get() const { return fd_; }
  void Reset(int fd) {
    Close();
    fd_ = fd;
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

struct Pipe {
  Fd read;
  Fd write;
};

Status MakePipe(Pipe& p) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return EnvError("pipe2 failed: " + ErrnoText(errno));
  p.read.Reset(fds[0]);
  p.write.Reset(fds[1]);
  return Ok{};
}

// The program execve will run: argv[0] itself when it holds a '/', else the
// first executable match on PATH (as execvp searches). Resolved before fork so
// that a missing program is an Error without starting anything.
Result<std::string> ResolveProgram(const std::string& name) {
  if (name.empty()) return UserError("empty program name");
  if (name.find('/') != std::string::npos) {
    if (::access(name.c_str(), X_OK) != 0) return EnvError("cannot run " + name + ": " + ErrnoText(errno));
    return name;
  }
  const char* path_env = ::getenv("PATH");
  std::string path_list = path_env ? path_env : "/usr/local/bin:/usr/bin:/bin";
  for (auto dir : Split(path_list, ':')) {
    std::string candidate = (dir.empty() ? std::string(".") : std::string(dir)) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return EnvError("cannot run " + name + ": not found on PATH");
}

// The parent's environment with `extra` set on top, as "KEY=value" strings.
std::vector<std::string> ChildEnvironment(const std::map<std::string, std::string>& extra) {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    if (eq != std::string_view::npos && extra.count(std::string(entry.substr(0, eq)))) continue;
    out.emplace_back(entry);
  }
  for (const auto& [key, value] : extra) out.push_back(key + "=" + value);
  return out;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// Writes to a pipe whose reader may be gone without raising SIGPIPE in this
// process: the signal is blocked in this thread and a pending one consumed.
ssize_t WriteWithoutSigpipe(int fd, const char* data, size_t size) {
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigset_t pending;
  sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  ssize_t n = ::write(fd, data, size);
  int saved = errno;
  if (n < 0 && saved == EPIPE && !was_pending) {
    timespec zero{};
    while (sigtimedwait(&pipe_set, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  errno = saved;
  return n;
}

// What the child does between fork and execve, all prepared before fork.
struct ChildSetup {
  const char* program;
  char* const* argv;
  char* const* envp;
  int in_fd, out_fd, err_fd, report_fd;
  pid_t parent;                // this process, to notice a parent that died before PR_SET_PDEATHSIG
  unsigned int alarm_seconds;  // the child's own limit, kept across execve
};

// Child side of fork: only async-signal-safe calls until execve.
[[noreturn]] void ExecChild(const ChildSetup& c) {
  ::setpgid(0, 0);
#ifdef __linux__
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != c.parent) ::_exit(127);
#endif
  ::alarm(c.alarm_seconds);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  if (::dup2(c.in_fd, 0) < 0 || ::dup2(c.out_fd, 1) < 0 || ::dup2(c.err_fd, 2) < 0) {
    int err = errno;
    (void)!::write(c.report_fd, &err, sizeof err);
    ::_exit(127);
  }
  ::execve(c.program, c.argv, c.envp);
  int err = errno;
  (void)!::write(c.report_fd, &err, sizeof err);
  ::_exit(127);
}

// How long after the parent's own timeout a child's alarm ends it: the parent's limit fires first
// and reports the timeout; the alarm only matters when the parent is gone or stuck.
constexpr std::chrono::seconds kChildAlarmMargin{5};

unsigned int ChildAlarmSeconds(std::chrono::milliseconds timeout) {
  const long long seconds =
      std::chrono::ceil<std::chrono::seconds>(timeout).count() + kChildAlarmMargin.count();
  return static_cast<unsigned int>(std::clamp<long long>(seconds, 1, UINT_MAX));
}

// The signal (SIGINT or SIGTERM) that arrived while a child ran, or 0: the one piece of process-wide
// state the handler below touches.
volatile std::sig_atomic_t g_stop_signal = 0;

extern "C" void OnStopSignalWhileChildRuns(int signal) {
  g_stop_signal = signal;
}

constexpr int kForwardedSignals[] = {SIGINT, SIGTERM};

// SIGINT and SIGTERM caught while at least one child runs. RunProcess may run on several threads at
// once (collectives' rank workers), so the first to enter installs the handler and the last to leave
// puts back the dispositions it found, then raises a signal that came, so this process ends as the
// signal would have ended it (or the handler found runs). A signal ignored on entry stays ignored (a
// background job's SIGINT). The count and the saved dispositions live in one function-local object,
// under its lock, and only RunProcess reaches them.
class StopSignalForwarding {
 public:
  StopSignalForwarding() { Shared().Enter(); }
  ~StopSignalForwarding() { Shared().Leave(); }
  StopSignalForwarding(const StopSignalForwarding&) = delete;
  StopSignalForwarding& operator=(const StopSignalForwarding&) = delete;

  // The signal to pass on to the children, or 0.
  static int Pending() { return g_stop_signal; }

 private:
  struct State {
    std::mutex mutex;
    int active = 0;
    struct sigaction saved[2] = {};
    bool caught[2] = {};

    void Enter() {
      std::lock_guard<std::mutex> lock(mutex);
      if (active++ > 0) return;
      g_stop_signal = 0;
      for (size_t i = 0; i < 2; ++i) {
        ::sigaction(kForwardedSignals[i], nullptr, &saved[i]);
        caught[i] = (saved[i].sa_flags & SA_SIGINFO) != 0 || saved[i].sa_handler != SIG_IGN;
        if (!caught[i]) continue;
        struct sigaction action = {};
        action.sa_handler = OnStopSignalWhileChildRuns;  // no SA_RESTART: poll() returns at once
        sigemptyset(&action.sa_mask);
        ::sigaction(kForwardedSignals[i], &action, nullptr);
      }
    }
    void Leave() {
      int signal = 0;
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (--active > 0) return;
        for (size_t i = 0; i < 2; ++i) {
          if (caught[i]) ::sigaction(kForwardedSignals[i], &saved[i], nullptr);
        }
        signal = g_stop_signal;
        g_stop_signal = 0;
      }
      if (signal != 0) ::raise(signal);
    }
  };
  static State& Shared() {
    static State state;
    return state;
  }
};

// Whether the child `pid` has ended, without reaping it (its id stays its group's until reaped).
bool HasExited(pid_t pid) {
  siginfo_t info{};
  return ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
         info.si_pid == pid;
}

// How long a child passed Ctrl-C or SIGTERM gets to end on its own before its group is killed.
constexpr std::chrono::seconds kStopGrace{3};

// Passes `signal` on to the child's group and waits for the child (a short grace), then kills the
// group, so nothing the child started stays behind. The caller reaps the child.
void StopChildGroup(pid_t pid, int signal, bool reaped) {
  ::kill(-pid, signal);
  const Clock::time_point grace_end = Clock::now() + kStopGrace;
  while (!reaped && !HasExited(pid) && Clock::now() < grace_end)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(-pid, SIGKILL);
}

// A descriptor that becomes readable when the child exits (Linux 5.3+), or -1.
int OpenPidFd(pid_t pid) {
#ifdef SYS_pidfd_open
  long fd = ::syscall(SYS_pidfd_open, pid, 0);
  return fd >= 0 ? static_cast<int>(fd) : -1;
#else
  (void)pid;
  return -1;
#endif
}

void SetNonBlocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// Reaps `pid` if it has ended; fills the exit code or signal.
bool TryReap(pid_t pid, ProcessResult& result) {
  int status = 0;
  pid_t r = ::waitpid(pid, &status, WNOHANG);
  if (r != pid) return false;
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.term_signal = WTERMSIG(status);
  return true;
}

// The exec report pipe closes on a successful execve; an errno arrives otherwise (0: it started).
int ExecFailure(int report_fd) {
  int exec_errno = 0;
  ssize_t got;
  while ((got = ::read(report_fd, &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  return got == static_cast<ssize_t>(sizeof exec_errno) ? exec_errno : 0;
}

// Waits for `pid` (blocking), retrying on EINTR: for a child that never started or was just killed.
void WaitBlocking(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

// The parent's ends of the child's standard streams while it runs.
struct ChildStreams {
  Fd& in;
  Fd& out;
  Fd& err;
  size_t stdin_written = 0;
};

// Serves the descriptors poll found ready: writes what stdin still has, appends what stdout and stderr
// bring (stdout also to the request's callback), closes each stream at its end.
void ServeReady(const ProcessRequest& request, const pollfd* fds, nfds_t n, int ready, ChildStreams& streams,
                ProcessResult& result) {
  char buffer[65536];
  for (nfds_t i = 0; ready > 0 && i < n; ++i) {
    if (fds[i].revents == 0) continue;
    const int fd = fds[i].fd;
    if (fd == streams.in.get()) {
      const std::string& text = request.stdin_text;
      ssize_t w =
          WriteWithoutSigpipe(fd, text.data() + streams.stdin_written, text.size() - streams.stdin_written);
      if (w > 0) streams.stdin_written += static_cast<size_t>(w);
      if ((w < 0 && errno != EAGAIN && errno != EINTR) || streams.stdin_written == text.size())
        streams.in.Close();
    } else if (fd == streams.out.get() || fd == streams.err.get()) {
      const bool is_out = fd == streams.out.get();
      ssize_t r = ::read(fd, buffer, sizeof buffer);
      if (r > 0) {
        (is_out ? result.stdout_text : result.stderr_text).append(buffer, static_cast<size_t>(r));
        if (is_out && request.on_stdout) request.on_stdout(std::string_view(buffer, static_cast<size_t>(r)));
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        (is_out ? streams.out : streams.err).Close();
      }
    }
  }
}

// Feeds the child's stdin and collects its output until it has ended and both streams closed, a stop
// signal came (passed on to its group), or the deadline passed (its group killed). Returns whether the
// child was reaped.
bool ExchangeUntilDone(const ProcessRequest& request, pid_t pid, Clock::time_point deadline, int pid_fd,
                       ChildStreams& streams, ProcessResult& result) {
  bool reaped = false;
  while (true) {
    if (!reaped) reaped = TryReap(pid, result);
    if (reaped && streams.out.get() < 0 && streams.err.get() < 0) return reaped;
    if (int signal = StopSignalForwarding::Pending(); signal != 0) {
      result.interrupted = true;
      StopChildGroup(pid, signal, reaped);
      return reaped;
    }
    auto now = Clock::now();
    if (now >= deadline) {
      if (!reaped) result.timed_out = true;
      ::kill(-pid, SIGKILL);  // the whole group; the leader is not reaped, so its id is still ours
      return reaped;
    }
    pollfd fds[4];
    nfds_t n = 0;
    auto add = [&](int fd, short events) {
      if (fd >= 0) fds[n++] = pollfd{fd, events, 0};
    };
    add(streams.in.get(), POLLOUT);
    add(streams.out.get(), POLLIN);
    add(streams.err.get(), POLLIN);
    if (!reaped) add(pid_fd, POLLIN);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    // Without a pidfd the child's exit is noticed by polling waitpid. A signal taken by another thread
    // does not wake this poll: it is seen within 200 ms.
    int wait_ms = static_cast<int>(std::min<long long>(left, (reaped || pid_fd >= 0) ? 200 : 10));
    int ready = ::poll(fds, n, wait_ms);
    if (ready < 0 && errno != EINTR) {
      ::kill(-pid, SIGKILL);
      return reaped;
    }
    ServeReady(request, fds, n, ready, streams, result);
  }
}

}  // namespace

Result<ProcessResult> RunProcess(const ProcessRequest& request) {
  if (request.argv.empty()) return InternalError("RunProcess: empty argv");
  auto program = ResolveProgram(request.argv.front());
  if (!program) return program.error();

  std::vector<std::string> argv_strings = request.argv;
  std::vector<std::string> env_strings = ChildEnvironment(request.extra_env);
  std::vector<char*> argv = CStrings(argv_strings);
  std::vector<char*> envp = CStrings(env_strings);

  Pipe in, out, err, report;
  for (Pipe* p : {&in, &out, &err, &report}) {
    if (auto s = MakePipe(*p); !s) return s.error();
  }

  const ChildSetup setup{program->c_str(),   argv.data(),     envp.data(),
                         in.read.get(),      out.write.get(), err.write.get(),
                         report.write.get(), ::getpid(),      ChildAlarmSeconds(request.timeout)};
  StopSignalForwarding forwarding;  // before fork: a Ctrl-C from now on reaches the child's group
  const Clock::time_point start = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0) return EnvError("fork failed: " + ErrnoText(errno));
  if (pid == 0) ExecChild(setup);
  ::setpgid(pid, pid);  // also done by the child: whichever runs first wins the race
  in.read.Close();
  out.write.Close();
  err.write.Close();
  report.write.Close();
  // Dismissed when this function returns, after the child is reaped; ends the group if this process
  // dies first.
  GroupReaper reaper;
  if (auto started = reaper.Start(pid); !started) {
    ::kill(-pid, SIGKILL);
    WaitBlocking(pid);
    return started.error();
  }
  if (int exec_errno = ExecFailure(report.read.get()); exec_errno != 0) {
    WaitBlocking(pid);
    return EnvError("cannot start " + *program + ": " + ErrnoText(exec_errno));
  }

  ProcessResult result;
  Fd pid_fd(OpenPidFd(pid));
  SetNonBlocking(in.write.get());
  SetNonBlocking(out.read.get());
  SetNonBlocking(err.read.get());
  if (request.stdin_text.empty()) in.write.Close();
  ChildStreams streams{in.write, out.read, err.read};
  bool reaped = ExchangeUntilDone(request, pid, start + request.timeout, pid_fd.get(), streams, result);

  // Reap the child; a process stuck in the kernel (a hung driver) may ignore
  // SIGKILL for a while, so waiting is bounded rather than forever.
  const Clock::time_point reap_deadline = Clock::now() + std::chrono::seconds(5);
  while (!reaped && Clock::now() < reap_deadline) {
    reaped = TryReap(pid, result);
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (result.timed_out) result.exit_code.reset();
  result.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  return result;
}

Result<std::string> CurrentExecutablePath() {
  std::string buffer(256, '\0');
  while (true) {
    ssize_t n = ::readlink("/proc/self/exe", buffer.data(), buffer.size());
    if (n < 0) return EnvError("cannot read /proc/self/exe: " + ErrnoText(errno));
    if (static_cast<size_t>(n) < buffer.size()) {
      buffer.resize(static_cast<size_t>(n));
      return buffer;
    }
    buffer.resize(buffer.size() * 2);
  }
}

uint32_t CurrentProcessId() {
  return static_cast<uint32_t>(::getpid());
}

}  // namespace gpudoctor
