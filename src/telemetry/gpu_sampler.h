// The sampler of one GPU, found by vendor and PCI address, for a process that runs on that GPU alone (the
// verify and bench workers): NVIDIA through NVML; AMD through amd_smi, then rocm_smi, then amdgpu's sysfs
// files for what is still missing (ADL on Windows); on a recorded sysroot, what `gather` recorded. It reads
// into the one TelemetrySample that `monitor` and `serve` show, with the same names and units. The
// interface is small so that tests and the fake backend's workers hand a scripted one in.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "platform/filesystem.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// Where a recorded Windows machine keeps ADL's answers: {"telemetry": [sample, ...]} (telemetry_json.h).
inline constexpr const char* kRecordedAdlFile = "/.gpudoctor/adl.json";

class GpuSampler {
 public:
  virtual ~GpuSampler() = default;
  // One reading now; an error when the GPU answers nothing at all.
  virtual Result<TelemetrySample> Read() = 0;
};

// Which vendor libraries a live sampler or reader tries, in order (full paths or names for the system
// loader). FindTelemetryLibraries (telemetry_libraries.h) fills the AMD lists (framework copies, ROCM_PATH,
// the system); tests name a fake library by path.
struct TelemetryLibraries {
  bool nvml = true;
  std::vector<std::string> amd_smi;   // empty: not tried
  std::vector<std::string> rocm_smi;  // empty: not tried
  std::vector<std::string> adl;       // empty: not tried
};
// NVML, and the AMD libraries by their names for the system loader.
TelemetryLibraries DefaultTelemetryLibraries();

// The GPU a sampler watches: "nvidia" or "amd", and its PCI address ("0000:03:00.0").
struct GpuSamplerTarget {
  std::string vendor;
  std::string pci_address;
};

// Opens the sampler of `target`. `live`: vendor libraries may be loaded (false under a sysroot, whose
// recorded answers are read through `fs` instead). `fs` must outlive the sampler. An error says why the GPU
// cannot be watched (no NVML, NVML does not list it, no AMD source answers for it).
Result<std::unique_ptr<GpuSampler>> OpenGpuSampler(
    const FileSystem& fs, bool live, const GpuSamplerTarget& target,
    const TelemetryLibraries& libraries = DefaultTelemetryLibraries());

// Answers its samples in turn, starting over after the last; `failure` set: every reading is that error.
class ScriptedGpuSampler final : public GpuSampler {
 public:
  explicit ScriptedGpuSampler(std::vector<TelemetrySample> samples, std::string failure = "");
  Result<TelemetrySample> Read() override;

 private:
  std::vector<TelemetrySample> samples_;
  std::string failure_;
  size_t next_ = 0;
};

// How a gate or a benchmark gets its GPU's sampler once it knows the GPU's PCI address: the worker binds the
// vendor and the file system, a test hands scripted samplers.
using GpuSamplerOpener = std::function<Result<std::unique_ptr<GpuSampler>>(const std::string& pci_address)>;

}  // namespace gpudoctor
