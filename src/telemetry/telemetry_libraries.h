// Where every reader of live telemetry (monitor, serve, gather, and the verify and bench workers' sampler)
// looks for the vendor libraries, in one place: on Linux amd_smi and rocm_smi where the HIP backend finds
// its own (the framework's copies, then ROCM_PATH, then the system loader: gpu/api/library_search.h); on
// Windows ADL (atiadlxx.dll) from System32; NVML by the system loader everywhere.
#pragma once

#include "platform/environment.h"
#include "platform/filesystem.h"
#include "telemetry/gpu_sampler.h"

namespace gpudoctor {

// The libraries a reader of this machine tries. `live` false (a recorded sysroot): no AMD library, since a
// recording is never loaded from. `windows`: the machine is native Windows.
TelemetryLibraries FindTelemetryLibraries(const FileSystem& fs, const Environment& env, bool live,
                                          bool windows);

}  // namespace gpudoctor
