// Where `monitor` and `serve` get their samples: every GPU of a machine, AMD through sysfs, NVIDIA through
// NVML (live) or through the answers `gather` recorded (.gpudoctor/nvml.json's "telemetry" member) when the
// machine is a recorded sysroot. Which GPUs there are is decided once, from the probed Snapshot.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/filesystem.h"
#include "snapshot/snapshot.h"
#include "telemetry/amd_sysfs_telemetry.h"
#include "telemetry/nvml_telemetry.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// The AMD GPUs bound to amdgpu in `snap`, numbered in PCI address order (as amd-smi numbers them).
std::vector<TelemetryDevice> AmdTelemetryDevices(const Snapshot& snap);

class TelemetryReader {
 public:
  // `fs` must outlive the reader. `live`: NVML may be loaded (false under a sysroot, which never loads a
  // vendor library).
  TelemetryReader(const FileSystem& fs, bool live, const Snapshot& snap);

  // Every GPU found, NVIDIA first; empty when the machine has none the reader can watch.
  const std::vector<TelemetryDevice>& devices() const { return devices_; }
  // Why a GPU of the snapshot cannot be watched (NVML absent, ...): one line each, found at construction.
  const std::vector<std::string>& setup_warnings() const { return setup_warnings_; }

  // One sample per GPU of devices(), in that order; problems of this round go to `warnings`.
  std::vector<TelemetrySample> Read(std::vector<std::string>& warnings);

 private:
  std::vector<TelemetrySample> ReadRecordedNvml(std::vector<std::string>& warnings) const;

  const FileSystem& fs_;
  bool live_ = false;
  std::unique_ptr<NvmlTelemetrySession> nvml_;
  std::vector<TelemetryDevice> devices_;
  size_t nvidia_count_ = 0;               // devices_[0, nvidia_count_) are NVIDIA's
  std::vector<AmdSysfsFiles> amd_files_;  // for devices_[nvidia_count_ + i]
  std::vector<std::string> setup_warnings_;
};

}  // namespace gpudoctor
