// Windows terminal helpers: _isatty; Windows has no SIGPIPE.
#include <io.h>

#include "platform/terminal.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream) {
  return ::_isatty(::_fileno(stream)) != 0;
}

void IgnoreBrokenPipe() {}

}  // namespace gpudoctor
