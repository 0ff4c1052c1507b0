// The Windows machine probe: version, build and edition (and whether it is Windows 11 22H2 or newer),
// host name, CPU, memory, free disk of the user's profile folder, virtualization and WSL.
#pragma once

#include "probe/probe_context.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// Needs ctx.windows. Fills snapshot.os, host_name, cpu, memory, disk and the matching parts of
// snapshot.windows.
void ProbeWindowsOs(const ProbeContext& ctx, Snapshot& snapshot);

}  // namespace gpudoctor
