// The backend a worker request names, over the live machine: the library search reads the live root, the
// fake backend reads its script file. Every job that needs a GPU starts here.
#pragma once

#include <memory>

#include "core/result.h"
#include "gpu/backend.h"
#include "gpu/fake/fake_kernels.h"
#include "platform/environment.h"
#include "platform/filesystem.h"
#include "worker/worker_request.h"

namespace gpudoctor {

// A worker's backend and the live file system its library search reads (which must outlive it).
struct WorkerBackend {
  std::unique_ptr<FileSystem> fs;
  std::unique_ptr<Backend> backend;
  std::string fake_script;  // the fake backend's script (its "telemetry" readings too); empty otherwise
};

// `fake_kernels` are the job's kernels, for the fake backend (gpu/fake/fake_kernels.h).
Result<WorkerBackend> MakeWorkerBackend(const WorkerRequest& request, const Environment& env,
                                        FakeKernelTable fake_kernels = {});

}  // namespace gpudoctor
