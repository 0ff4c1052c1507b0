// Reading a whole file by its host path (a file the user names, a data folder, a state file), not a
// machine path under a sysroot (that is FileSystem::ReadFile, filesystem.h). The one such reader: every
// layer that may use platform/ reads files whole through it.
#pragma once

#include <cstddef>
#include <string>

#include "core/result.h"

namespace gpudoctor {

// Reads the whole file at `path`, refusing one larger than `max_bytes` (the message counts it in MiB), a
// folder, and FIFOs, devices and sockets before they are opened (a FIFO with no writer would block for
// ever). Errors are the user's: the message names the path and what is wrong with it.
Result<std::string> ReadUserFile(const std::string& path, size_t max_bytes = 256u << 20);

}  // namespace gpudoctor
