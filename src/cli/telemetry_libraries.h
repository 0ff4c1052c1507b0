// Where `monitor` and `serve` look for the AMD telemetry libraries: on Linux amd_smi and rocm_smi in the
// framework's own copies, then ROCM_PATH, then the system loader, as every other vendor library
// (gpu/library_search.h); on Windows ADL (atiadlxx.dll) in System32.
#pragma once

#include "probe/probe_inputs.h"
#include "telemetry/telemetry_reader.h"

namespace gpudoctor {

// The libraries a reader of `inputs` tries; none under a recorded sysroot (it never loads one).
TelemetryLibraries FindTelemetryLibraries(const ProbeInputs& inputs);

}  // namespace gpudoctor
