// Where `monitor` and `serve` get their samples: every GPU of a machine, NVIDIA through NVML (live) or
// through the answers `gather` recorded (.gpudoctor/nvml.json's "telemetry" member) when the machine is a
// recorded sysroot; AMD on Linux through amd_smi, then rocm_smi (live, each for the GPUs it lists, matched by
// PCI address), then amdgpu's sysfs files for whatever is still missing; AMD on Windows through ADL (live)
// or the ADL answers `gather` recorded (.gpudoctor/adl.json). Which GPUs there are is decided once, from the
// probed Snapshot.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/filesystem.h"
#include "snapshot/snapshot.h"
#include "telemetry/amd_library_telemetry.h"
#include "telemetry/amd_sysfs_telemetry.h"
#include "telemetry/gpu_sampler.h"
#include "telemetry/nvml_telemetry.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// The AMD GPUs bound to amdgpu (Linux) or amdkmdag (Windows) in `snap`, numbered in PCI address order (as
// amd-smi numbers them).
std::vector<TelemetryDevice> AmdTelemetryDevices(const Snapshot& snap);

class TelemetryReader {
 public:
  // `fs` must outlive the reader. `live`: vendor libraries may be loaded (false under a sysroot, which
  // never loads one); the AMD libraries only when the snapshot has an AMD GPU.
  TelemetryReader(const FileSystem& fs, bool live, const Snapshot& snap,
                  const TelemetryLibraries& libraries = DefaultTelemetryLibraries());

  // Every GPU found, NVIDIA first; empty when the machine has none the reader can watch.
  const std::vector<TelemetryDevice>& devices() const { return devices_; }
  // Why a GPU of the snapshot cannot be watched (NVML absent, ...): one line each, found at construction.
  const std::vector<std::string>& setup_warnings() const { return setup_warnings_; }

  // One sample per GPU of devices(), in that order; problems of this round go to `warnings`.
  std::vector<TelemetrySample> Read(std::vector<std::string>& warnings);

 private:
  // One AMD GPU's other sources: amdgpu's sysfs files (Linux), or ADL's recorded sample (a Windows
  // recording).
  struct AmdSources {
    bool sysfs = true;
    AmdSysfsFiles files;
    std::optional<TelemetrySample> recorded;
  };

  std::vector<TelemetrySample> ReadRecordedNvml(std::vector<std::string>& warnings) const;
  void AddAmdDevices(const Snapshot& snap, const TelemetryLibraries& libraries);
  void OpenAmdLibraries(const TelemetryLibraries& libraries, const std::vector<TelemetryDevice>& amd,
                        bool any_sysfs);
  bool AnyLibraryLists(const std::string& pci_address) const;
  TelemetrySample ReadAmd(size_t amd_index, std::vector<std::string>& warnings);

  const FileSystem& fs_;
  bool live_ = false;
  std::unique_ptr<NvmlTelemetrySession> nvml_;
  std::vector<TelemetryDevice> devices_;
  size_t nvidia_count_ = 0;      // devices_[0, nvidia_count_) are NVIDIA's
  std::vector<AmdSources> amd_;  // for devices_[nvidia_count_ + i]
  // amd_smi, then rocm_smi, then ADL: those that loaded and initialized, asked in this order.
  std::vector<std::unique_ptr<AmdLibraryTelemetry>> amd_libraries_;
  std::vector<std::string> setup_warnings_;
};

}  // namespace gpudoctor
