// Where the collective library comes from: NCCL for the CUDA backend (the user's framework's copy first:
// site-packages/nvidia/nccl/lib of the NVIDIA wheels PyTorch installs, then torch/lib, then CUDA_PATH, then
// the system), RCCL for the HIP backend (torch/lib of a ROCm PyTorch, the ROCm SDK wheels, ROCM_PATH, the
// system).
#pragma once

#include "gpu/api/library_search.h"
#include "gpu/api/nccl_api.h"
#include "gpu/backend.h"
#include "gpu/backend_inputs.h"

namespace gpudoctor {

LibrarySpec CollectiveLibrarySpec(BackendKind kind);

// Loads NCCL or RCCL through the library search; `record` says which file, from where, and its version.
LoadedTable<NcclApi> LoadCollectiveLibrary(const BackendInputs& inputs, BackendKind kind,
                                           BackendLibrary& record);

// "NCCL 2.27.3 (/venv/.../libnccl.so.2, framework)" for the report.
std::string DescribeCollectiveLibrary(const BackendLibrary& record);

// The backend inputs of the live machine (library search over its site-packages); `fs` must outlive them.
BackendInputs LiveBackendInputs(const FileSystem& fs, const Environment& env);

}  // namespace gpudoctor
