// Windows terminal helpers: _isatty, _setmode, the console's Ctrl-C handler; Windows has no SIGPIPE.
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include "platform/terminal.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream) {
  return ::_isatty(::_fileno(stream)) != 0;
}

void IgnoreBrokenPipe() {}

void UseBinaryMode(std::FILE* stream) {
  ::_setmode(::_fileno(stream), _O_BINARY);
}

namespace {
volatile LONG g_stop_requested = 0;
BOOL WINAPI OnConsoleControl(DWORD type) {
  if (type != CTRL_C_EVENT && type != CTRL_BREAK_EVENT && type != CTRL_CLOSE_EVENT) return FALSE;
  ::InterlockedExchange(&g_stop_requested, 1);
  return TRUE;
}
}  // namespace

void InstallStopRequestHandler() {
  ::SetConsoleCtrlHandler(OnConsoleControl, TRUE);
}

bool StopRequested() {
  return ::InterlockedCompareExchange(&g_stop_requested, 0, 0) != 0;
}

}  // namespace gpudoctor
