// AMD telemetry from the amdgpu driver's sysfs files, read through a FileSystem (the live machine or a
// recorded sysroot; `gather` records what this reads): VRAM used/total, gpu_busy_percent, the current
// pp_dpm_sclk/pp_dpm_mclk levels and the hwmon folder's power, temperatures and fan.
#pragma once

#include "platform/filesystem.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// Fills the metrics of `sample` for the PCI device at sample.device.pci_address from
// /sys/bus/pci/devices/<address>/; a file that is missing leaves its metric empty.
void ReadAmdSysfsTelemetry(const FileSystem& fs, TelemetrySample& sample);

}  // namespace gpudoctor
