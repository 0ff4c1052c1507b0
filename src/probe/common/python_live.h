// `check --live`: runs each environment's own interpreter once on a small embedded script (import
// torch, torch.cuda.is_available(), the devices and their arch list, a 1024x1024 matmul on the GPU
// compared with the CPU) under a timeout, and records what it printed in PythonEnv::live. A hang, a
// crash, an import error or garbage on stdout is a result to judge (rules/framework_live.cpp), never
// a failure of the tool. Nothing here runs unless `check --live` asks for it.
#pragma once

#include <chrono>
#include <string>

#include "core/result.h"
#include "platform/process.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct LiveOptions {
  std::chrono::milliseconds timeout{60000};
};

// The Python script fed to each interpreter on stdin. It speaks the child protocol
// (platform/child_protocol.h): a "begin" line per stage as it goes (so a hang says where: import,
// is_available, devices, matmul, done) and one "result" line with id "live" at the end.
const std::string& LivePythonScript();

// Turns what the child did into a PythonLiveRun (tolerant: any other stdout is ignored); `timeout` is the
// limit it ran under.
PythonLiveRun InterpretLiveRun(const std::string& interpreter, const Result<ProcessResult>& result,
                               std::chrono::milliseconds timeout);

// Runs every distinct interpreter of the environments that hold torch (one run per interpreter) and
// stores each result in the environment whose site-packages the imported torch came from (else the
// first environment of that interpreter).
void RunLivePythonChecks(Snapshot& snapshot, const LiveOptions& options);

}  // namespace gpudoctor
