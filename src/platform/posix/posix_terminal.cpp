// POSIX terminal helpers: isatty and SIGPIPE.
#include <signal.h>
#include <unistd.h>

#include "platform/terminal.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream) {
  return ::isatty(::fileno(stream)) == 1;
}

void IgnoreBrokenPipe() {
  ::signal(SIGPIPE, SIG_IGN);
}

void UseBinaryMode(std::FILE*) {}

}  // namespace gpudoctor
