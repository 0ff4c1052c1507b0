// AMD Display Library (atiadlxx.dll, installed with every AMD display driver on Windows) as `monitor` uses
// it on Windows, where amd_smi and rocm_smi do not run: the adapters with their PCI location, the power
// management log's sensors (clocks, temperatures, fan, activity, power), the dedicated VRAM in use and the
// memory size. Our own minimal typedefs, one table of function pointers and its loader; no ADL header is
// included. Layouts, values and signatures are those of AMD's ADL SDK 18.1
// (github.com/GPUOpen-LibrariesAndSDKs/display-library, commit 84c881c of 2025-04-11, read 2026-12-03):
// include/adl_sdk.h (ADL_MAIN_MALLOC_CALLBACK), include/adl_structures.h (AdapterInfo, ADLMemoryInfo2,
// ADLSingleSensorData, ADLPMLogDataOutput, ADL_CONTEXT_HANDLE), include/adl_defines.h (ADL_OK and the
// error codes, ADL_MAX_PATH, ADL_PMLOG_MAX_SENSORS, enum ADL_PMLOG_SENSORS) and the function declarations
// of its documentation (Public-Documents/html: adl.h, adapter.h, overdrive8.h).
//
// Calling convention: the SDK declares the allocation callback __stdcall and the functions with none
// (the C default). Only the 64-bit DLL is loaded (a 64-bit gpudoctor.exe cannot load the 32-bit
// atiadlxy.dll), and x64 Windows has one calling convention, which __stdcall and __cdecl both name, so
// plain function pointer types match both. The table compiles everywhere (no #ifdef outside platform/);
// on Linux the DLL is never found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using ADL_CONTEXT_HANDLE = void*;
// ADL_MAIN_MALLOC_CALLBACK: ADL allocates through it what a few calls hand back (none of ours do).
using AdlMallocCallback = void* (*)(int);

// Result codes (adl_defines.h "Result Codes"): 0 is ADL_OK, 1-4 are OK with a note (warning, mode change,
// restart, wait), negatives are errors.
inline constexpr int kAdlOk = 0;
inline constexpr int kAdlErr = -1;
inline constexpr int kAdlErrNotInit = -2;
inline constexpr int kAdlErrInvalidParam = -3;
inline constexpr int kAdlErrInvalidParamSize = -4;
inline constexpr int kAdlErrInvalidAdlIdx = -5;
inline constexpr int kAdlErrNotSupported = -8;
inline constexpr int kAdlErrNullPointer = -9;
inline constexpr int kAdlErrDisabledAdapter = -10;
inline constexpr int kAdlErrInvalidCallback = -11;
inline bool AdlSucceeded(int rc) {
  return rc >= kAdlOk;
}

inline constexpr int kAdlMaxPath = 256;          // ADL_MAX_PATH
inline constexpr int kAdlMaxAdapters = 250;      // ADL_MAX_ADAPTERS
inline constexpr int kAdlPmLogMaxSensors = 256;  // ADL_PMLOG_MAX_SENSORS
// AdapterInfo.iVendorID: AMD's adapters carry the number 1002 in decimal (the SDK's Display sample tests
// `iVendorID == 1002`), not the PCI vendor id 0x1002.
inline constexpr int kAdlAmdVendorId = 1002;

// enum ADL_PMLOG_SENSORS: indices into ADLPMLogDataOutput::sensors, with the unit of each value.
enum AdlPmLogSensor : int {
  kAdlPmLogClkGfxclk = 1,            // ADL_PMLOG_CLK_GFXCLK: MHz
  kAdlPmLogClkMemclk = 2,            // ADL_PMLOG_CLK_MEMCLK: MHz
  kAdlPmLogTemperatureEdge = 8,      // ADL_PMLOG_TEMPERATURE_EDGE: °C
  kAdlPmLogTemperatureMem = 9,       // ADL_PMLOG_TEMPERATURE_MEM: °C
  kAdlPmLogFanRpm = 14,              // ADL_PMLOG_FAN_RPM
  kAdlPmLogFanPercentage = 15,       // ADL_PMLOG_FAN_PERCENTAGE: % of the maximum speed
  kAdlPmLogInfoActivityGfx = 19,     // ADL_PMLOG_INFO_ACTIVITY_GFX: %
  kAdlPmLogAsicPower = 23,           // ADL_PMLOG_ASIC_POWER: W
  kAdlPmLogTemperatureHotspot = 27,  // ADL_PMLOG_TEMPERATURE_HOTSPOT: °C (junction)
  kAdlPmLogBoardPower = 73,          // ADL_PMLOG_BOARD_POWER: W (newer drivers)
};

// AdapterInfo as the Windows build of the SDK lays it out (the members after iPresent exist under _WIN32
// only). One GPU may have several entries (one per display output): the PCI location tells them apart.
struct AdlAdapterInfo {
  int iSize;
  int iAdapterIndex;
  char strUDID[kAdlMaxPath];
  int iBusNumber;
  int iDeviceNumber;
  int iFunctionNumber;
  int iVendorID;
  char strAdapterName[kAdlMaxPath];
  char strDisplayName[kAdlMaxPath];
  int iPresent;
  int iExist;
  char strDriverPath[kAdlMaxPath];
  char strDriverPathExt[kAdlMaxPath];
  char strPNPString[kAdlMaxPath];
  int iOSDisplayIndex;
};
static_assert(sizeof(AdlAdapterInfo) == 1572, "AdapterInfo (Windows) is 1572 bytes");
static_assert(offsetof(AdlAdapterInfo, strUDID) == 8 && offsetof(AdlAdapterInfo, iBusNumber) == 264 &&
                  offsetof(AdlAdapterInfo, iVendorID) == 276 &&
                  offsetof(AdlAdapterInfo, strAdapterName) == 280 &&
                  offsetof(AdlAdapterInfo, iPresent) == 792 && offsetof(AdlAdapterInfo, iExist) == 796 &&
                  offsetof(AdlAdapterInfo, iOSDisplayIndex) == 1568,
              "AdapterInfo field offsets");

// ADLMemoryInfo2 (ADL2_Adapter_MemoryInfo2_Get): sizes in bytes, bandwidth in MB/s.
struct AdlMemoryInfo2 {
  long long iMemorySize;
  char strMemoryType[kAdlMaxPath];
  long long iMemoryBandwidth;
  long long iHyperMemorySize;
  long long iInvisibleMemorySize;
  long long iVisibleMemorySize;
};
static_assert(sizeof(AdlMemoryInfo2) == 296 && offsetof(AdlMemoryInfo2, iMemoryBandwidth) == 264,
              "ADLMemoryInfo2 layout");

// ADLSingleSensorData and ADLPMLogDataOutput (ADL2_New_QueryPMLogData_Get): one {supported, value} per
// ADL_PMLOG_SENSORS index.
struct AdlSingleSensorData {
  int supported;
  int value;
};
struct AdlPmLogDataOutput {
  int size;
  AdlSingleSensorData sensors[kAdlPmLogMaxSensors];
};
static_assert(sizeof(AdlPmLogDataOutput) == 4 + 8 * 256 && offsetof(AdlPmLogDataOutput, sensors) == 4,
              "ADLPMLogDataOutput layout");

struct AdlApi {
  // Required.
  // ADL2_Main_Control_Create(callback, iEnumConnectedAdapters, &context)
  int (*MainControlCreate)(AdlMallocCallback, int, ADL_CONTEXT_HANDLE*) = nullptr;
  // ADL2_Main_Control_Destroy(context)
  int (*MainControlDestroy)(ADL_CONTEXT_HANDLE) = nullptr;
  // ADL2_Adapter_NumberOfAdapters_Get(context, &count)
  int (*NumberOfAdapters)(ADL_CONTEXT_HANDLE, int*) = nullptr;
  // ADL2_Adapter_AdapterInfo_Get(context, lpInfo, iInputSize): iInputSize is the buffer's size in bytes.
  int (*AdapterInfo)(ADL_CONTEXT_HANDLE, AdlAdapterInfo*, int) = nullptr;
  // Optional: each metric is.
  // ADL2_New_QueryPMLogData_Get(context, iAdapterIndex, lpDataOutput): deprecated by SDK 18.1 in favour of
  // the shared-memory PM log calls, still exported by the drivers that have it.
  int (*QueryPmLogData)(ADL_CONTEXT_HANDLE, int, AdlPmLogDataOutput*) = nullptr;
  // ADL2_Adapter_DedicatedVRAMUsage_Get(context, iAdapterIndex, &iVRAMUsageInMB)
  int (*DedicatedVramUsage)(ADL_CONTEXT_HANDLE, int, int*) = nullptr;
  // ADL2_Adapter_MemoryInfo2_Get(context, iAdapterIndex, lpMemoryInfo2)
  int (*MemoryInfo2)(ADL_CONTEXT_HANDLE, int, AdlMemoryInfo2*) = nullptr;
};

// atiadlxx.dll: the 64-bit ADL in System32, looked for there alone (platform/dynamic_library.h).
std::vector<std::string> AdlLibraryNames();

LoadedTable<AdlApi> LoadAdl(const std::vector<std::string>& candidates);

// "ADL_ERR_NOT_SUPPORTED (-8)".
std::string AdlErrorText(int rc);

// "0000:03:00.0" out of AdapterInfo's bus, device and function (ADL gives no PCI domain: Windows desktops
// have one, 0); empty when a number is out of PCI's range.
std::string FormatAdlPciAddress(int bus, int device, int function);

}  // namespace gpudoctor
