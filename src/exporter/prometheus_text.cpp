// Prometheus' text exposition format for telemetry samples (see prometheus_text.h).
#include "exporter/prometheus_text.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>

namespace gpudoctor {
namespace {

struct GaugeSpec {
  const char* name;
  const char* help;
  std::function<std::optional<double>(const TelemetrySample&)> value;
};

template <typename T>
std::optional<double> AsDouble(const std::optional<T>& v) {
  return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

// One list of the per-GPU gauges, in the order they are written.
const std::vector<GaugeSpec>& Gauges() {
  static const std::vector<GaugeSpec> kGauges = {
      {"gpudoctor_memory_used_bytes", "GPU memory in use (VRAM; NVML used), in bytes.",
       [](const TelemetrySample& s) { return AsDouble(s.memory_used_bytes); }},
      {"gpudoctor_memory_total_bytes", "GPU memory in all (VRAM; NVML total), in bytes.",
       [](const TelemetrySample& s) { return AsDouble(s.memory_total_bytes); }},
      {"gpudoctor_utilization_percent", "Share of the last sample period the GPU was busy, 0 to 100.",
       [](const TelemetrySample& s) { return s.utilization_percent; }},
      {"gpudoctor_power_watts", "Board or socket power draw, in watts.",
       [](const TelemetrySample& s) { return s.power_watts; }},
      {"gpudoctor_temperature_celsius", "GPU temperature (AMD: edge, else junction), in degrees Celsius.",
       [](const TelemetrySample& s) { return s.temperature_c; }},
      {"gpudoctor_temperature_hotspot_celsius", "Hotspot (junction) temperature, in degrees Celsius.",
       [](const TelemetrySample& s) { return s.temperature_hotspot_c; }},
      {"gpudoctor_temperature_memory_celsius", "Memory temperature, in degrees Celsius.",
       [](const TelemetrySample& s) { return s.temperature_memory_c; }},
      {"gpudoctor_fan_rpm", "Fan speed, in revolutions per minute.",
       [](const TelemetrySample& s) { return AsDouble(s.fan_rpm); }},
      {"gpudoctor_fan_percent", "Fan duty cycle or speed, percent of its maximum.",
       [](const TelemetrySample& s) { return s.fan_percent; }},
      {"gpudoctor_sm_clock_mhz", "SM (NVIDIA) or shader engine (AMD sclk) clock, in MHz.",
       [](const TelemetrySample& s) { return AsDouble(s.sm_clock_mhz); }},
      {"gpudoctor_mem_clock_mhz", "Memory clock (AMD mclk), in MHz.",
       [](const TelemetrySample& s) { return AsDouble(s.mem_clock_mhz); }},
      {"gpudoctor_clocks_event_reasons", "NVML clocks event (throttle) reasons, as its bit mask.",
       [](const TelemetrySample& s) { return AsDouble(s.throttle_reasons_mask); }},
  };
  return kGauges;
}

std::string Labels(const TelemetrySample& s) {
  std::string out = "gpu=\"" + std::to_string(s.device.index) + "\",vendor=\"" +
                    EscapePrometheusLabel(s.device.vendor) + "\"";
  if (!s.device.pci_address.empty())
    out += ",pci_bus_id=\"" + EscapePrometheusLabel(s.device.pci_address) + "\"";
  if (!s.device.uuid.empty()) out += ",uuid=\"" + EscapePrometheusLabel(s.device.uuid) + "\"";
  if (!s.device.name.empty()) out += ",name=\"" + EscapePrometheusLabel(s.device.name) + "\"";
  return out;
}

void Header(std::string& out, const char* name, const char* help) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += " gauge\n";
}

}  // namespace

std::string EscapePrometheusLabel(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

std::string PrometheusNumber(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (value == std::floor(value) && std::fabs(value) <= 9007199254740992.0)
    std::snprintf(buf, sizeof buf, "%.0f", value);
  else
    std::snprintf(buf, sizeof buf, "%.10g", value);
  return buf;
}

std::string RenderPrometheusText(const std::vector<TelemetrySample>& samples, size_t warnings,
                                 double scrape_seconds) {
  std::string out;
  out.reserve(256 + samples.size() * 1600);
  std::vector<std::string> labels;
  labels.reserve(samples.size());
  for (const auto& s : samples) labels.push_back(Labels(s));

  Header(out, "gpudoctor_gpu_info",
         "One series per GPU watched; the value is 1. source: nvml, nvml-recorded, sysfs, or the AMD "
         "libraries that answered (amd_smi+rocm_smi+sysfs).");
  for (size_t i = 0; i < samples.size(); ++i)
    out += "gpudoctor_gpu_info{" + labels[i] + ",source=\"" + EscapePrometheusLabel(samples[i].source) +
           "\"} 1\n";
  for (const GaugeSpec& g : Gauges()) {
    bool any = false;
    for (size_t i = 0; i < samples.size(); ++i) {
      std::optional<double> v = g.value(samples[i]);
      if (!v) continue;  // a metric the GPU does not expose has no series, never a made-up 0
      if (!any) Header(out, g.name, g.help);
      any = true;
      out += g.name;
      out += '{';
      out += labels[i];
      out += "} ";
      out += PrometheusNumber(*v);
      out += '\n';
    }
  }
  bool any_process = false;
  for (size_t i = 0; i < samples.size(); ++i) {
    for (const auto& p : samples[i].processes) {
      if (!p.used_bytes) continue;
      if (!any_process)
        Header(out, "gpudoctor_process_memory_used_bytes",
               "GPU memory a compute process holds, in bytes (NVML).");
      any_process = true;
      out += "gpudoctor_process_memory_used_bytes{" + labels[i] + ",pid=\"" + std::to_string(p.pid) + "\"} " +
             PrometheusNumber(static_cast<double>(*p.used_bytes)) + "\n";
    }
  }
  Header(out, "gpudoctor_scrape_warnings",
         "Problems met while reading the GPUs for this scrape (see the log).");
  out += "gpudoctor_scrape_warnings " + std::to_string(warnings) + "\n";
  Header(out, "gpudoctor_scrape_duration_seconds",
         "Time taken to read every GPU for this scrape, in seconds.");
  out += "gpudoctor_scrape_duration_seconds " + PrometheusNumber(scrape_seconds) + "\n";
  return out;
}

}  // namespace gpudoctor
