// MakeWorkerBackend (see worker_backend.h).
#include "worker/worker_backend.h"

#include "gpu/backend_inputs.h"
#include "platform/user_file.h"

namespace gpudoctor {
Result<WorkerBackend> MakeWorkerBackend(const WorkerRequest& request, const Environment& env,
                                        FakeKernelTable fake_kernels) {
  WorkerBackend out;
  out.fs = MakeRootedFileSystem("/");
  BackendInputs inputs;
  inputs.fs = out.fs.get();
  inputs.env = env;
  inputs.site_packages = FindSitePackages(*out.fs, env);
  inputs.arch_by_pci = request.arch_by_pci;
  if (request.backend == BackendKind::kFake) {
    auto script = ReadUserFile(request.fake_script_path);
    if (!script) return script.error().With("the fake backend's script");
    inputs.fake_script = *script;
    out.fake_script = *script;
    inputs.fake_kernels = std::move(fake_kernels);
  }
  auto backend = MakeBackend(request.backend, inputs);
  if (!backend) return backend.error();
  out.backend = std::move(backend).value();
  return out;
}

}  // namespace gpudoctor
