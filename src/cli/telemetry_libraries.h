// Where `monitor` and `serve` look for the AMD telemetry libraries (amd_smi, rocm_smi): the framework's own
// copies, then ROCM_PATH, then the system loader, as every other vendor library (gpu/library_search.h).
#pragma once

#include "probe/probe_inputs.h"
#include "telemetry/telemetry_reader.h"

namespace gpudoctor {

// The libraries a reader of `inputs` tries; none under a recorded sysroot (it never loads one).
TelemetryLibraries FindTelemetryLibraries(const ProbeInputs& inputs);

}  // namespace gpudoctor
