// Runs the probes in a fixed order: machine, PCI, vendor stacks, runtimes,
// environment; then merges what they found into one GPU list. Native Windows takes its own probes.
#include "probe/machine_probe.h"

#include "probe/common/env_probe.h"
#include "probe/common/gpu_merge.h"
#include "probe/common/knowledge_enrich.h"
#include "probe/common/python_probe.h"
#include "probe/common/runtime_probe.h"
#include "probe/linux/amd_probe.h"
#include "probe/linux/cdi_specs.h"
#include "probe/linux/fabric_manager.h"
#include "probe/linux/kernel_modules.h"
#include "probe/linux/nvidia_probe.h"
#include "probe/linux/os_probe.h"
#include "probe/linux/pci_probe.h"
#include "probe/windows/windows_gpu_probe.h"
#include "probe/windows/windows_probe.h"
#include "probe/windows/windows_python_locations.h"

namespace gpudoctor {

namespace {

// Native Windows (ctx.windows set): the Windows probes replace the Linux ones; NVML answers for an
// NVIDIA adapter the same way on both systems.
// The registry's and the installers' Python locations are both the list of interpreters and the Python
// probe's candidates beside the places every OS has.
Snapshot ProbeWindows(const ProbeContext& ctx, Snapshot snap) {
  ProbeWindowsMachine(ctx, snap);
  const std::vector<WindowsPythonLocation> pythons = WindowsPythonLocations(ctx);
  RecordWindowsPythonInstalls(pythons, snap);
  bool nvidia = false;
  for (const auto& d : snap.pci_devices) nvidia |= d.vendor_id == 0x10de;
  if (nvidia) ProbeNvidia(ctx, snap);
  ProbeEnvironmentVariables(ctx, snap);
  ProbePythonEnvs(ctx, snap, WindowsPythonCandidates(pythons));
  snap.gpus = MergeGpus(snap);
  if (ctx.db) ApplyKnowledge(*ctx.db, snap);
  ApplyWindowsAdapters(snap);
  return snap;
}

}  // namespace

Snapshot RunProbes(const ProbeContext& ctx) {
  Snapshot snap;
  snap.tool_version = GPUDOCTOR_VERSION;
  snap.sysroot = ctx.fs.Root();
  snap.live_machine = ctx.fs.IsLiveRoot();
  snap.user = UserInfo{ctx.identity.user_name, ctx.identity.group_names, ctx.identity.is_admin};
  if (ctx.windows) return ProbeWindows(ctx, std::move(snap));
  ProbeOs(ctx, snap);
  ProbePciDevices(ctx, snap);
  ProbeAmd(ctx, snap);
  ProbeNvidia(ctx, snap);
  ProbeKernelModules(ctx, snap);
  ProbeCdiSpecs(ctx, snap);
  ProbeFabricManager(ctx, snap);
  ProbeRuntimes(ctx, snap);
  ProbeEnvironmentVariables(ctx, snap);
  ProbePythonEnvs(ctx, snap);
  snap.gpus = MergeGpus(snap);
  if (ctx.db) ApplyKnowledge(*ctx.db, snap);
  return snap;
}

}  // namespace gpudoctor
