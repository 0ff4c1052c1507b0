// NVML (libnvidia-ml / nvml.dll) as gpudoctor uses it: our own minimal mirror of the few types we need,
// one table of function pointers, and the loader that fills it at run time. No NVIDIA header is included.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

// ---- Types mirrored from the NVML ABI (nvml.h). Layouts are checked below. ----
using nvmlReturn_t = int;  // 0 = NVML_SUCCESS
inline constexpr nvmlReturn_t kNvmlSuccess = 0;
inline constexpr nvmlReturn_t kNvmlErrorNotSupported = 3;
inline constexpr nvmlReturn_t kNvmlErrorInsufficientSize = 7;

struct nvmlDevice_st;  // opaque
using nvmlDevice_t = nvmlDevice_st*;

struct nvmlMemory_t {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};

// The PCI description filled by nvmlDeviceGetPciInfo_v2 and _v3 (the v1 layout differs and is never bound).
struct nvmlPciInfo_t {
  char busIdLegacy[16];  // "0000:17:00.0"-style, kept for old callers
  unsigned int domain;
  unsigned int bus;
  unsigned int device;
  unsigned int pciDeviceId;     // device id << 16 | vendor id
  unsigned int pciSubSystemId;  // subsystem device << 16 | subsystem vendor
  char busId[32];               // "00000000:17:00.0"
};

// nvmlDeviceGetMemoryInfo_v2's answer: `used` leaves out the memory the driver and firmware reserve, as
// nvidia-smi's "memory.used" does (the v1 `used` counts it). `version` must be kNvmlMemoryV2Version.
struct nvmlMemory_v2_t {
  unsigned int version;
  unsigned long long total;
  unsigned long long reserved;
  unsigned long long free;
  unsigned long long used;
};
// nvml.h's NVML_STRUCT_VERSION(Memory, 2): the struct's size with the version in the top byte.
inline constexpr unsigned int kNvmlMemoryV2Version = 40u | (2u << 24);

static_assert(sizeof(nvmlMemory_v2_t) == 40 && offsetof(nvmlMemory_v2_t, total) == 8 &&
                  offsetof(nvmlMemory_v2_t, reserved) == 16 && offsetof(nvmlMemory_v2_t, used) == 32,
              "nvmlMemory_v2_t layout");
static_assert(sizeof(nvmlMemory_t) == 24, "nvmlMemory_t: three unsigned long long");
static_assert(offsetof(nvmlMemory_t, total) == 0 && offsetof(nvmlMemory_t, free) == 8 &&
                  offsetof(nvmlMemory_t, used) == 16,
              "nvmlMemory_t field offsets");
static_assert(sizeof(nvmlPciInfo_t) == 68, "nvmlPciInfo_t is 68 bytes in nvml.h");
static_assert(offsetof(nvmlPciInfo_t, domain) == 16 && offsetof(nvmlPciInfo_t, bus) == 20 &&
                  offsetof(nvmlPciInfo_t, device) == 24 && offsetof(nvmlPciInfo_t, pciDeviceId) == 28 &&
                  offsetof(nvmlPciInfo_t, pciSubSystemId) == 32 && offsetof(nvmlPciInfo_t, busId) == 36,
              "nvmlPciInfo_t field offsets");

// One process of nvmlDeviceGetComputeRunningProcesses_v3 / _v2 (nvmlProcessInfo_v2_t and _v3_t share this
// layout; the unversioned v1 entry point fills a shorter struct and is never bound).
struct nvmlProcessInfo_t {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId;
  unsigned int computeInstanceId;
};
static_assert(sizeof(nvmlProcessInfo_t) == 24, "nvmlProcessInfo_v2_t is 24 bytes in nvml.h");
static_assert(offsetof(nvmlProcessInfo_t, pid) == 0 && offsetof(nvmlProcessInfo_t, usedGpuMemory) == 8 &&
                  offsetof(nvmlProcessInfo_t, gpuInstanceId) == 16 &&
                  offsetof(nvmlProcessInfo_t, computeInstanceId) == 20,
              "nvmlProcessInfo_v2_t field offsets");

// nvmlDeviceGetUtilizationRates: percent of the last sample period the GPU / the memory was busy.
struct nvmlUtilization_t {
  unsigned int gpu;
  unsigned int memory;
};
static_assert(sizeof(nvmlUtilization_t) == 8 && offsetof(nvmlUtilization_t, memory) == 4,
              "nvmlUtilization_t: two unsigned int");

// Enumerations passed to the telemetry calls (nvml.h).
inline constexpr int kNvmlTemperatureGpu = 0;          // NVML_TEMPERATURE_GPU
inline constexpr int kNvmlClockSm = 1;                 // NVML_CLOCK_SM
inline constexpr int kNvmlClockMem = 2;                // NVML_CLOCK_MEM
inline constexpr int kNvmlMemoryErrorCorrected = 0;    // NVML_MEMORY_ERROR_TYPE_CORRECTED
inline constexpr int kNvmlMemoryErrorUncorrected = 1;  // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
inline constexpr int kNvmlVolatileEcc = 0;             // NVML_VOLATILE_ECC: since the driver loaded

// Bits of nvmlDeviceGetCurrentClocksEventReasons (nvml.h nvmlClocksEventReason*, formerly
// nvmlClocksThrottleReason*).
inline constexpr unsigned long long kNvmlClocksEventGpuIdle = 0x1;
inline constexpr unsigned long long kNvmlClocksEventApplicationsClocksSetting = 0x2;
inline constexpr unsigned long long kNvmlClocksEventSwPowerCap = 0x4;
inline constexpr unsigned long long kNvmlClocksEventHwSlowdown = 0x8;
inline constexpr unsigned long long kNvmlClocksEventSyncBoost = 0x10;
inline constexpr unsigned long long kNvmlClocksEventSwThermalSlowdown = 0x20;
inline constexpr unsigned long long kNvmlClocksEventHwThermalSlowdown = 0x40;
inline constexpr unsigned long long kNvmlClocksEventHwPowerBrakeSlowdown = 0x80;
inline constexpr unsigned long long kNvmlClocksEventDisplayClockSetting = 0x100;

// Topology enumerations (nvml.h): nvmlGpuP2PCapsIndex_t, nvmlIntNvLinkDeviceType_t, NVML_NVLINK_MAX_LINKS.
inline constexpr int kNvmlP2PCapsRead = 0;
inline constexpr int kNvmlP2PCapsWrite = 1;
inline constexpr int kNvmlP2PCapsNvlink = 2;
inline constexpr int kNvmlP2PCapsAtomics = 3;
inline constexpr int kNvmlNvLinkDeviceGpu = 0;
inline constexpr int kNvmlNvLinkDeviceIbmNpu = 1;
inline constexpr int kNvmlNvLinkDeviceSwitch = 2;
inline constexpr unsigned kNvmlNvLinkMaxLinks = 18;

// Buffer sizes nvml.h guarantees to be large enough (the _V2 sizes cover the old ones).
inline constexpr unsigned kNvmlNameBufferSize = 96;
inline constexpr unsigned kNvmlUuidBufferSize = 96;
inline constexpr unsigned kNvmlDriverVersionBufferSize = 80;

// ---- The table. Each pointer names the export bound to it; nullptr when an optional one is absent. ----
struct NvmlApi {
  // Required.
  nvmlReturn_t (*Init)() = nullptr;                         // nvmlInit_v2 | nvmlInit
  nvmlReturn_t (*Shutdown)() = nullptr;                     // nvmlShutdown
  const char* (*ErrorString)(nvmlReturn_t) = nullptr;       // nvmlErrorString
  nvmlReturn_t (*DeviceGetCount)(unsigned int*) = nullptr;  // nvmlDeviceGetCount_v2 | nvmlDeviceGetCount
  nvmlReturn_t (*DeviceGetHandleByIndex)(unsigned int, nvmlDevice_t*) = nullptr;  // _v2 | plain
  nvmlReturn_t (*DeviceGetName)(nvmlDevice_t, char*, unsigned int) = nullptr;     // nvmlDeviceGetName
  nvmlReturn_t (*DeviceGetUUID)(nvmlDevice_t, char*, unsigned int) = nullptr;     // nvmlDeviceGetUUID
  nvmlReturn_t (*DeviceGetPciInfo)(nvmlDevice_t, nvmlPciInfo_t*) = nullptr;  // nvmlDeviceGetPciInfo_v3 | _v2
  nvmlReturn_t (*DeviceGetMemoryInfo)(nvmlDevice_t, nvmlMemory_t*) = nullptr;  // nvmlDeviceGetMemoryInfo
  nvmlReturn_t (*SystemGetDriverVersion)(char*, unsigned int) = nullptr;       // nvmlSystemGetDriverVersion
  // Optional.
  nvmlReturn_t (*DeviceGetCudaComputeCapability)(nvmlDevice_t, int*, int*) = nullptr;
  nvmlReturn_t (*SystemGetCudaDriverVersion)(int*) = nullptr;  // nvmlSystemGetCudaDriverVersion_v2 | plain
  // Optional, for telemetry under load (gpu/cuda/cuda_telemetry.cpp).
  nvmlReturn_t (*DeviceGetHandleByPciBusId)(const char*, nvmlDevice_t*) = nullptr;  // _v2 | plain
  nvmlReturn_t (*DeviceGetClockInfo)(nvmlDevice_t, int, unsigned int*) = nullptr;   // nvmlDeviceGetClockInfo
  nvmlReturn_t (*DeviceGetMaxClockInfo)(nvmlDevice_t, int,
                                        unsigned int*) = nullptr;  // nvmlDeviceGetMaxClockInfo
  nvmlReturn_t (*DeviceGetTemperature)(nvmlDevice_t, int,
                                       unsigned int*) = nullptr;               // nvmlDeviceGetTemperature
  nvmlReturn_t (*DeviceGetPowerUsage)(nvmlDevice_t, unsigned int*) = nullptr;  // milliwatts
  nvmlReturn_t (*DeviceGetEnforcedPowerLimit)(nvmlDevice_t, unsigned int*) = nullptr;  // milliwatts
  // nvmlDeviceGetCurrentClocksEventReasons | nvmlDeviceGetCurrentClocksThrottleReasons (before 12.2)
  nvmlReturn_t (*DeviceGetCurrentClocksEventReasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*DeviceGetTotalEccErrors)(nvmlDevice_t, int, int, unsigned long long*) = nullptr;
  // corrected rows, uncorrected rows, remapping pending, remapping failed (A100 and later)
  nvmlReturn_t (*DeviceGetRemappedRows)(nvmlDevice_t, unsigned int*, unsigned int*, unsigned int*,
                                        unsigned int*) = nullptr;
  // Optional, for monitor's memory figure (drivers since R510).
  nvmlReturn_t (*DeviceGetMemoryInfoV2)(nvmlDevice_t,
                                        nvmlMemory_v2_t*) = nullptr;  // nvmlDeviceGetMemoryInfo_v2
  // Optional, for the benchmarks' cause findings (gpu/cuda/cuda_blas_telemetry.cpp).
  nvmlReturn_t (*DeviceGetPowerManagementDefaultLimit)(nvmlDevice_t, unsigned int*) = nullptr;  // milliwatts
  nvmlReturn_t (*DeviceGetCurrPcieLinkGeneration)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*DeviceGetCurrPcieLinkWidth)(nvmlDevice_t, unsigned int*) = nullptr;
  nvmlReturn_t (*DeviceGetMaxPcieLinkGeneration)(nvmlDevice_t, unsigned int*) = nullptr;  // GPU and system
  nvmlReturn_t (*DeviceGetMaxPcieLinkWidth)(nvmlDevice_t, unsigned int*) = nullptr;
  // nvmlDeviceGetComputeRunningProcesses_v3 | _v2: in/out count, then the array.
  nvmlReturn_t (*DeviceGetComputeRunningProcesses)(nvmlDevice_t, unsigned int*, nvmlProcessInfo_t*) = nullptr;
  // Optional, for `gpudoctor monitor` (telemetry/nvml_telemetry.cpp).
  nvmlReturn_t (*DeviceGetUtilizationRates)(nvmlDevice_t, nvmlUtilization_t*) = nullptr;
  nvmlReturn_t (*DeviceGetFanSpeed)(nvmlDevice_t, unsigned int*) = nullptr;  // percent of the maximum
  // Optional, for `gpudoctor topo` (topo/nvml_topology_live.cpp). nvmlGpuTopologyLevel_t out.
  nvmlReturn_t (*DeviceGetTopologyCommonAncestor)(nvmlDevice_t, nvmlDevice_t, int*) = nullptr;
  // nvmlGpuP2PCapsIndex_t in, nvmlGpuP2PStatus_t out.
  nvmlReturn_t (*DeviceGetP2PStatus)(nvmlDevice_t, nvmlDevice_t, int, int*) = nullptr;
  nvmlReturn_t (*DeviceGetNvLinkState)(nvmlDevice_t, unsigned int, int*) = nullptr;  // nvmlEnableState_t out
  nvmlReturn_t (*DeviceGetNvLinkRemotePciInfo)(nvmlDevice_t, unsigned int,
                                               nvmlPciInfo_t*) = nullptr;  // _v2 only (current struct)
  // nvmlIntNvLinkDeviceType_t out.
  nvmlReturn_t (*DeviceGetNvLinkRemoteDeviceType)(nvmlDevice_t, unsigned int, int*) = nullptr;
};

// The names tried, versioned first: libnvidia-ml.so.1 then libnvidia-ml.so (nvml.dll on Windows).
std::vector<std::string> NvmlLibraryCandidates();

// Loads NVML and binds the table once; nothing is called yet (nvmlInit is the caller's first call).
LoadedTable<NvmlApi> LoadNvml();
LoadedTable<NvmlApi> LoadNvml(const std::vector<std::string>& candidates);

// "Not Supported (3)": NVML's own text when nvmlErrorString is bound.
std::string NvmlErrorText(const NvmlApi& api, nvmlReturn_t rc);

}  // namespace gpudoctor
