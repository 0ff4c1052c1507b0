// `tune --apply --perf-level` and `tune --restore`: an AMD GPU's power_dpm_force_performance_level (amdgpu's
// sysfs file, drivers/gpu/drm/amd/pm/amdgpu_pm.c) set to "high", with the value it had written first to a
// state file, so `--restore` puts back exactly that value and removes the record. Every path is under `root`
// (the real machine is "/"; tests use a temporary folder and never touch /sys). Only a caller that is root
// may write the real /sys: the command checks that, not this file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "platform/environment.h"

namespace gpudoctor {

struct PerfLevelChange {
  std::string pci_address;  // "0000:03:00.0"
  std::string path;         // the sysfs file, as a machine path (/sys/bus/pci/devices/.../power_dpm_...)
  std::string previous;     // what it held before ("auto")
  std::string now;          // what it holds after ("high")
};

// The state file's machine path: where the previous value is kept until --restore.
inline constexpr const char* kPerfLevelStatePath = "/var/lib/gpudoctor/tune-perf-level.json";

// The PCI address of the GPU torch calls `device` on ROCm, from the AMD GPUs in the order HIP enumerates them
// (`amd_gpus`) and the visible-devices variables, as ROCm's "GPU isolation techniques" page describes them:
// ROCR_VISIBLE_DEVICES picks and orders the GPUs first, then HIP_VISIBLE_DEVICES (or, when it is unset,
// CUDA_VISIBLE_DEVICES) numbers within those. Entries are indices; a list ends at its first entry that is
// not a valid index (as the runtimes read it). A UUID entry (GPU-...) cannot be followed from PCI addresses:
// an error that says to give indices.
Result<std::string> VisibleAmdGpu(const std::vector<std::string>& amd_gpus, uint64_t device,
                                  const Environment& env);

// Sets the GPU at `pci_address` to `level`, recording the previous value first. Refuses when a record
// is already there (a second --apply would lose the first previous value: --restore first).
Result<PerfLevelChange> ApplyPerfLevel(const std::string& root, const std::string& pci_address,
                                       const std::string& level);

// Writes the recorded previous value back and removes the record.
Result<PerfLevelChange> RestorePerfLevel(const std::string& root);

}  // namespace gpudoctor
