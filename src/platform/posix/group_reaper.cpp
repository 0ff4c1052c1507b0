// POSIX: the process that kills a child's group once this process is gone (group_reaper.h).
#include "platform/posix/group_reaper.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

namespace gpudoctor {
namespace {

// Descriptors the reaper closes one by one where the kernel lacks close_range (Linux < 5.9).
constexpr long kMostDescriptorsClosedOneByOne = 65536;

bool CloseRange(unsigned first, unsigned last) {
#ifdef SYS_close_range
  return ::syscall(SYS_close_range, first, last, 0U) == 0;
#else
  (void)first;
  (void)last;
  return false;
#endif
}

// Closes every descriptor but `keep`: one inherited from this process (a child's stdin pipe, another
// thread's) would otherwise stay open as long as the reaper lives. One by one below `last_fd` where
// the kernel lacks close_range.
void CloseAllBut(int keep, long last_fd) {
  const auto kept = static_cast<unsigned>(keep);
  if ((kept == 0 || CloseRange(0, kept - 1)) && CloseRange(kept + 1, ~0U)) return;
  for (long fd = 0; fd < last_fd; ++fd) {
    if (fd != keep) ::close(static_cast<int>(fd));
  }
}

// The reaper's side of fork: only async-signal-safe calls (another thread may hold a lock).
[[noreturn]] void RunReaper(pid_t group, int read_fd, long last_fd) {
  ::setpgid(0, group);  // also done by the parent: both ask for the same group
#ifdef __linux__
  ::prctl(PR_SET_NAME, "gpudoctor-reap");
#endif
  // Signals sent to the group (a forwarded Ctrl-C) are the child's to handle; the reaper waits on.
  struct sigaction ignore = {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::sigaction(signal, &ignore, nullptr);
  CloseAllBut(read_fd, last_fd);
  char byte = 0;
  while (::read(read_fd, &byte, 1) < 0 && errno == EINTR) {
  }
  // End-of-file: this process is gone (nothing ever writes to the pipe). Only a group the reaper
  // belongs to is killed: its id cannot have passed to other processes.
  if (::getpgrp() == group) ::kill(-group, SIGKILL);
  ::_exit(0);
}

}  // namespace

Status GroupReaper::Start(pid_t group) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return EnvError(std::string("pipe2 failed: ") + std::strerror(errno));
  const long last_fd = std::clamp<long>(::sysconf(_SC_OPEN_MAX), 1024, kMostDescriptorsClosedOneByOne);
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return EnvError(std::string("fork failed: ") + std::strerror(err),
                    "too many processes? `ulimit -u` shows this user's limit");
  }
  if (pid == 0) RunReaper(group, fds[0], last_fd);
  ::setpgid(pid, group);  // also done by the reaper: whichever runs first wins the race
  ::close(fds[0]);
  pid_ = pid;
  write_fd_ = fds[1];
  return Ok{};
}

void GroupReaper::Dismiss() {
  if (pid_ > 0) {
    // Our unreaped child, so the id is still the reaper's: it alone is killed, its group untouched.
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
  pid_ = -1;
  if (write_fd_ >= 0) ::close(write_fd_);  // only now: end-of-file would make a live reaper kill the group
  write_fd_ = -1;
}

}  // namespace gpudoctor
