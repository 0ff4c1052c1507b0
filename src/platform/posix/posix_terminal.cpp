// POSIX terminal helpers: isatty and SIGPIPE.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include "platform/terminal.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream) {
  return ::isatty(::fileno(stream)) == 1;
}

void IgnoreBrokenPipe() {
  ::signal(SIGPIPE, SIG_IGN);
}

void UseBinaryMode(std::FILE*) {}

namespace {

// Waits up to `wait` for a FIFO's writer to write or end; false when it did neither.
bool FifoReady(int fd, std::chrono::milliseconds wait) {
  pollfd p{fd, POLLIN, 0};
  const auto give_up = std::chrono::steady_clock::now() + wait;
  while (true) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
    const int ready = ::poll(&p, 1, static_cast<int>(std::max<long long>(0, left.count())));
    if (ready > 0) return true;
    if (ready == 0 || errno != EINTR) return false;
  }
}

}  // namespace

Result<std::FILE*> OpenUserStream(const std::string& path, std::chrono::milliseconds wait) {
  // O_NONBLOCK: the open of a FIFO returns at once even with no writer; blocking reads come back below.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return UserError("cannot read " + path + ": " + std::strerror(errno),
                     "check the path and its permissions");
  struct stat st {};
  std::string refused;
  if (::fstat(fd, &st) != 0)
    refused = "cannot read " + path + ": " + std::strerror(errno);
  else if (S_ISDIR(st.st_mode))
    refused = "cannot read " + path + ": it is a folder";
  else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    refused = "cannot read " + path + ": it is a device or socket, not a log file";
  else if (S_ISFIFO(st.st_mode) && !FifoReady(fd, wait))
    refused = "cannot read " + path + ": nothing was written to this FIFO in " +
              std::to_string(std::chrono::ceil<std::chrono::seconds>(wait).count()) + " s";
  std::FILE* stream = nullptr;
  if (refused.empty() && ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
    stream = ::fdopen(fd, "rb");
  if (stream) return stream;
  ::close(fd);
  if (refused.empty()) refused = "cannot read " + path + ": " + std::strerror(errno);
  return UserError(refused, "give a log file, or pipe the log into `gpudoctor explain -`");
}

namespace {
volatile std::sig_atomic_t g_stop_requested = 0;
extern "C" void OnStopSignal(int) {
  g_stop_requested = 1;
}
}  // namespace

void InstallStopRequestHandler() {
  struct sigaction action = {};
  action.sa_handler = OnStopSignal;
  ::sigemptyset(&action.sa_mask);
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

bool StopRequested() {
  return g_stop_requested != 0;
}

}  // namespace gpudoctor
