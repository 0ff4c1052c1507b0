// ROCm SMI (librocm_smi64) as gpudoctor uses it: temperature, power and ECC counts for the GPU backend's
// telemetry under load, and memory, utilization, fan, clocks and per-process memory for `monitor`, with our
// own minimal typedefs, one table of function pointers and its loader. No ROCm header is included; values
// and layouts are rocm_smi.h's (Debian 12's 5.2.3 and ROCm/rocm_smi_lib at rocm-6.2.2, read 2026-12-03).
// amd_smi (ROCm 6+) covers the same ground with a larger API; rocm_smi64 still ships beside it in ROCm 6
// and 7, so one table serves every release.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using rsmi_status_t = int;  // 0 = RSMI_STATUS_SUCCESS
inline constexpr rsmi_status_t kRsmiSuccess = 0;
inline constexpr uint32_t kRsmiTempTypeEdge = 0;                // RSMI_TEMP_TYPE_EDGE
inline constexpr uint32_t kRsmiTempTypeJunction = 1;            // RSMI_TEMP_TYPE_JUNCTION
inline constexpr int kRsmiTempCurrent = 0;                      // RSMI_TEMP_CURRENT
inline constexpr uint32_t kRsmiTempTypeMemory = 2;              // RSMI_TEMP_TYPE_MEMORY
inline constexpr uint64_t kRsmiGpuBlockUmc = 0x1;               // RSMI_GPU_BLOCK_UMC: the memory controller
inline constexpr int kRsmiMemTypeVram = 0;                      // RSMI_MEM_TYPE_VRAM
inline constexpr int kRsmiClkTypeSys = 0;                       // RSMI_CLK_TYPE_SYS
inline constexpr int kRsmiClkTypeMem = 4;                       // RSMI_CLK_TYPE_MEM
inline constexpr uint32_t kRsmiInvalidPowerType = 0xffffffffu;  // RSMI_INVALID_POWER

// rsmi_version_t.
struct rsmi_version_t {
  uint32_t major;
  uint32_t minor;
  uint32_t patch;
  const char* build;
};
static_assert(sizeof(rsmi_version_t) == 24 && offsetof(rsmi_version_t, build) == 16);

// rsmi_frequencies_t changed layout in rocm_smi 7.0 (ROCm 6.0, "Add sleep frequency support"): a bool
// has_deep_sleep came first and the table grew from 32 to 33 entries. Both layouts, told apart by
// rsmi_version_get's major (the library's package version: 5.x in ROCm 5, 7.x from ROCm 6.0).
struct rsmi_frequencies_v5_t {
  uint32_t num_supported;
  uint32_t current;        // index into frequency[]
  uint64_t frequency[32];  // Hz
};
static_assert(sizeof(rsmi_frequencies_v5_t) == 264 && offsetof(rsmi_frequencies_v5_t, frequency) == 8);
struct rsmi_frequencies_v7_t {
  bool has_deep_sleep;
  uint32_t num_supported;
  uint32_t current;
  uint64_t frequency[33];
};
static_assert(sizeof(rsmi_frequencies_v7_t) == 280 && offsetof(rsmi_frequencies_v7_t, num_supported) == 4 &&
              offsetof(rsmi_frequencies_v7_t, frequency) == 16);
inline constexpr uint32_t kRsmiFrequenciesV7Major = 7;

// rsmi_process_info_t (unchanged from ROCm 5.2 to 6.x).
struct rsmi_process_info_t {
  uint32_t process_id;
  uint32_t pasid;
  uint64_t vram_usage;  // bytes
  uint64_t sdma_usage;  // microseconds
  uint32_t cu_occupancy;
};
static_assert(sizeof(rsmi_process_info_t) == 32 && offsetof(rsmi_process_info_t, vram_usage) == 8 &&
              offsetof(rsmi_process_info_t, cu_occupancy) == 24);

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
  // Optional, for `monitor`.
  rsmi_status_t (*VersionGet)(rsmi_version_t*) = nullptr;                       // rsmi_version_get
  rsmi_status_t (*DevPowerGet)(uint32_t, uint64_t*, uint32_t*) = nullptr;       // rsmi_dev_power_get: uW
  rsmi_status_t (*DevMemoryTotalGet)(uint32_t, int, uint64_t*) = nullptr;       // bytes
  rsmi_status_t (*DevMemoryUsageGet)(uint32_t, int, uint64_t*) = nullptr;       // bytes
  rsmi_status_t (*DevBusyPercentGet)(uint32_t, uint32_t*) = nullptr;            // 0-100
  rsmi_status_t (*DevFanRpmsGet)(uint32_t, uint32_t, int64_t*) = nullptr;       // rpm
  rsmi_status_t (*DevFanSpeedGet)(uint32_t, uint32_t, int64_t*) = nullptr;      // 0 .. fan_speed_max
  rsmi_status_t (*DevFanSpeedMaxGet)(uint32_t, uint32_t, uint64_t*) = nullptr;  // usually 255
  rsmi_status_t (*DevGpuClkFreqGet)(uint32_t, int, void*) = nullptr;            // rsmi_frequencies_v5/v7_t
  rsmi_status_t (*ComputeProcessInfoGet)(rsmi_process_info_t*, uint32_t*) = nullptr;  // every GPU's
  rsmi_status_t (*ComputeProcessInfoByDeviceGet)(uint32_t, uint32_t,
                                                 rsmi_process_info_t*) = nullptr;  // pid, device: ROCm 5.7+
};

// librocm_smi64.so.7, .so.6, .so.5, .so.1 (ROCm 5 named it .so.5 and .so.1 at times), librocm_smi64.so.
std::vector<std::string> RocmSmiLibraryNames();

LoadedTable<RocmSmiApi> LoadRocmSmi(const std::vector<std::string>& candidates);

std::string RocmSmiErrorText(const RocmSmiApi& api, rsmi_status_t rc);

// "0000:c1:00.0" out of rsmi_dev_pci_id_get's packed form.
std::string FormatRsmiPciId(uint64_t bdfid);

}  // namespace gpudoctor
