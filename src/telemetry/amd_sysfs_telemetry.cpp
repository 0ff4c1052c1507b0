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

}  // namespace

AmdSysfsFiles FindAmdSysfsFiles(const FileSystem& fs, const std::string& pci_address) {
  AmdSysfsFiles out;
  out.device_dir = "/sys/bus/pci/devices/" + pci_address;
  const std::string hwmon_root = out.device_dir + "/hwmon";
  auto folders = fs.ListDir(hwmon_root);
  if (!folders.ok() || folders->empty()) return out;
  // The folder named "amdgpu" (a board may carry other sensors' folders), else the first.
  out.hwmon_dir = JoinPath(hwmon_root, folders->front());
  for (const auto& f : *folders) {
    auto name = fs.ReadFile(JoinPath(JoinPath(hwmon_root, f), "name"), kSmallFile);
    if (name.ok() && name->rfind("amdgpu", 0) == 0) {
      out.hwmon_dir = JoinPath(hwmon_root, f);
      break;
    }
  }
  if (auto names = fs.ListDir(out.hwmon_dir); names.ok()) {
    for (const auto& n : *names) {
      if (IsHwmonTelemetryFile(n) && n != "name") out.hwmon_files.push_back(n);
    }
  }
  return out;
}

void ReadAmdSysfsTelemetry(const FileSystem& fs, const AmdSysfsFiles& files, TelemetrySample& sample) {
  const std::string& dir = files.device_dir;
  sample.source = "sysfs";
  sample.memory_used_bytes = ReadUnsigned(fs, dir + "/mem_info_vram_used");
  sample.memory_total_bytes = ReadUnsigned(fs, dir + "/mem_info_vram_total");
  if (auto busy = ReadUnsigned(fs, dir + "/gpu_busy_percent"); busy && *busy <= 100)
    sample.utilization_percent = static_cast<double>(*busy);
  sample.sm_clock_mhz = ReadDpm(fs, dir + "/pp_dpm_sclk");
  sample.mem_clock_mhz = ReadDpm(fs, dir + "/pp_dpm_mclk");
  if (files.hwmon_dir.empty()) return;
  std::vector<std::pair<std::string, std::string>> texts;
  for (const auto& n : files.hwmon_files) {
    // A sensor the board lacks can exist and fail to read (-ENODEV on some MI300 edge sensors).
    if (auto text = fs.ReadFile(JoinPath(files.hwmon_dir, n), kSmallFile); text.ok())
      texts.emplace_back(n, *text);
  }
  HwmonReadings hw = ParseHwmonFiles(texts);
  sample.power_watts = hw.power_watts;
  sample.temperature_c = hw.temperature_edge_c       ? hw.temperature_edge_c
                         : hw.temperature_junction_c ? hw.temperature_junction_c
                                                     : hw.temperature_first_c;
  sample.temperature_hotspot_c = hw.temperature_junction_c;
  sample.temperature_memory_c = hw.temperature_memory_c;
  sample.fan_rpm = hw.fan_rpm;
  sample.fan_percent = hw.fan_percent;
  // pp_dpm_* is absent on some parts (APUs under some kernels); hwmon's freq sensors stand in.
  if (!sample.sm_clock_mhz) sample.sm_clock_mhz = hw.sclk_mhz;
  if (!sample.mem_clock_mhz) sample.mem_clock_mhz = hw.mclk_mhz;
}

}  // namespace gpudoctor
