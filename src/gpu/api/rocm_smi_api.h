// ROCm SMI (librocm_smi64) as gpudoctor uses it for telemetry under load: temperature, power and ECC
// counts, with our own minimal typedefs, one table of function pointers and its loader. No ROCm header is
// included; values are rocm_smi.h's. amd_smi (ROCm 6+) covers the same ground with a larger API; rocm_smi64
// still ships beside it in ROCm 6 and 7, so one table serves every release.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gpu/api/symbol_binder.h"

namespace gpudoctor {

using rsmi_status_t = int;  // 0 = RSMI_STATUS_SUCCESS
inline constexpr rsmi_status_t kRsmiSuccess = 0;
inline constexpr uint32_t kRsmiTempTypeEdge = 0;      // RSMI_TEMP_TYPE_EDGE
inline constexpr uint32_t kRsmiTempTypeJunction = 1;  // RSMI_TEMP_TYPE_JUNCTION
inline constexpr int kRsmiTempCurrent = 0;            // RSMI_TEMP_CURRENT
inline constexpr uint64_t kRsmiGpuBlockUmc = 0x1;     // RSMI_GPU_BLOCK_UMC: the memory controller

// rsmi_error_count_t is {correctable, uncorrectable} and later releases append fields (deferred_err): the
// caller passes a buffer this large and reads the first two counters.
inline constexpr size_t kRsmiErrorCountBufferWords = 8;

struct RocmSmiApi {
  // Required.
  rsmi_status_t (*Init)(uint64_t) = nullptr;                // rsmi_init
  rsmi_status_t (*ShutDown)() = nullptr;                    // rsmi_shut_down
  rsmi_status_t (*NumMonitorDevices)(uint32_t*) = nullptr;  // rsmi_num_monitor_devices
  rsmi_status_t (*DevPciIdGet)(uint32_t,
                               uint64_t*) = nullptr;  // rsmi_dev_pci_id_get: domain<<32|bus<<8|dev<<3|fn
  rsmi_status_t (*StatusString)(rsmi_status_t, const char**) = nullptr;  // rsmi_status_string
  // Optional.
  rsmi_status_t (*DevTempMetricGet)(uint32_t, uint32_t, int, int64_t*) = nullptr;  // millidegrees Celsius
  rsmi_status_t (*DevPowerAveGet)(uint32_t, uint32_t, uint64_t*) = nullptr;        // microwatts
  rsmi_status_t (*DevEccCountGet)(uint32_t, uint64_t, uint64_t*) = nullptr;        // see kRsmiErrorCount...
};

// librocm_smi64.so.7, .so.6, .so.5, .so.1 (ROCm 5 named it .so.5 and .so.1 at times), librocm_smi64.so.
std::vector<std::string> RocmSmiLibraryNames();

LoadedTable<RocmSmiApi> LoadRocmSmi(const std::vector<std::string>& candidates);

std::string RocmSmiErrorText(const RocmSmiApi& api, rsmi_status_t rc);

// "0000:c1:00.0" out of rsmi_dev_pci_id_get's packed form.
std::string FormatRsmiPciId(uint64_t bdfid);

}  // namespace gpudoctor
