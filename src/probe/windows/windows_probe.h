// The native-Windows probe pass: OS, display adapters and runtimes from
// ctx.windows (live or recorded) and the FileSystem. RunProbes calls it instead of the Linux
// probes when ctx.windows is set.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The Windows system before the GPU merge (the caller then records the Python installs
// (windows_python_locations.h), probes NVIDIA's NVML, the environment and Python with those installs as
// candidates, merges, enriches and calls ApplyWindowsAdapters).
void ProbeWindowsMachine(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
