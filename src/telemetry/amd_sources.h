// One AMD GPU's sample from its sources in their order: each library that lists it (amd_smi, rocm_smi,
// ADL) fills what the ones before it left empty, then amdgpu's sysfs files (Linux) fill the rest. The
// per-GPU sampler and the machine-wide TelemetryReader both read an AMD GPU this way.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/filesystem.h"
#include "telemetry/amd_library_telemetry.h"
#include "telemetry/amd_sysfs_telemetry.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

// `sysfs` null: the GPU has no sysfs files (Windows). The sample is the sysfs files' alone when no library
// answered. Problems of this reading go to `warnings`.
TelemetrySample ReadAmdSources(const std::vector<std::unique_ptr<AmdLibraryTelemetry>>& libraries,
                               const FileSystem& fs, const AmdSysfsFiles* sysfs,
                               const TelemetryDevice& device, std::vector<std::string>& warnings);

}  // namespace gpudoctor
