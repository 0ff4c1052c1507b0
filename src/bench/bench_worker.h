// The hidden worker mode of `gpudoctor bench`: `gpudoctor __worker bench GROUP --ids ... ` runs some of one
// group's benchmarks in this process and prints their results as JSON lines (bench_protocol.h). A watchdog
// (gates/worker_watchdog.h) holds each benchmark to its time limit. main.cpp dispatches here before parsing
// any flag.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "platform/environment.h"

namespace gpudoctor {

// `args` are argv[1..]: "__worker", "bench", GROUP, options. Returns the process exit code: 0 when the
// benchmarks ran (whatever their results), 3 when the request itself was wrong.
int RunBenchWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                       std::FILE* err);

}  // namespace gpudoctor
