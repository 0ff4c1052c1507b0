// Live NVIDIA telemetry through NVML, loaded at run time with the one NVML table (gpu/api/nvml_api.h):
// memory, utilization, power, temperature, fan, clocks, clocks event (throttle) reasons and the compute
// processes' memory. Each call is optional; one the driver does not answer leaves its metric empty.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "telemetry/telemetry_sample.h"

namespace gpudoctor {

class NvmlTelemetrySession {
 public:
  // Loads NVML and calls nvmlInit; an error says which library or call failed.
  static Result<std::unique_ptr<NvmlTelemetrySession>> Open();
  // The same with the files to try (full paths or names for the system loader), in order; tests name a
  // stand-in library by path.
  static Result<std::unique_ptr<NvmlTelemetrySession>> Open(const std::vector<std::string>& nvml_candidates);
  virtual ~NvmlTelemetrySession() = default;
  // The GPUs NVML lists, in its index order.
  virtual std::vector<TelemetryDevice> Devices(std::vector<std::string>& warnings) = 0;
  // One sample of the GPU with NVML index `device.index`; failures go to `warnings`.
  virtual TelemetrySample Read(const TelemetryDevice& device, std::vector<std::string>& warnings) = 0;
};

}  // namespace gpudoctor
