// GPU runtimes on Windows, found without loading them: the HIP runtime DLLs the AMD driver puts in
// System32 (amdhip64.dll, amdhip64_6.dll, amdhip64_7.dll), HIP SDKs (HIP_PATH and
// C:\Program Files\AMD\ROCm\<version>), NVIDIA's nvcuda.dll and nvml.dll, and a CUDA toolkit
// (CUDA_PATH). Each becomes a RuntimeInstall with the file's version resource.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

void ProbeWindowsRuntimes(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
