// AMD SMI (libamd_smi, ROCm 6 and later) as `monitor` uses it: the GPUs it lists with their PCI addresses,
// utilization, temperatures, VRAM used/total and the current clocks. Our own minimal typedefs, one table
// of function pointers and its loader; no ROCm header is included. Values and layouts are those of
// ROCm/amdsmi's include/amd_smi/amdsmi.h (rocm-6.2 and the 2024-10 amd-staging, read 2026-12-03) and of
// ROCm/rocm-systems' projects/amdsmi for ROCm 7. Only calls whose arguments kept their layout across those
// releases are bound: amdsmi_power_info_t and amdsmi_proc_info_t changed layout three times between ROCm
// 6.0 and 7.x, so power and per-process memory come from rocm_smi or sysfs instead (docs/monitor.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using amdsmi_status_t = int;  // 0 = AMDSMI_STATUS_SUCCESS
using amdsmi_socket_handle = void*;
using amdsmi_processor_handle = void*;

inline constexpr amdsmi_status_t kAmdSmiSuccess = 0;
inline constexpr uint64_t kAmdSmiInitAmdGpus = 1u << 1;  // AMDSMI_INIT_AMD_GPUS
inline constexpr int kAmdSmiMemTypeVram = 0;             // AMDSMI_MEM_TYPE_VRAM
inline constexpr int kAmdSmiClkTypeSys = 0;              // AMDSMI_CLK_TYPE_SYS (= _GFX)
inline constexpr int kAmdSmiClkTypeMem = 4;              // AMDSMI_CLK_TYPE_MEM
inline constexpr int kAmdSmiTempTypeEdge = 0;            // AMDSMI_TEMPERATURE_TYPE_EDGE
inline constexpr int kAmdSmiTempTypeHotspot = 1;         // AMDSMI_TEMPERATURE_TYPE_HOTSPOT (= _JUNCTION)
inline constexpr int kAmdSmiTempTypeVram = 2;            // AMDSMI_TEMPERATURE_TYPE_VRAM
inline constexpr int kAmdSmiTempCurrent = 0;             // AMDSMI_TEMP_CURRENT

// amdsmi_bdf_t: a union of one uint64 and the bit fields function:3, device:5, bus:8, domain:48 (from the
// least significant bit).
using amdsmi_bdf_t = uint64_t;

// amdsmi_engine_usage_t: percentages.
struct amdsmi_engine_usage_t {
  uint32_t gfx_activity;
  uint32_t umc_activity;
  uint32_t mm_activity;
  uint32_t reserved[13];
};
static_assert(sizeof(amdsmi_engine_usage_t) == 64);

// amdsmi_clk_info_t: ROCm 6.0 had {cur_clk, min_clk, max_clk, reserved[5]}, later releases
// {clk, min_clk, max_clk, clk_locked (u8), clk_deep_sleep (u8), reserved[4]}: the same 32 bytes, the
// current clock (MHz) first in both.
struct amdsmi_clk_info_t {
  uint32_t clk;
  uint32_t min_clk;
  uint32_t max_clk;
  uint8_t clk_locked;
  uint8_t clk_deep_sleep;
  uint32_t reserved[4];
};
static_assert(sizeof(amdsmi_clk_info_t) == 32 && offsetof(amdsmi_clk_info_t, max_clk) == 8);

struct AmdSmiApi {
  // Required.
  amdsmi_status_t (*Init)(uint64_t) = nullptr;                                      // amdsmi_init
  amdsmi_status_t (*ShutDown)() = nullptr;                                          // amdsmi_shut_down
  amdsmi_status_t (*GetSocketHandles)(uint32_t*, amdsmi_socket_handle*) = nullptr;  // count, then fill
  amdsmi_status_t (*GetProcessorHandles)(amdsmi_socket_handle, uint32_t*, amdsmi_processor_handle*) = nullptr;
  amdsmi_status_t (*GetGpuDeviceBdf)(amdsmi_processor_handle, amdsmi_bdf_t*) = nullptr;
  // Optional.
  amdsmi_status_t (*StatusCodeToString)(amdsmi_status_t, const char**) = nullptr;
  amdsmi_status_t (*GetGpuActivity)(amdsmi_processor_handle, amdsmi_engine_usage_t*) = nullptr;
  // Whole degrees C: the header says millidegrees, but amd_smi.cc divides rocm_smi's millidegrees by 1000.
  amdsmi_status_t (*GetTempMetric)(amdsmi_processor_handle, int, int, int64_t*) = nullptr;
  amdsmi_status_t (*GetGpuMemoryTotal)(amdsmi_processor_handle, int, uint64_t*) = nullptr;      // bytes
  amdsmi_status_t (*GetGpuMemoryUsage)(amdsmi_processor_handle, int, uint64_t*) = nullptr;      // bytes
  amdsmi_status_t (*GetClockInfo)(amdsmi_processor_handle, int, amdsmi_clk_info_t*) = nullptr;  // MHz
};

// libamd_smi.so.26 (ROCm 7), .so.25 (6.4), .so.24 (6.0-6.3), libamd_smi.so.
std::vector<std::string> AmdSmiLibraryNames();

LoadedTable<AmdSmiApi> LoadAmdSmi(const std::vector<std::string>& candidates);

std::string AmdSmiErrorText(const AmdSmiApi& api, amdsmi_status_t rc);

// "0000:c1:00.0" out of amdsmi_bdf_t.
std::string FormatAmdSmiBdf(amdsmi_bdf_t bdf);

}  // namespace gpudoctor
