// TelemetrySample to JSON and back (see telemetry_json.h), with nlohmann/json.
#include "telemetry/telemetry_json.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "core/json_depth.h"
namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;  // fields in the order docs/monitor.md lists them

template <typename T>
Json OrNull(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json OrNull(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

// Each metric that has a value, with the source that gave it: {"power_watts": "rocm_smi", ...}.
Json MetricSourcesJson(const TelemetrySample& s) {
  Json out = Json::object();
  auto note = [&](const char* name, bool present) {
    if (present) out[name] = MetricSource(s, name);
  };
  note("memory_used_bytes", s.memory_used_bytes.has_value());
  note("memory_total_bytes", s.memory_total_bytes.has_value());
  note("utilization_percent", s.utilization_percent.has_value());
  note("power_watts", s.power_watts.has_value());
  note("temperature_c", s.temperature_c.has_value());
  note("temperature_hotspot_c", s.temperature_hotspot_c.has_value());
  note("temperature_memory_c", s.temperature_memory_c.has_value());
  note("fan_rpm", s.fan_rpm.has_value());
  note("fan_percent", s.fan_percent.has_value());
  note("sm_clock_mhz", s.sm_clock_mhz.has_value());
  note("sm_clock_max_mhz", s.sm_clock_max_mhz.has_value());
  note("mem_clock_mhz", s.mem_clock_mhz.has_value());
  note("power_limit_watts", s.power_limit_watts.has_value());
  note("power_default_limit_watts", s.power_default_limit_watts.has_value());
  note("throttle_reasons_mask", s.throttle_reasons_mask.has_value());
  note("ecc_corrected", s.ecc_corrected.has_value());
  note("ecc_uncorrected", s.ecc_uncorrected.has_value());
  note("remapped_rows_pending", s.remapped_rows_pending.has_value());
  note("remapped_rows_failed", s.remapped_rows_failed.has_value());
  note("pcie_gen", s.pcie_gen.has_value());
  note("pcie_width", s.pcie_width.has_value());
  note("pcie_gen_max", s.pcie_gen_max.has_value());
  note("pcie_width_max", s.pcie_width_max.has_value());
  note("processes", !s.processes.empty());
  return out;
}

Json SampleToJson(const TelemetrySample& s) {
  Json processes = Json::array();
  for (const auto& p : s.processes)
    processes.push_back({{"pid", p.pid}, {"used_bytes", OrNull(p.used_bytes)}});
  return {{"gpu", s.device.index},
          {"vendor", s.device.vendor},
          {"name", OrNull(s.device.name)},
          {"pci_bus_id", OrNull(s.device.pci_address)},
          {"uuid", OrNull(s.device.uuid)},
          {"source", s.source},
          {"memory_used_bytes", OrNull(s.memory_used_bytes)},
          {"memory_total_bytes", OrNull(s.memory_total_bytes)},
          {"utilization_percent", OrNull(s.utilization_percent)},
          {"power_watts", OrNull(s.power_watts)},
          {"temperature_c", OrNull(s.temperature_c)},
          {"temperature_hotspot_c", OrNull(s.temperature_hotspot_c)},
          {"temperature_memory_c", OrNull(s.temperature_memory_c)},
          {"fan_rpm", OrNull(s.fan_rpm)},
          {"fan_percent", OrNull(s.fan_percent)},
          {"sm_clock_mhz", OrNull(s.sm_clock_mhz)},
          {"sm_clock_max_mhz", OrNull(s.sm_clock_max_mhz)},
          {"mem_clock_mhz", OrNull(s.mem_clock_mhz)},
          {"power_limit_watts", OrNull(s.power_limit_watts)},
          {"power_default_limit_watts", OrNull(s.power_default_limit_watts)},
          {"throttle_reasons_mask", OrNull(s.throttle_reasons_mask)},
          {"throttle_reasons", s.throttle_reasons},
          {"ecc_corrected", OrNull(s.ecc_corrected)},
          {"ecc_uncorrected", OrNull(s.ecc_uncorrected)},
          {"remapped_rows_pending", OrNull(s.remapped_rows_pending)},
          {"remapped_rows_failed", OrNull(s.remapped_rows_failed)},
          {"pcie_gen", OrNull(s.pcie_gen)},
          {"pcie_width", OrNull(s.pcie_width)},
          {"pcie_gen_max", OrNull(s.pcie_gen_max)},
          {"pcie_width_max", OrNull(s.pcie_width_max)},
          {"processes", std::move(processes)},
          {"metric_sources", MetricSourcesJson(s)}};
}

std::string Dump(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Reads member `key` of `j` into `out` when it is a number in range; a wrong type is a problem line.
template <typename T>
void ReadNumber(const Json& j, const char* key, std::optional<T>& out, const std::string& where,
                std::vector<std::string>& problems) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return;
  if (!it->is_number() || (std::is_unsigned_v<T> && !it->is_number_unsigned())) {
    problems.push_back(where + ": " + key + " is not a " + (std::is_unsigned_v<T> ? "count" : "number"));
    return;
  }
  if constexpr (std::is_unsigned_v<T>) {
    if (it->get<uint64_t>() > std::numeric_limits<T>::max()) {
      problems.push_back(where + ": " + key + " is out of range");
      return;
    }
  }
  out = it->get<T>();
}

std::string ReadString(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The sample in object `j` (SampleToJson's form); `where` names it in `problems`.
TelemetrySample SampleFromJson(const Json& j, const std::string& where, std::vector<std::string>& problems) {
  TelemetrySample s;
  std::optional<uint32_t> index;
  ReadNumber(j, "gpu", index, where, problems);
  s.device.index = index.value_or(0);
  s.device.vendor = ReadString(j, "vendor");
  s.device.name = ReadString(j, "name");
  s.device.pci_address = ReadString(j, "pci_bus_id");
  s.device.uuid = ReadString(j, "uuid");
  s.source = ReadString(j, "source");
  ReadNumber(j, "memory_used_bytes", s.memory_used_bytes, where, problems);
  ReadNumber(j, "memory_total_bytes", s.memory_total_bytes, where, problems);
  ReadNumber(j, "utilization_percent", s.utilization_percent, where, problems);
  ReadNumber(j, "power_watts", s.power_watts, where, problems);
  ReadNumber(j, "temperature_c", s.temperature_c, where, problems);
  ReadNumber(j, "temperature_hotspot_c", s.temperature_hotspot_c, where, problems);
  ReadNumber(j, "temperature_memory_c", s.temperature_memory_c, where, problems);
  ReadNumber(j, "fan_rpm", s.fan_rpm, where, problems);
  ReadNumber(j, "fan_percent", s.fan_percent, where, problems);
  ReadNumber(j, "sm_clock_mhz", s.sm_clock_mhz, where, problems);
  ReadNumber(j, "sm_clock_max_mhz", s.sm_clock_max_mhz, where, problems);
  ReadNumber(j, "mem_clock_mhz", s.mem_clock_mhz, where, problems);
  ReadNumber(j, "power_limit_watts", s.power_limit_watts, where, problems);
  ReadNumber(j, "power_default_limit_watts", s.power_default_limit_watts, where, problems);
  ReadNumber(j, "throttle_reasons_mask", s.throttle_reasons_mask, where, problems);
  if (s.throttle_reasons_mask) s.throttle_reasons = ThrottleReasonNames(*s.throttle_reasons_mask);
  ReadNumber(j, "ecc_corrected", s.ecc_corrected, where, problems);
  ReadNumber(j, "ecc_uncorrected", s.ecc_uncorrected, where, problems);
  ReadNumber(j, "remapped_rows_pending", s.remapped_rows_pending, where, problems);
  ReadNumber(j, "remapped_rows_failed", s.remapped_rows_failed, where, problems);
  ReadNumber(j, "pcie_gen", s.pcie_gen, where, problems);
  ReadNumber(j, "pcie_width", s.pcie_width, where, problems);
  ReadNumber(j, "pcie_gen_max", s.pcie_gen_max, where, problems);
  ReadNumber(j, "pcie_width_max", s.pcie_width_max, where, problems);
  if (auto p = j.find("processes"); p != j.end() && p->is_array()) {
    for (const Json& pj : *p) {
      if (!pj.is_object()) continue;
      std::optional<uint32_t> pid;
      ProcessMemory pm;
      ReadNumber(pj, "pid", pid, where, problems);
      ReadNumber(pj, "used_bytes", pm.used_bytes, where, problems);
      if (!pid) continue;
      pm.pid = *pid;
      s.processes.push_back(pm);
    }
  }
  return s;
}

}  // namespace

std::string SampleToJsonText(const TelemetrySample& sample) {
  return Dump(SampleToJson(sample));
}

std::string SampleLineJson(uint64_t sample_number, int64_t time_unix_ms,
                           const std::vector<TelemetrySample>& samples,
                           const std::vector<std::string>& warnings) {
  Json gpus = Json::array();
  for (const auto& s : samples) gpus.push_back(SampleToJson(s));
  Json line = {{"sample", sample_number},
               {"time_unix_ms", time_unix_ms},
               {"gpus", std::move(gpus)},
               {"warnings", warnings}};
  return Dump(line);
}

Result<std::vector<TelemetrySample>> ParseRecordedTelemetry(std::string_view nvml_json,
                                                            std::vector<std::string>& problems) {
  try {
    Json doc = ParseJsonWithinDepth<Json>(nvml_json);
    if (doc.is_discarded()) return EnvError("not valid JSON");
    if (!doc.is_object()) return EnvError("the top level is not a JSON object");
    std::vector<TelemetrySample> out;
    auto list = doc.find("telemetry");
    if (list == doc.end() || list->is_null()) return out;
    if (!list->is_array()) {
      problems.push_back("telemetry is not an array; ignored");
      return out;
    }
    for (const Json& j : *list) {
      std::string where = "telemetry[" + std::to_string(out.size()) + "]";
      if (!j.is_object()) {
        problems.push_back(where + " is not an object; skipped");
        continue;
      }
      std::optional<uint32_t> index;
      ReadNumber(j, "gpu", index, where, problems);
      if (!index) {
        problems.push_back(where + ": no gpu index; skipped");
        continue;
      }
      TelemetrySample s = SampleFromJson(j, where, problems);
      out.push_back(std::move(s));
    }
    return out;
  } catch (const std::exception& e) {
    return EnvError(std::string("unreadable: ") + e.what());
  }
}

Result<TelemetrySample> ParseSampleJson(std::string_view text, std::vector<std::string>& problems) {
  try {
    Json j = ParseJsonWithinDepth<Json>(text);
    if (j.is_discarded()) return EnvError("a telemetry sample that is not valid JSON");
    if (!j.is_object()) return EnvError("a telemetry sample that is not a JSON object");
    return SampleFromJson(j, "sample", problems);
  } catch (const std::exception& e) {
    return EnvError(std::string("an unreadable telemetry sample: ") + e.what());
  }
}

Result<std::unique_ptr<GpuSampler>> ScriptedSamplerFromJson(std::string_view script_json) {
  Json script = ParseJsonWithinDepth<Json>(script_json.empty() ? std::string_view("{}") : script_json);
  if (script.is_discarded() || !script.is_object())
    return UserError("the fake backend's script is not a JSON object");
  std::string failure;
  if (auto fail = script.find("fail"); fail != script.end() && fail->is_object())
    failure = ReadString(*fail, "telemetry");
  std::vector<TelemetrySample> samples;
  auto list = script.find("telemetry");
  if (list == script.end()) {
    TelemetrySample ordinary;
    ordinary.source = "fake";
    ordinary.sm_clock_mhz = 1500;
    ordinary.temperature_c = 50;
    ordinary.power_watts = 100;
    ordinary.ecc_uncorrected = 0;
    samples.push_back(ordinary);
  } else if (!list->is_array()) {
    return UserError("the fake backend's script: telemetry is not a list of readings");
  }
  std::vector<std::string> problems;
  for (const Json& j : list != script.end() ? *list : Json::array()) {
    if (!j.is_object()) return UserError("the fake backend's script: a telemetry reading is not an object");
    samples.push_back(SampleFromJson(j, "telemetry[" + std::to_string(samples.size()) + "]", problems));
    samples.back().source = "fake";
  }
  if (!problems.empty()) return UserError("the fake backend's script: " + problems.front());
  return std::unique_ptr<GpuSampler>(std::make_unique<ScriptedGpuSampler>(std::move(samples), failure));
}

std::string AddTelemetryToNvmlJson(std::string_view nvml_json, const std::vector<TelemetrySample>& samples) {
  Json doc = ParseJsonWithinDepth<Json>(nvml_json);
  if (doc.is_discarded() || !doc.is_object()) doc = Json::object();
  Json list = Json::array();
  for (const auto& s : samples) list.push_back(SampleToJson(s));
  doc["telemetry"] = std::move(list);
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string RecordedTelemetryToJson(const std::vector<TelemetrySample>& samples) {
  return AddTelemetryToNvmlJson("{}", samples);
}

}  // namespace gpudoctor
