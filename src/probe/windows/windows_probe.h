// The native-Windows probe pass: OS, display adapters, runtimes and Python interpreters from
// ctx.windows (live or recorded) and the FileSystem. ProbeMachine calls it instead of the Linux
// probes when ctx.windows is set.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Everything Windows-specific before the GPU merge (the caller then probes NVIDIA's NVML, the
// environment and Python, merges, enriches and calls ApplyWindowsAdapters).
void ProbeWindowsMachine(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
