// Runs the Windows probes in order: OS (the system directory the others need), adapters, runtimes.
#include "probe/windows/windows_probe.h"

#include "probe/windows/windows_gpu_probe.h"
#include "probe/windows/windows_os_probe.h"
#include "probe/windows/windows_runtime_probe.h"

namespace gpudoctor {

void ProbeWindowsMachine(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.windows) return;
  ProbeWindowsOs(ctx, snap);
  ProbeWindowsAdapters(ctx, snap);
  ProbeWindowsRuntimes(ctx, snap);
}

}  // namespace gpudoctor
