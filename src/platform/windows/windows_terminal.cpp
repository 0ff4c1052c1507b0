// Windows terminal helpers: _isatty, _setmode; Windows has no SIGPIPE.
#include <fcntl.h>
#include <io.h>

#include "platform/terminal.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream) {
  return ::_isatty(::_fileno(stream)) != 0;
}

void IgnoreBrokenPipe() {}

void UseBinaryMode(std::FILE* stream) {
  ::_setmode(::_fileno(stream), _O_BINARY);
}

}  // namespace gpudoctor
