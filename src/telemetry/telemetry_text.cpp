// Text and CSV forms of telemetry samples (see telemetry_text.h).
#include "telemetry/telemetry_text.h"

#include <cstdio>
#include <type_traits>

#include "core/printable.h"

namespace gpudoctor {
namespace {

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

template <typename T>
std::string OrNa(const std::optional<T>& v, int decimals, const char* unit) {
  return v ? Fixed(static_cast<double>(*v), decimals) + unit : "n/a";
}

// A CSV field: the text made printable like the text output's (a GPU name read from the machine or a
// recording may hold ESC, BEL or C1 bytes; issue 35, #63), then quoted where it holds a comma or a quote.
std::string Csv(const std::string& raw) {
  std::string field = Printable(raw);
  if (field.find_first_of(",\"") == std::string::npos) return field;  // no CR or LF is left
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

template <typename T>
std::string CsvNumber(const std::optional<T>& v) {
  if (!v) return "";
  if constexpr (std::is_floating_point_v<T>) return Fixed(*v, 3);
  return std::to_string(*v);
}

std::string PadRight(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

}  // namespace

std::string Sparkline(const std::deque<double>& history) {
  static constexpr const char* kBlocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
                                            "\u2585", "\u2586", "\u2587", "\u2588"};
  std::string out;
  for (double v : history) {
    if (v < 0) {
      out += "?";
      continue;
    }
    int level = static_cast<int>(v / 100.0 * 7.0 + 0.5);
    out += kBlocks[level < 0 ? 0 : (level > 7 ? 7 : level)];
  }
  return out;
}

std::string SampleTextLine(const TelemetrySample& s, const std::deque<double>& history) {
  constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
  std::string memory = "n/a";
  if (s.memory_used_bytes || s.memory_total_bytes) {
    memory = (s.memory_used_bytes ? Fixed(*s.memory_used_bytes / kGiB, 1) : std::string("n/a")) + "/" +
             (s.memory_total_bytes ? Fixed(*s.memory_total_bytes / kGiB, 1) : std::string("n/a")) + " GiB";
  }
  std::string line =
      PadRight(std::to_string(s.device.index), 3) + PadRight(s.device.vendor, 7) +
      PadRight(Printable(s.device.name), 24) + " " + PadRight(Printable(s.device.pci_address), 13) + " mem " +
      PadRight(memory, 16) + " util " + PadRight(OrNa(s.utilization_percent, 0, "%"), 5) + " power " +
      PadRight(OrNa(s.power_watts, 1, " W"), 8) + " temp " + PadRight(OrNa(s.temperature_c, 0, " C"), 5) +
      " sm " + PadRight(OrNa(s.sm_clock_mhz, 0, " MHz"), 9) + " mem " + OrNa(s.mem_clock_mhz, 0, " MHz");
  if (s.fan_rpm || s.fan_percent)
    line += " fan " + (s.fan_rpm ? std::to_string(*s.fan_rpm) + " rpm" : OrNa(s.fan_percent, 0, "%"));
  if (!s.throttle_reasons.empty()) {
    line += " clocks limited:";
    for (const auto& r : s.throttle_reasons) line += " " + r;
  }
  if (!history.empty()) line += "  " + Sparkline(history);
  return line;
}

std::string TelemetryCsvHeader() {
  return "sample,time_unix_ms,gpu,vendor,name,pci_bus_id,uuid,memory_used_bytes,memory_total_bytes,"
         "utilization_percent,power_watts,temperature_c,temperature_hotspot_c,temperature_memory_c,fan_rpm,"
         "fan_percent,sm_clock_mhz,mem_clock_mhz,throttle_reasons\n";
}

std::string TelemetryCsvRows(uint64_t sample_number, int64_t time_unix_ms,
                             const std::vector<TelemetrySample>& samples) {
  std::string out;
  for (const auto& s : samples) {
    std::string reasons;
    for (const auto& r : s.throttle_reasons) reasons += (reasons.empty() ? "" : " ") + r;
    out += std::to_string(sample_number) + "," + std::to_string(time_unix_ms) + "," +
           std::to_string(s.device.index) + "," + Csv(s.device.vendor) + "," + Csv(s.device.name) + "," +
           Csv(s.device.pci_address) + "," + Csv(s.device.uuid) + "," + CsvNumber(s.memory_used_bytes) + "," +
           CsvNumber(s.memory_total_bytes) + "," + CsvNumber(s.utilization_percent) + "," +
           CsvNumber(s.power_watts) + "," + CsvNumber(s.temperature_c) + "," +
           CsvNumber(s.temperature_hotspot_c) + "," + CsvNumber(s.temperature_memory_c) + "," +
           CsvNumber(s.fan_rpm) + "," + CsvNumber(s.fan_percent) + "," + CsvNumber(s.sm_clock_mhz) + "," +
           CsvNumber(s.mem_clock_mhz) + "," + Csv(reasons) + "\n";
  }
  return out;
}

}  // namespace gpudoctor
