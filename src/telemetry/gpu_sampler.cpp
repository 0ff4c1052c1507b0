// The per-GPU samplers (see gpu_sampler.h): NVML's, the AMD chain's, and a fixed or scripted list of
// samples (a recording, a test, the fake backend).
#include "telemetry/gpu_sampler.h"

#include <optional>

#include "gpu/api/adl_api.h"
#include "gpu/api/amd_smi_api.h"
#include "gpu/api/rocm_smi_api.h"
#include "platform/recorded_inputs.h"
#include "telemetry/amd_sources.h"
#include "telemetry/nvml_telemetry.h"
#include "telemetry/telemetry_json.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxRecordingBytes = 4u << 20;

// Whether a reading holds any of the metrics the gates and benchmarks judge by.
bool HasReading(const TelemetrySample& s) {
  return s.sm_clock_mhz || s.temperature_c || s.power_watts || s.memory_used_bytes;
}

class NvmlGpuSampler final : public GpuSampler {
 public:
  NvmlGpuSampler(std::unique_ptr<NvmlTelemetrySession> session, TelemetryDevice device)
      : session_(std::move(session)), device_(std::move(device)) {}

  Result<TelemetrySample> Read() override {
    std::vector<std::string> warnings;
    TelemetrySample s = session_->Read(device_, warnings);
    if (!HasReading(s) && !warnings.empty()) return EnvError(warnings.front());
    return s;
  }

 private:
  std::unique_ptr<NvmlTelemetrySession> session_;
  TelemetryDevice device_;
};

class AmdGpuSampler final : public GpuSampler {
 public:
  AmdGpuSampler(const FileSystem& fs, std::vector<std::unique_ptr<AmdLibraryTelemetry>> libraries,
                std::optional<AmdSysfsFiles> sysfs, TelemetryDevice device)
      : fs_(fs), libraries_(std::move(libraries)), sysfs_(std::move(sysfs)), device_(std::move(device)) {}

  Result<TelemetrySample> Read() override {
    std::vector<std::string> warnings;
    TelemetrySample s = ReadAmdSources(libraries_, fs_, sysfs_ ? &*sysfs_ : nullptr, device_, warnings);
    if (!HasReading(s) && !warnings.empty()) return EnvError(warnings.front());
    return s;
  }

 private:
  const FileSystem& fs_;
  std::vector<std::unique_ptr<AmdLibraryTelemetry>> libraries_;
  std::optional<AmdSysfsFiles> sysfs_;
  TelemetryDevice device_;
};

TelemetryDevice TargetDevice(const GpuSamplerTarget& target) {
  TelemetryDevice d;
  d.vendor = target.vendor;
  d.pci_address = target.pci_address;
  return d;
}

Result<std::unique_ptr<GpuSampler>> OpenLiveNvml(const TelemetryLibraries& libraries,
                                                 const GpuSamplerTarget& target) {
  if (!libraries.nvml)
    return EnvError("NVML is not tried, so the GPU at " + target.pci_address + " is not watched");
  auto session = NvmlTelemetrySession::Open();
  if (!session) return session.error();
  std::vector<std::string> warnings;
  for (const TelemetryDevice& d : (*session)->Devices(warnings)) {
    if (d.pci_address == target.pci_address)
      return std::unique_ptr<GpuSampler>(std::make_unique<NvmlGpuSampler>(std::move(session).value(), d));
  }
  return EnvError("NVML does not list the GPU at " + target.pci_address +
                  (warnings.empty() ? std::string() : " (" + warnings.front() + ")"));
}

// The sample `gather` recorded for the GPU at the target's address in `file` (nvml.json, adl.json), with
// `source` as its source; nothing when the file has none for it.
std::optional<TelemetrySample> RecordedSample(const FileSystem& fs, const char* file, const char* source,
                                              const GpuSamplerTarget& target) {
  auto text = fs.ReadFile(file, kMaxRecordingBytes);
  if (!text) return std::nullopt;
  std::vector<std::string> problems;
  auto samples = ParseRecordedTelemetry(*text, problems);
  if (!samples) return std::nullopt;
  for (auto& s : *samples) {
    if (s.device.pci_address != target.pci_address) continue;
    s.device.vendor = target.vendor;
    s.source = source;
    s.metric_sources.clear();
    return s;
  }
  return std::nullopt;
}

std::unique_ptr<GpuSampler> FixedSampler(TelemetrySample sample) {
  return std::make_unique<ScriptedGpuSampler>(std::vector<TelemetrySample>{std::move(sample)});
}

// The AMD libraries of `libraries` that load and list the target, in the order asked.
std::vector<std::unique_ptr<AmdLibraryTelemetry>> OpenListingAmdLibraries(const TelemetryLibraries& libraries,
                                                                          const std::string& pci_address) {
  std::vector<std::unique_ptr<AmdLibraryTelemetry>> out;
  auto open = [&](const std::vector<std::string>& candidates, auto opener) {
    if (candidates.empty()) return;
    AmdLibraryOpening opening = opener(candidates);
    if (opening.session && opening.session->Lists(pci_address)) out.push_back(std::move(opening.session));
  };
  open(libraries.amd_smi, OpenAmdSmiTelemetry);
  open(libraries.rocm_smi, OpenRocmSmiTelemetry);
  open(libraries.adl, OpenAdlTelemetry);
  return out;
}

Result<std::unique_ptr<GpuSampler>> OpenAmd(const FileSystem& fs, bool live, const GpuSamplerTarget& target,
                                            const TelemetryLibraries& libraries) {
  if (!live) {
    if (auto recorded = RecordedSample(fs, kRecordedAdlFile, "adl-recorded", target))
      return FixedSampler(std::move(*recorded));
  }
  std::optional<AmdSysfsFiles> sysfs;
  if (AmdSysfsFiles files = FindAmdSysfsFiles(fs, target.pci_address); fs.Stat(files.device_dir).ok())
    sysfs = std::move(files);
  std::vector<std::unique_ptr<AmdLibraryTelemetry>> found;
  if (live) found = OpenListingAmdLibraries(libraries, target.pci_address);
  if (found.empty() && !sysfs)
    return EnvError("no AMD telemetry source answers for the GPU at " + target.pci_address,
                    "install ROCm (rocm-smi-lib or amd-smi), or on Windows AMD's display driver");
  return std::unique_ptr<GpuSampler>(
      std::make_unique<AmdGpuSampler>(fs, std::move(found), std::move(sysfs), TargetDevice(target)));
}

}  // namespace

TelemetryLibraries DefaultTelemetryLibraries() {
  return {true, AmdSmiLibraryNames(), RocmSmiLibraryNames(), AdlLibraryNames()};
}

Result<std::unique_ptr<GpuSampler>> OpenGpuSampler(const FileSystem& fs, bool live,
                                                   const GpuSamplerTarget& target,
                                                   const TelemetryLibraries& libraries) {
  if (target.vendor == "nvidia") {
    if (live) return OpenLiveNvml(libraries, target);
    if (auto recorded = RecordedSample(fs, kRecordedNvmlFile, "nvml-recorded", target))
      return FixedSampler(std::move(*recorded));
    return EnvError("the recording has no NVML telemetry for the GPU at " + target.pci_address,
                    "gather the machine again");
  }
  if (target.vendor == "amd") return OpenAmd(fs, live, target, libraries);
  return InternalError("no telemetry for GPUs of vendor \"" + target.vendor + "\"");
}

ScriptedGpuSampler::ScriptedGpuSampler(std::vector<TelemetrySample> samples, std::string failure)
    : samples_(std::move(samples)), failure_(std::move(failure)) {}

Result<TelemetrySample> ScriptedGpuSampler::Read() {
  if (!failure_.empty()) return EnvError(failure_);
  if (samples_.empty()) return TelemetrySample{};
  return samples_[next_++ % samples_.size()];
}

}  // namespace gpudoctor
