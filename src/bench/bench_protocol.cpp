// The bench worker protocol (see bench_protocol.h): arguments out and back, the JSON lines, and the reading
// of a worker that crashed, hung or stopped early.
#include "bench/bench_protocol.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "gates/worker_protocol.h"
#include "gates/worker_watchdog.h"

namespace gpudoctor {
namespace {

using nlohmann::json;

json Number(std::optional<double> v) {
  return v && std::isfinite(*v) ? json(*v) : json(nullptr);
}

template <typename T>
json Opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

template <typename T>
std::optional<T> ReadOpt(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<T>();
}

json EntryObject(const BenchResult& r) {
  json points = json::array();
  for (const auto& p : r.points) points.push_back({{"x", p.x}, {"value", Number(p.value)}});
  return {{"id", r.spec.id},
          {"group", r.spec.group},
          {"title", r.spec.title},
          {"unit", r.spec.unit},
          {"higher_is_better", r.spec.higher_is_better},
          {"x_label", r.spec.x_label},
          {"x_unit", r.spec.x_unit},
          {"points", points},
          {"best", Number(r.best)},
          {"peak", Number(r.peak)},
          {"percent_of_peak", Number(r.percent_of_peak)},
          {"verdict", ToString(r.verdict)},
          {"check", CheckText(r)},
          {"note", r.note}};
}

json TelemetryObject(const Telemetry& t) {
  return {{"sm_clock_mhz", Opt(t.sm_clock_mhz)},
          {"sm_clock_max_mhz", Opt(t.sm_clock_max_mhz)},
          {"memory_clock_mhz", Opt(t.memory_clock_mhz)},
          {"temperature_c", Opt(t.temperature_c)},
          {"power_mw", Opt(t.power_mw)},
          {"power_limit_mw", Opt(t.power_limit_mw)},
          {"power_default_limit_mw", Opt(t.power_default_limit_mw)},
          {"throttle_reasons", t.throttle_reasons},
          {"ecc_corrected", Opt(t.ecc_corrected)},
          {"ecc_uncorrected", Opt(t.ecc_uncorrected)},
          {"pcie_gen", Opt(t.pcie_gen)},
          {"pcie_width", Opt(t.pcie_width)},
          {"pcie_gen_max", Opt(t.pcie_gen_max)},
          {"pcie_width_max", Opt(t.pcie_width_max)},
          {"compute_pids", Opt(t.compute_pids)}};
}

Telemetry TelemetryFromObject(const json& j) {
  Telemetry t;
  t.sm_clock_mhz = ReadOpt<uint32_t>(j, "sm_clock_mhz");
  t.sm_clock_max_mhz = ReadOpt<uint32_t>(j, "sm_clock_max_mhz");
  t.memory_clock_mhz = ReadOpt<uint32_t>(j, "memory_clock_mhz");
  t.temperature_c = ReadOpt<uint32_t>(j, "temperature_c");
  t.power_mw = ReadOpt<uint32_t>(j, "power_mw");
  t.power_limit_mw = ReadOpt<uint32_t>(j, "power_limit_mw");
  t.power_default_limit_mw = ReadOpt<uint32_t>(j, "power_default_limit_mw");
  if (j.contains("throttle_reasons") && j["throttle_reasons"].is_array())
    t.throttle_reasons = j["throttle_reasons"].get<std::vector<std::string>>();
  t.ecc_corrected = ReadOpt<uint64_t>(j, "ecc_corrected");
  t.ecc_uncorrected = ReadOpt<uint64_t>(j, "ecc_uncorrected");
  t.pcie_gen = ReadOpt<uint32_t>(j, "pcie_gen");
  t.pcie_width = ReadOpt<uint32_t>(j, "pcie_width");
  t.pcie_gen_max = ReadOpt<uint32_t>(j, "pcie_gen_max");
  t.pcie_width_max = ReadOpt<uint32_t>(j, "pcie_width_max");
  t.compute_pids = ReadOpt<std::vector<uint32_t>>(j, "compute_pids");
  return t;
}

BenchResult ResultFromObject(const json& j) {
  BenchResult r;
  r.spec.id = j.at("id").get<std::string>();
  r.spec.group = j.value("group", "");
  r.spec.title = j.value("title", "");
  r.spec.unit = j.value("unit", "");
  r.spec.higher_is_better = j.value("higher_is_better", true);
  r.spec.x_label = j.value("x_label", "");
  r.spec.x_unit = j.value("x_unit", "");
  for (const auto& p : j.value("points", json::array()))
    r.points.push_back({p.value("x", 0.0), p.contains("value") && p["value"].is_number()
                                               ? p["value"].get<double>()
                                               : std::nan("")});
  r.best = ReadOpt<double>(j, "best");
  r.note = j.value("note", "");
  std::string check = j.value("check", "not run");
  if (check == "passed") {
    r.check = BenchCheck::kPassed;
  } else if (StartsWith(check, "failed")) {
    r.check = BenchCheck::kFailed;
    r.check_detail = check.size() > 8 ? check.substr(8) : "";
  }
  r.run = BenchRunFromString(j.value("run", "measured")).value_or(BenchRun::kError);
  r.elapsed_ms = j.value("elapsed_ms", 0.0);
  return r;
}

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string HowItEnded(const ProcessResult& p, long timeout_seconds, const std::string& id) {
  if (p.timed_out)
    return "timed out after " + std::to_string(timeout_seconds) + " s during " + id +
           " (the worker was killed)";
  if (p.term_signal) {
    std::string sig = SignalName(*p.term_signal);
    return "worker killed by signal " + std::to_string(*p.term_signal) +
           (sig.empty() ? "" : " (" + sig + ")") + " during " + id;
  }
  int code = p.exit_code.value_or(-1);
  // Windows reports a crash as an NTSTATUS exit code (0xC0000005 access violation).
  if (code != -1 && static_cast<unsigned>(code) >= 0xC0000000u)
    return "worker crashed with exception 0x" + Hex(static_cast<unsigned>(code), 8) + " during " + id;
  return "worker exited with code " + std::to_string(code) + " during " + id + " without a result";
}

}  // namespace

std::vector<std::string> BenchWorkerArguments(const BenchWorkerRequest& r) {
  std::string ids;
  for (const auto& id : r.ids) ids += (ids.empty() ? "" : ",") + id;
  std::vector<std::string> out = {kWorkerModeArg,
                                  kWorkerBench,
                                  r.group,
                                  "--ids",
                                  ids,
                                  "--backend",
                                  ToString(r.backend),
                                  "--device",
                                  std::to_string(r.options.device_index),
                                  "--level",
                                  ToString(r.options.level)};
  if (r.options.plant_wrong) out.insert(out.end(), {"--inject", "wrong-result"});
  if (!r.fake_script_path.empty()) out.insert(out.end(), {"--fake-script", r.fake_script_path});
  if (r.limit) out.insert(out.end(), {"--limit", std::to_string(r.limit->count())});
  for (const auto& [pci, arch] : r.arch_by_pci) out.insert(out.end(), {"--arch-hint", pci + "=" + arch});
  return out;
}

Result<BenchWorkerRequest> ParseBenchWorkerArguments(const std::vector<std::string>& args) {
  BenchWorkerRequest r;
  if (args.empty()) return UserError("bench worker: no group named");
  r.group = args[0];
  for (size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return UserError("bench worker: " + args[i] + " needs a value");
    const std::string& key = args[i];
    const std::string& value = args[i + 1];
    if (key == "--ids") {
      r.ids.clear();
      for (auto id : Split(value, ',')) {
        if (Trim(id).empty()) return UserError("bench worker: empty benchmark id in --ids " + value);
        r.ids.emplace_back(Trim(id));
      }
    } else if (key == "--backend") {
      auto k = BackendKindFromString(value);
      if (!k) return UserError("bench worker: unknown backend " + value);
      r.backend = *k;
    } else if (key == "--device") {
      auto v = ParseI64(value);
      if (!v || *v < 0) return UserError("bench worker: bad --device " + value);
      r.options.device_index = static_cast<int>(*v);
    } else if (key == "--level") {
      auto l = BenchLevelFromString(value);
      if (!l) return UserError("bench worker: unknown level " + value);
      r.options.level = *l;
    } else if (key == "--inject") {
      if (value != "wrong-result") return UserError("bench worker: unknown fault " + value);
      r.options.plant_wrong = true;
    } else if (key == "--fake-script") {
      r.fake_script_path = value;
    } else if (key == "--limit") {
      auto v = ParseU64(value);
      if (!v || *v == 0) return UserError("bench worker: bad --limit " + value);
      r.limit = std::chrono::seconds(*v);
    } else if (key == "--arch-hint") {
      size_t eq = value.find('=');
      if (eq == std::string::npos) return UserError("bench worker: bad --arch-hint " + value);
      r.arch_by_pci[value.substr(0, eq)] = value.substr(eq + 1);
    } else {
      return UserError("bench worker: unknown option " + key);
    }
  }
  if (r.ids.empty()) return UserError("bench worker: no benchmarks named (--ids)");
  return r;
}

std::string BenchEntryJson(const BenchResult& r) {
  return Dump(EntryObject(r));
}

std::string BenchResultLine(const BenchResult& r) {
  json j = EntryObject(r);
  j["type"] = "result";
  j["run"] = ToString(r.run);
  j["elapsed_ms"] = r.elapsed_ms;
  return Dump(j);
}

std::string BenchBeginLine(const std::string& id) {
  return Dump({{"type", "begin"}, {"id", id}});
}

std::string TelemetryJson(const Telemetry& t) {
  return Dump(TelemetryObject(t));
}

Telemetry TelemetryFromJson(const std::string& text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Telemetry{};
  try {
    return TelemetryFromObject(j);
  } catch (const json::exception&) {
    return Telemetry{};
  }
}

std::string BenchTelemetryLine(const BenchTelemetry& t) {
  return Dump({{"type", "telemetry"},
               {"id", t.id},
               {"worker_pid", t.worker_pid},
               {"reading", TelemetryObject(t.reading)}});
}

std::string BenchTimeoutLine(const std::string& id, long limit_s) {
  return Dump({{"type", "timeout"}, {"id", id}, {"limit_s", limit_s}});
}

std::string BenchErrorLine(const Error& error) {
  return Dump({{"type", "error"}, {"message", error.message}, {"hint", error.hint}});
}

BenchWorkerOutput ParseBenchWorkerOutput(const std::string& stdout_text) {
  BenchWorkerOutput out;
  for (auto line : SplitLines(stdout_text)) {
    auto t = Trim(line);
    if (t.empty() || t.front() != '{') continue;
    json j = json::parse(t, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) continue;
    try {
      std::string type = j["type"].get<std::string>();
      if (type == "begin") {
        out.begun.push_back(j.at("id").get<std::string>());
      } else if (type == "result") {
        out.results.push_back(ResultFromObject(j));
      } else if (type == "telemetry") {
        out.telemetry.push_back(
            {j.at("id").get<std::string>(), TelemetryFromObject(j.at("reading")), j.value("worker_pid", 0u)});
      } else if (type == "timeout") {
        out.timeout = {j.at("id").get<std::string>(), j.value("limit_s", 0L)};
      } else if (type == "error") {
        out.error = EnvError(j.value("message", ""), j.value("hint", ""));
      }
    } catch (const json::exception&) {
      continue;  // a line of ours cut short by a crash: ignored like any other noise
    }
  }
  return out;
}

BenchStepOutcome InterpretBenchWorker(const BenchWorkerRequest& request, const ProcessResult& process,
                                      long timeout_seconds, const std::vector<BenchSpec>& specs) {
  BenchStepOutcome out;
  BenchWorkerOutput parsed = ParseBenchWorkerOutput(process.stdout_text);
  out.telemetry = parsed.telemetry;
  auto spec_of = [&](const std::string& id) {
    for (const auto& s : specs)
      if (s.id == id) return s;
    return BenchSpec{id, request.group, id, "", "", "", true};
  };
  // The answers, in the request's order, each once; stop at the first unanswered benchmark.
  size_t next = 0;
  for (; next < request.ids.size(); ++next) {
    const std::string& id = request.ids[next];
    auto it = std::find_if(parsed.results.begin(), parsed.results.end(),
                           [&](const BenchResult& r) { return r.spec.id == id; });
    if (it == parsed.results.end()) break;
    out.results.push_back(*it);
  }
  if (next == request.ids.size()) return out;
  // The worker ended before answering `id`: it is the one that failed, unless the worker never got that far
  // and said why (a setup error): then every benchmark left carries that error.
  const std::string& id = request.ids[next];
  std::string why;
  if (parsed.timeout && parsed.timeout->first == id) {
    why = "timed out after " + std::to_string(parsed.timeout->second) + " s during " + id +
          " (the worker stopped itself)";
  } else if (parsed.error) {
    for (size_t i = next; i < request.ids.size(); ++i) {
      BenchResult r;
      r.spec = spec_of(request.ids[i]);
      r.run = BenchRun::kError;
      r.note = parsed.error->message + (parsed.error->hint.empty() ? "" : " (" + parsed.error->hint + ")");
      out.results.push_back(r);
    }
    return out;
  } else {
    why = HowItEnded(process, timeout_seconds, id);
  }
  BenchResult failed;
  failed.spec = spec_of(id);
  failed.run = BenchRun::kError;
  failed.note = why;
  bool hung = process.timed_out || (parsed.timeout && parsed.timeout->first == id) ||
              process.exit_code == kWatchdogExitCode;
  failed.note += hung ? "; the GPU or its driver hung: check `dmesg` for driver errors (Xid / amdgpu)"
                      : "; the GPU runtime crashed: check `dmesg` for driver errors";
  out.results.push_back(failed);
  for (size_t i = next + 1; i < request.ids.size(); ++i) out.rerun.push_back(request.ids[i]);
  return out;
}

}  // namespace gpudoctor
