// libFuzzer target: amdgpu's telemetry parsers (pp_dpm_* levels, hwmon sensor files, plain sysfs numbers)
// and the recorded NVML and ADL telemetry (one codec) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "telemetry/sysfs_telemetry_parse.h"
#include "telemetry/telemetry_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  if (auto mhz = ParseDpmCurrentMhz(text); mhz && *mhz > 999999999u) __builtin_trap();  // at most 9 digits
  (void)ParseSysfsUnsigned(text);

  // The input as a hwmon folder: each line "file=contents".
  std::vector<std::pair<std::string, std::string>> files;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    size_t eq = line.find('=');
    if (eq != std::string_view::npos) files.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    start = end + 1;
  }
  HwmonReadings r = ParseHwmonFiles(files);
  if (r.fan_percent && (*r.fan_percent < 0 || *r.fan_percent > 100)) __builtin_trap();
  if (r.power_watts && *r.power_watts < 0) __builtin_trap();

  std::vector<std::string> problems;
  auto samples = ParseRecordedTelemetry(text, problems);
  if (samples.ok()) {
    // What was read writes back and reads again to the same samples.
    std::vector<std::string> again_problems;
    auto again = ParseRecordedTelemetry(AddTelemetryToNvmlJson("{}", *samples), again_problems);
    if (!again.ok() || again->size() != samples->size()) __builtin_trap();
  }
  return 0;
}
