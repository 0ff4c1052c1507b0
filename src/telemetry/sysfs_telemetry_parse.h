// Pure parsers of the amdgpu telemetry files in sysfs (text in, values out; no I/O), so recorded and fuzzed
// inputs drive the same code as a live GPU. Units as the kernel writes them: hwmon power in microwatts,
// temperatures in millidegrees Celsius, freq*_input in Hz (Documentation/gpu/amdgpu/thermal.rst).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

// One unsigned decimal number, surrounding blanks and a final newline allowed ("12884901888\n").
std::optional<uint64_t> ParseSysfsUnsigned(std::string_view text);

// The current level of a pp_dpm_sclk / pp_dpm_mclk table: the line marked with '*'.
//   "0: 500Mhz\n1: 1000Mhz *\n2: 2450Mhz\n" -> 1000. "S: 19Mhz *" (an APU's sleep level) counts too.
// Empty when no line is marked or the marked line has no "<number>Mhz".
std::optional<uint32_t> ParseDpmCurrentMhz(std::string_view text);

// What one amdgpu hwmon folder says, from its files as (name, contents) pairs ("power1_average",
// "95000000\n"); files it does not know are ignored, unreadable values left empty.
struct HwmonReadings {
  std::optional<double> power_watts;             // power1_average, else power1_input
  std::optional<double> temperature_edge_c;      // the temp*_input labelled "edge"
  std::optional<double> temperature_junction_c;  // ... "junction" (hotspot)
  std::optional<double> temperature_memory_c;    // ... "mem"
  std::optional<double> temperature_first_c;     // temp1_input, whatever its label
  std::optional<uint32_t> fan_rpm;               // fan1_input
  std::optional<double> fan_percent;             // pwm1 (0-255) as a percentage
  std::optional<uint32_t> sclk_mhz;              // freq*_input labelled "sclk", Hz -> MHz
  std::optional<uint32_t> mclk_mhz;              // ... "mclk"
};
HwmonReadings ParseHwmonFiles(const std::vector<std::pair<std::string, std::string>>& files);

// The files of a hwmon folder ParseHwmonFiles reads (so a reader asks for nothing else).
bool IsHwmonTelemetryFile(std::string_view name);

}  // namespace gpudoctor
