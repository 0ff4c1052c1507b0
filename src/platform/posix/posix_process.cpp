// POSIX: running a child (a Python interpreter, the tool's own worker mode) with
// a timeout. fork + execve with pipes for stdin/stdout/stderr, all served by one
// poll loop so no pipe can fill up and deadlock; the child leads its own process
// group, and a timeout kills that whole group with SIGKILL.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "core/strings.h"
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

// Child side of fork: only async-signal-safe calls until execve.
[[noreturn]] void ExecChild(const char* program, char* const* argv, char* const* envp, int in_fd, int out_fd,
                            int err_fd, int report_fd) {
  ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);
  if (::dup2(in_fd, 0) < 0 || ::dup2(out_fd, 1) < 0 || ::dup2(err_fd, 2) < 0) {
    int err = errno;
    (void)!::write(report_fd, &err, sizeof err);
    ::_exit(127);
  }
  ::execve(program, argv, envp);
  int err = errno;
  (void)!::write(report_fd, &err, sizeof err);
  ::_exit(127);
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

  const Clock::time_point start = Clock::now();
  pid_t pid = ::fork();
  if (pid < 0) return EnvError("fork failed: " + ErrnoText(errno));
  if (pid == 0) {
    ExecChild(program->c_str(), argv.data(), envp.data(), in.read.get(), out.write.get(), err.write.get(),
              report.write.get());
  }
  ::setpgid(pid, pid);  // also done by the child: whichever runs first wins the race
  in.read.Close();
  out.write.Close();
  err.write.Close();
  report.write.Close();

  // The exec report pipe closes on a successful execve; an errno arrives otherwise.
  int exec_errno = 0;
  ssize_t got;
  while ((got = ::read(report.read.get(), &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  if (got == static_cast<ssize_t>(sizeof exec_errno)) {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return EnvError("cannot start " + *program + ": " + ErrnoText(exec_errno));
  }

  ProcessResult result;
  Fd pid_fd(OpenPidFd(pid));
  SetNonBlocking(in.write.get());
  SetNonBlocking(out.read.get());
  SetNonBlocking(err.read.get());
  if (request.stdin_text.empty()) in.write.Close();

  const Clock::time_point deadline = start + request.timeout;
  size_t stdin_written = 0;
  bool reaped = false;
  char buffer[65536];
  while (true) {
    if (!reaped) reaped = TryReap(pid, result);
    if (reaped && out.read.get() < 0 && err.read.get() < 0) break;
    auto now = Clock::now();
    if (now >= deadline) {
      if (!reaped) result.timed_out = true;
      ::kill(-pid, SIGKILL);  // the whole group; the leader is not reaped, so its id is still ours
      break;
    }
    pollfd fds[4];
    nfds_t n = 0;
    auto add = [&](int fd, short events) {
      if (fd >= 0) fds[n++] = pollfd{fd, events, 0};
    };
    add(in.write.get(), POLLOUT);
    add(out.read.get(), POLLIN);
    add(err.read.get(), POLLIN);
    if (!reaped) add(pid_fd.get(), POLLIN);
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    // Without a pidfd the child's exit is noticed by polling waitpid.
    int wait_ms = static_cast<int>(std::min<long long>(left, (reaped || pid_fd.get() >= 0) ? 1000 : 10));
    int ready = ::poll(fds, n, wait_ms);
    if (ready < 0 && errno != EINTR) {
      ::kill(-pid, SIGKILL);
      break;
    }
    for (nfds_t i = 0; ready > 0 && i < n; ++i) {
      if (fds[i].revents == 0) continue;
      int fd = fds[i].fd;
      if (fd == in.write.get()) {
        const std::string& text = request.stdin_text;
        ssize_t w = WriteWithoutSigpipe(fd, text.data() + stdin_written, text.size() - stdin_written);
        if (w > 0) stdin_written += static_cast<size_t>(w);
        if ((w < 0 && errno != EAGAIN && errno != EINTR) || stdin_written == text.size()) in.write.Close();
      } else if (fd == out.read.get() || fd == err.read.get()) {
        ssize_t r = ::read(fd, buffer, sizeof buffer);
        if (r > 0) {
          (fd == out.read.get() ? result.stdout_text : result.stderr_text)
              .append(buffer, static_cast<size_t>(r));
          if (fd == out.read.get() && request.on_stdout)
            request.on_stdout(std::string_view(buffer, static_cast<size_t>(r)));
        } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
          (fd == out.read.get() ? out.read : err.read).Close();
        }
      }
    }
  }

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
