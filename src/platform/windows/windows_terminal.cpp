// Windows terminal helpers: _isatty, _setmode, the console's Ctrl-C handler; Windows has no SIGPIPE.
#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <filesystem>
#include <system_error>

#include "platform/terminal.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream) {
  return ::_isatty(::_fileno(stream)) != 0;
}

void IgnoreBrokenPipe() {}

void UseBinaryMode(std::FILE* stream) {
  ::_setmode(::_fileno(stream), _O_BINARY);
}

// Windows has no FIFOs in its file system: a named file is opened as it is; `wait` is not needed.
Result<std::FILE*> OpenUserStream(const std::string& path, std::chrono::milliseconds /*wait*/) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return UserError("cannot read " + path + ": it is a folder", "check the path");
  std::FILE* stream = std::fopen(path.c_str(), "rb");
  if (!stream) return UserError("cannot read " + path, "check the path and its permissions");
  return stream;
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
