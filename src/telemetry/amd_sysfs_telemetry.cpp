// Reading amdgpu's telemetry files (see amd_sysfs_telemetry.h); the parsing is sysfs_telemetry_parse.cpp.
#include "telemetry/amd_sysfs_telemetry.h"

#include "telemetry/sysfs_telemetry_parse.h"

namespace gpudoctor {
namespace {

constexpr size_t kSmallFile = 4096;

std::optional<uint64_t> ReadUnsigned(const FileSystem& fs, const std::string& path) {
  auto text = fs.ReadFile(path, kSmallFile);
  return text.ok() ? ParseSysfsUnsigned(*text) : std::nullopt;
}

std::optional<uint32_t> ReadDpm(const FileSystem& fs, const std::string& path) {
  auto text = fs.ReadFile(path, kSmallFile);
  return text.ok() ? ParseDpmCurrentMhz(*text) : std::nullopt;
}

// The device's amdgpu hwmon folder (the first one named "amdgpu", else the first one), parsed.
std::optional<HwmonReadings> ReadHwmon(const FileSystem& fs, const std::string& device_dir) {
  const std::string hwmon_dir = device_dir + "/hwmon";
  auto folders = fs.ListDir(hwmon_dir);
  if (!folders.ok() || folders->empty()) return std::nullopt;
  std::string chosen = JoinPath(hwmon_dir, folders->front());
  for (const auto& f : *folders) {
    auto name = fs.ReadFile(JoinPath(JoinPath(hwmon_dir, f), "name"), kSmallFile);
    if (name.ok() && name->rfind("amdgpu", 0) == 0) {
      chosen = JoinPath(hwmon_dir, f);
      break;
    }
  }
  auto names = fs.ListDir(chosen);
  if (!names.ok()) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& n : *names) {
    if (!IsHwmonTelemetryFile(n) || n == "name") continue;
    // A sensor the board lacks can exist and fail to read (-ENODEV on some MI300 edge sensors).
    if (auto text = fs.ReadFile(JoinPath(chosen, n), kSmallFile); text.ok()) files.emplace_back(n, *text);
  }
  return ParseHwmonFiles(files);
}

}  // namespace

void ReadAmdSysfsTelemetry(const FileSystem& fs, TelemetrySample& sample) {
  const std::string dir = "/sys/bus/pci/devices/" + sample.device.pci_address;
  sample.source = "sysfs";
  sample.memory_used_bytes = ReadUnsigned(fs, dir + "/mem_info_vram_used");
  sample.memory_total_bytes = ReadUnsigned(fs, dir + "/mem_info_vram_total");
  if (auto busy = ReadUnsigned(fs, dir + "/gpu_busy_percent"); busy && *busy <= 100)
    sample.utilization_percent = static_cast<double>(*busy);
  sample.sm_clock_mhz = ReadDpm(fs, dir + "/pp_dpm_sclk");
  sample.mem_clock_mhz = ReadDpm(fs, dir + "/pp_dpm_mclk");
  auto hw = ReadHwmon(fs, dir);
  if (!hw) return;
  sample.power_watts = hw->power_watts;
  sample.temperature_c = hw->temperature_edge_c       ? hw->temperature_edge_c
                         : hw->temperature_junction_c ? hw->temperature_junction_c
                                                      : hw->temperature_first_c;
  sample.temperature_hotspot_c = hw->temperature_junction_c;
  sample.temperature_memory_c = hw->temperature_memory_c;
  sample.fan_rpm = hw->fan_rpm;
  sample.fan_percent = hw->fan_percent;
  // pp_dpm_* is absent on some parts (APUs under some kernels); hwmon's freq sensors stand in.
  if (!sample.sm_clock_mhz) sample.sm_clock_mhz = hw->sclk_mhz;
  if (!sample.mem_clock_mhz) sample.mem_clock_mhz = hw->mclk_mhz;
}

}  // namespace gpudoctor
