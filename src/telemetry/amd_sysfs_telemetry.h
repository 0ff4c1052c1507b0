// AMD telemetry from the amdgpu driver's sysfs files, read through a FileSystem (the live machine or a
// recorded sysroot; `gather` records what this reads): VRAM used/total, gpu_busy_percent, the current
// pp_dpm_sclk/pp_dpm_mclk levels and the hwmon folder's power, temperatures and fan.
#pragma once

#include <string>
#include <vector>

#include "platform/filesystem.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// Where one GPU's telemetry files are, found once (the folder listings are not repeated at every sample).
struct AmdSysfsFiles {
  std::string device_dir;                // /sys/bus/pci/devices/<address>
  std::string hwmon_dir;                 // its amdgpu hwmon folder; empty when it has none
  std::vector<std::string> hwmon_files;  // the telemetry files there (IsHwmonTelemetryFile)
};
AmdSysfsFiles FindAmdSysfsFiles(const FileSystem& fs, const std::string& pci_address);

// Fills the metrics of `sample` from `files`; a file that is missing leaves its metric empty.
void ReadAmdSysfsTelemetry(const FileSystem& fs, const AmdSysfsFiles& files, TelemetrySample& sample);

}  // namespace gpudoctor
