// Terminal facts the CLI needs: is a stream a TTY (colour only there), and
// making a closed pipe (`gpudoctor info | head`) a quiet end, not a crash.
#pragma once

#include <cstdio>

namespace gpudoctor {

bool IsTerminal(std::FILE* stream);
// Called once at start-up: writes to a closed pipe fail with an error instead of killing the process.
void IgnoreBrokenPipe();
// Reads `stream` as bytes: on Windows a text-mode stream ends at a 0x1A byte and rewrites CR LF, which
// would cut a pasted log short; elsewhere a no-op.
void UseBinaryMode(std::FILE* stream);

}  // namespace gpudoctor
