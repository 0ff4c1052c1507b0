// POSIX terminal helpers: isatty and SIGPIPE.
#include <signal.h>
#include <unistd.h>
#include <csignal>

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
