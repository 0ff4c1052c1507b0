// MakeBackend: the one place that maps a BackendKind to its implementation.
#include "gpu/backend_inputs.h"
#include "gpu/cuda/cuda_backend.h"
#include "gpu/fake/fake_backend.h"
#include "gpu/hip/hip_backend.h"

namespace gpudoctor {

Result<std::unique_ptr<Backend>> MakeBackend(BackendKind kind, const BackendInputs& in) {
  switch (kind) {
    case BackendKind::kCuda:
      return std::unique_ptr<Backend>(std::make_unique<CudaBackend>(in));
    case BackendKind::kHip:
      return std::unique_ptr<Backend>(std::make_unique<HipBackend>(in));
    case BackendKind::kFake: {
      auto fake = FakeBackend::FromScript(in.fake_script, in.fake_kernels);
      if (!fake) return fake.error();
      return std::unique_ptr<Backend>(std::move(fake).value());
    }
  }
  return InternalError("unknown backend kind");
}

}  // namespace gpudoctor
