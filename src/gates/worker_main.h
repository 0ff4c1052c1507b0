// The hidden worker mode: `gpudoctor __worker verify-gate NAME ...` runs one gate in its own process and
// prints its GateResult as one JSON line on stdout. main.cpp dispatches here before parsing any flag, so
// the worker never depends on the CLI's flag definitions.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "gates/worker_protocol.h"
#include "platform/environment.h"

namespace gpudoctor {

// `args` are argv[1..]: "__worker", "verify-gate", NAME, options. Returns the process exit code: 0 when a
// result was printed (whatever the gate's status), 3 when the request itself was wrong.
int RunWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                  std::FILE* err);

}  // namespace gpudoctor
