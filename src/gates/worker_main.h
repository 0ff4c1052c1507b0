// The hidden worker mode: `gpudoctor __worker verify-gate NAME ...` runs one gate in its own process and
// prints its GateResult as one JSON line on stdout. main.cpp dispatches here before parsing any flag, so
// the worker never depends on the CLI's flag definitions.
#pragma once

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gates/worker_protocol.h"
#include "platform/environment.h"
#include "platform/filesystem.h"

namespace gpudoctor {

// A worker's backend and the live file system its library search reads (which must outlive it).
struct WorkerBackend {
  std::unique_ptr<FileSystem> fs;
  std::unique_ptr<Backend> backend;
};

// The backend a worker request names, over the live machine (the fake one reads its script file). Shared
// by verify's worker and bench's (bench/bench_worker.h).
Result<WorkerBackend> MakeWorkerBackend(BackendKind kind, const Environment& env,
                                        const std::map<std::string, std::string>& arch_by_pci,
                                        const std::string& fake_script_path);

// `args` are argv[1..]: "__worker", "verify-gate", NAME, options. Returns the process exit code: 0 when a
// result was printed (whatever the gate's status), 3 when the request itself was wrong.
int RunWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                  std::FILE* err);

}  // namespace gpudoctor
