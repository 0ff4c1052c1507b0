// amdgpu's telemetry files parsed (see sysfs_telemetry_parse.h). The hwmon layout follows the kernel's
// drivers/gpu/drm/amd/pm/amdgpu_pm.c: temp1/2/3 labelled edge/junction/mem, power1_average (older SMUs) or
// power1_input (SMU 13 and later), freq1/freq2 labelled sclk/mclk.
#include "telemetry/sysfs_telemetry_parse.h"

#include <map>

#include "core/strings.h"

namespace gpudoctor {
namespace {

// "temp2_input" -> ("temp", 2, "input"); false for anything else.
bool SplitSensorName(std::string_view name, std::string& kind, unsigned& number, std::string& attribute) {
  size_t i = 0;
  while (i < name.size() && name[i] >= 'a' && name[i] <= 'z') ++i;
  size_t digits = i;
  while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') ++digits;
  if (i == 0 || digits == i || digits >= name.size() || name[digits] != '_') return false;
  auto n = ParseU64(name.substr(i, digits - i));
  if (!n || *n > 64) return false;
  kind = std::string(name.substr(0, i));
  number = static_cast<unsigned>(*n);
  attribute = std::string(name.substr(digits + 1));
  return true;
}

}  // namespace

std::optional<uint64_t> ParseSysfsUnsigned(std::string_view text) {
  return ParseU64(Trim(text));
}

std::optional<uint32_t> ParseDpmCurrentMhz(std::string_view text) {
  for (std::string_view line : SplitLines(text)) {
    std::string_view t = Trim(line);
    if (t.empty() || t.back() != '*') continue;
    size_t colon = t.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    std::string_view rest = Trim(t.substr(colon + 1));
    size_t end = 0;
    while (end < rest.size() && rest[end] >= '0' && rest[end] <= '9') ++end;
    if (end == 0 || end > 9) return std::nullopt;
    std::string_view unit = rest.substr(end);
    if (!StartsWith(ToLower(unit), "mhz")) return std::nullopt;
    auto mhz = ParseU64(rest.substr(0, end));
    if (!mhz) return std::nullopt;
    return static_cast<uint32_t>(*mhz);
  }
  return std::nullopt;
}

bool IsHwmonTelemetryFile(std::string_view name) {
  std::string kind, attribute;
  unsigned number = 0;
  if (name == "name" || name == "pwm1") return true;
  if (!SplitSensorName(name, kind, number, attribute)) return false;
  if (kind == "temp" || kind == "freq") return attribute == "input" || attribute == "label";
  if (kind == "power") return number == 1 && (attribute == "average" || attribute == "input");
  if (kind == "fan") return number == 1 && attribute == "input";
  return false;
}

HwmonReadings ParseHwmonFiles(const std::vector<std::pair<std::string, std::string>>& files) {
  // Sensors by (kind, number): their label and input text.
  std::map<std::pair<std::string, unsigned>, std::pair<std::string, std::optional<uint64_t>>> sensors;
  std::optional<uint64_t> power_average, power_input, pwm;
  HwmonReadings r;
  for (const auto& [name, text] : files) {
    if (name == "pwm1") {
      pwm = ParseSysfsUnsigned(text);
      continue;
    }
    std::string kind, attribute;
    unsigned number = 0;
    if (!SplitSensorName(name, kind, number, attribute)) continue;
    if (kind == "power" && number == 1 && attribute == "average") power_average = ParseSysfsUnsigned(text);
    if (kind == "power" && number == 1 && attribute == "input") power_input = ParseSysfsUnsigned(text);
    if (kind == "fan" && number == 1 && attribute == "input") {
      if (auto rpm = ParseSysfsUnsigned(text); rpm && *rpm <= 1000000)
        r.fan_rpm = static_cast<uint32_t>(*rpm);
    }
    if (kind == "temp" || kind == "freq") {
      auto& s = sensors[{kind, number}];
      if (attribute == "label") s.first = std::string(Trim(text));
      if (attribute == "input") s.second = ParseSysfsUnsigned(text);
    }
  }
  if (power_average)
    r.power_watts = static_cast<double>(*power_average) / 1e6;
  else if (power_input)
    r.power_watts = static_cast<double>(*power_input) / 1e6;
  if (pwm && *pwm <= 255) r.fan_percent = static_cast<double>(*pwm) * 100.0 / 255.0;
  for (const auto& [key, sensor] : sensors) {
    const auto& [label, value] = sensor;
    if (!value) continue;
    if (key.first == "temp") {
      double c = static_cast<double>(*value) / 1000.0;
      if (key.second == 1) r.temperature_first_c = c;
      if (label == "edge") r.temperature_edge_c = c;
      if (label == "junction") r.temperature_junction_c = c;
      if (label == "mem") r.temperature_memory_c = c;
    } else {
      if (*value / 1000000 > 0xffffffffull) continue;
      auto mhz = static_cast<uint32_t>(*value / 1000000);
      if (label == "sclk") r.sclk_mhz = mhz;
      if (label == "mclk") r.mclk_mhz = mhz;
    }
  }
  return r;
}

}  // namespace gpudoctor
