// Terminal facts the CLI needs: is a stream a TTY (colour only there), and
// making a closed pipe (`gpudoctor info | head`) a quiet end, not a crash.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

#include "core/result.h"

namespace gpudoctor {

bool IsTerminal(std::FILE* stream);
// Called once at start-up: writes to a closed pipe fail with an error instead of killing the process.
void IgnoreBrokenPipe();
// Reads `stream` as bytes: on Windows a text-mode stream ends at a 0x1A byte and rewrites CR LF, which
// would cut a pasted log short; elsewhere a no-op.
void UseBinaryMode(std::FILE* stream);

// Opens a log the user named (`explain --file`) as a byte stream. A FIFO (`<(journalctl -k)`) is
// waited on for at most `wait` until its writer writes or ends: a FIFO nobody writes would block the
// open for ever (issue 35). Folders, devices and sockets are an Error; nothing is read from them.
Result<std::FILE*> OpenUserStream(const std::string& path, std::chrono::milliseconds wait);

// Ctrl-C (SIGINT, SIGTERM; on Windows the console's Ctrl-C and Ctrl-Break) stops long-running loops
// (`monitor`, `serve`) cleanly instead of killing the process: after InstallStopRequestHandler(),
// StopRequested() turns true at the first such signal. The flag is the one piece of process-wide state a
// signal handler can reach; nothing else reads or writes it.
void InstallStopRequestHandler();
bool StopRequested();

}  // namespace gpudoctor
