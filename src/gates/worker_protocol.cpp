// The worker protocol (see worker_protocol.h): arguments out and back, the gate result as JSON, and the
// reading of a worker that crashed, hung or answered nonsense.
#include "gates/worker_protocol.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace gpudoctor {
namespace {

using nlohmann::json;

template <typename T>
json OptJson(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json LibraryJson(const BackendLibrary& l) {
  return {{"role", l.role},     {"name", l.name},   {"status", l.status},   {"path", l.path},
          {"origin", l.origin}, {"where", l.where}, {"version", l.version}, {"detail", l.detail}};
}

json DeviceJson(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_address", d.pci_address},
          {"arch", d.arch},
          {"memory_total_bytes", d.memory_total_bytes},
          {"compute_units", OptJson(d.compute_units)}};
}

std::string LastLine(const std::string& text) {
  auto lines = SplitLines(text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    auto t = Trim(*it);
    if (!t.empty()) return std::string(t.substr(0, 300));
  }
  return {};
}

}  // namespace

std::vector<std::string> WorkerArguments(const WorkerRequest& r) {
  std::string names;
  for (GateId g : r.gates) names += (names.empty() ? "" : ",") + std::string(SpecOf(g).name);
  std::vector<std::string> out = {kWorkerModeArg,
                                  kWorkerVerifyGate,
                                  names,
                                  "--backend",
                                  ToString(r.backend),
                                  "--device",
                                  std::to_string(r.options.device_index),
                                  "--level",
                                  ToString(r.options.level)};
  if (r.gate_timeout) out.insert(out.end(), {"--gate-timeout", std::to_string(r.gate_timeout->count())});
  if (r.options.memtest_fraction > 0)
    out.insert(out.end(), {"--memtest-fraction", std::to_string(r.options.memtest_fraction)});
  if (r.options.sustain_seconds > 0)
    out.insert(out.end(), {"--sustain-seconds", std::to_string(r.options.sustain_seconds)});
  if (r.options.inject != InjectedFault::kNone)
    out.insert(out.end(), {"--inject", ToString(r.options.inject)});
  if (!r.fake_script_path.empty()) out.insert(out.end(), {"--fake-script", r.fake_script_path});
  for (const auto& [pci, arch] : r.arch_by_pci) out.insert(out.end(), {"--arch-hint", pci + "=" + arch});
  return out;
}

Result<WorkerRequest> ParseWorkerArguments(const std::vector<std::string>& args) {
  WorkerRequest r;
  if (args.empty()) return UserError("worker: no gate named");
  r.gates.clear();
  for (const auto& name : Split(args[0], ',')) {
    auto gate = GateIdFromName(name);
    if (!gate) return UserError("worker: unknown gate " + std::string(name));
    r.gates.push_back(*gate);
  }
  if (r.gates.empty()) return UserError("worker: no gate named");
  for (size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return UserError("worker: " + args[i] + " needs a value");
    const std::string& key = args[i];
    const std::string& value = args[i + 1];
    if (key == "--backend") {
      auto k = BackendKindFromString(value);
      if (!k) return UserError("worker: unknown backend " + value);
      r.backend = *k;
    } else if (key == "--device") {
      auto v = ParseI64(value);
      if (!v || *v < 0) return UserError("worker: bad --device " + value);
      r.options.device_index = static_cast<int>(*v);
    } else if (key == "--level") {
      auto l = VerifyLevelFromString(value);
      if (!l) return UserError("worker: unknown level " + value);
      r.options.level = *l;
    } else if (key == "--memtest-fraction" || key == "--sustain-seconds") {
      auto d = ParseDouble(value);
      if (!d || *d < 0) return UserError("worker: bad " + key + " " + value);
      (key == "--memtest-fraction" ? r.options.memtest_fraction : r.options.sustain_seconds) = *d;
    } else if (key == "--inject") {
      auto f = InjectedFaultFromString(value);
      if (!f) return UserError("worker: unknown fault " + value);
      r.options.inject = *f;
    } else if (key == "--gate-timeout") {
      auto t = ParseU64(value);
      if (!t || *t == 0 || *t > 86400) return UserError("worker: bad --gate-timeout " + value);
      r.gate_timeout = std::chrono::seconds(static_cast<long>(*t));
    } else if (key == "--fake-script") {
      r.fake_script_path = value;
    } else if (key == "--arch-hint") {
      size_t eq = value.find('=');
      if (eq == std::string::npos) return UserError("worker: bad --arch-hint " + value);
      r.arch_by_pci[value.substr(0, eq)] = value.substr(eq + 1);
    } else {
      return UserError("worker: unknown option " + key);
    }
  }
  return r;
}

std::string GateResultToJson(const GateResult& r) {
  json figures = json::array();
  for (const auto& f : r.figures)
    figures.push_back({{"label", f.label}, {"value", f.value}, {"unit", f.unit}});
  json libraries = json::array();
  for (const auto& l : r.libraries) libraries.push_back(LibraryJson(l));
  json devices = json::array();
  for (const auto& d : r.devices) devices.push_back(DeviceJson(d));
  json j = {{"protocol", kWorkerProtocolVersion},
            {"gate", r.gate},
            {"status", ToString(r.status)},
            {"summary", r.summary},
            {"hint", r.hint},
            {"figures", figures},
            {"details", r.details},
            {"findings", r.findings},
            {"elapsed_ms", r.elapsed_ms},
            {"runtime_version", r.runtime_version},
            {"libraries", libraries},
            {"devices", devices}};
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

Result<GateResult> GateResultFromLine(std::string_view line) {
  json j = json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return InternalError("not a JSON object");
  try {
    GateResult r;
    r.gate = j.at("gate").get<std::string>();
    auto st = GateStatusFromString(j.at("status").get<std::string>());
    if (!st) return InternalError("unknown status");
    r.status = *st;
    r.summary = j.value("summary", "");
    r.hint = j.value("hint", "");
    for (const auto& f : j.value("figures", json::array()))
      r.figures.push_back({f.value("label", ""), f.value("value", 0.0), f.value("unit", "")});
    r.details = j.value("details", std::vector<std::string>{});
    r.findings = j.value("findings", std::vector<std::string>{});
    r.elapsed_ms = j.value("elapsed_ms", 0.0);
    r.runtime_version = j.value("runtime_version", "");
    for (const auto& l : j.value("libraries", json::array()))
      r.libraries.push_back({l.value("role", ""), l.value("name", ""), l.value("status", ""),
                             l.value("path", ""), l.value("origin", ""), l.value("where", ""),
                             l.value("version", ""), l.value("detail", "")});
    for (const auto& d : j.value("devices", json::array())) {
      DeviceInfo info;
      info.index = d.value("index", 0);
      info.name = d.value("name", "");
      info.pci_address = d.value("pci_address", "");
      info.arch = d.value("arch", "");
      info.memory_total_bytes = d.value("memory_total_bytes", uint64_t{0});
      if (d.contains("compute_units") && !d["compute_units"].is_null())
        info.compute_units = d["compute_units"].get<uint32_t>();
      r.devices.push_back(info);
    }
    return r;
  } catch (const json::exception& e) {
    return InternalError(std::string("malformed gate result: ") + e.what());
  }
}

}  // namespace

Result<GateResult> GateResultFromJson(const std::string& text) {
  // The JSON object is the last non-empty line: a vendor library may print to stdout before it.
  auto lines = SplitLines(text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (!Trim(*it).empty()) return GateResultFromLine(Trim(*it));
  return InternalError("not a JSON object");
}

std::chrono::seconds TimeoutOf(const WorkerRequest& request, GateId gate) {
  return request.gate_timeout.value_or(GateTimeout(gate, request.options));
}

GateResult TimedOutGate(GateId gate, long timeout_seconds, bool by_watchdog) {
  const char* name = SpecOf(gate).name;
  GateResult r;
  r.gate = name;
  r.status = GateStatus::kFail;
  r.summary = "timed out after " + std::to_string(timeout_seconds) + " s during gate " + name +
              (by_watchdog ? " (the worker stopped itself)" : " (the worker was killed)");
  r.hint =
      "the GPU or its driver hung; if it persists, check `dmesg` for driver errors (Xid / amdgpu) and "
      "reboot";
  r.elapsed_ms = static_cast<double>(timeout_seconds) * 1000.0;
  return r;
}

std::string SignalName(int signal) {
  switch (signal) {
    case 1:
      return "hangup";
    case 2:
      return "interrupt";
    case 3:
      return "quit";
    case 4:
      return "illegal instruction";
    case 5:
      return "trace trap";
    case 6:
      return "aborted";
    case 7:
      return "bus error";
    case 8:
      return "floating-point exception";
    case 9:
      return "killed";
    case 11:
      return "segmentation fault";
    case 13:
      return "broken pipe";
    case 15:
      return "terminated";
    default:
      return "";
  }
}

std::vector<GateResult> InterpretWorker(const std::vector<GateId>& gates, const ProcessResult& p,
                                        long timeout_seconds) {
  std::vector<GateResult> out;
  // The answers, one JSON line per gate in order; anything else on stdout is a vendor library's chatter.
  for (const auto& line : SplitLines(p.stdout_text)) {
    if (out.size() == gates.size()) break;
    auto t = Trim(line);
    if (t.empty() || t.front() != '{') continue;
    auto parsed = GateResultFromLine(t);
    if (!parsed || parsed->gate != SpecOf(gates[out.size()]).name) continue;
    bool passed = parsed->status == GateStatus::kPass;
    out.push_back(std::move(*parsed));
    if (!passed) return out;
  }
  bool ended_badly = p.timed_out || p.term_signal || (p.exit_code && *p.exit_code != 0);
  if (out.size() == gates.size()) {
    // Every answer stands; a worker that died afterwards (in the runtime's teardown, say) gets a note.
    if (ended_badly)
      out.back().findings.push_back(std::string("the worker ") + (p.timed_out ? "hung" : "crashed") +
                                    " after reporting this gate (while shutting the GPU runtime down)");
    return out;
  }
  GateId gate = gates[out.size()];
  const char* name = SpecOf(gate).name;
  double answered_ms = 0;
  for (const auto& r : out) answered_ms += r.elapsed_ms;
  std::string last_log = LastLine(p.stderr_text);
  GateResult r;
  if (p.timed_out) {
    r = TimedOutGate(gate, timeout_seconds, false);
  } else {
    r.gate = name;
    r.status = GateStatus::kFail;
    if (p.term_signal) {
      std::string sig = SignalName(*p.term_signal);
      r.summary = "worker killed by signal " + std::to_string(*p.term_signal) +
                  (sig.empty() ? "" : " (" + sig + ")") + " during gate " + name;
      r.hint = "the GPU runtime crashed; check `dmesg` for driver errors and update the driver";
    } else {
      int code = p.exit_code.value_or(-1);
      // Windows reports a crash as an NTSTATUS exit code (0xC0000005 access violation).
      if (code != -1 && static_cast<unsigned>(code) >= 0xC0000000u)
        r.summary =
            "worker crashed with exception 0x" + Hex(static_cast<unsigned>(code), 8) + " during gate " + name;
      else
        r.summary =
            "worker exited with code " + std::to_string(code) + " during gate " + name + " without a result";
    }
  }
  r.elapsed_ms = std::max(0.0, static_cast<double>(p.elapsed.count()) - answered_ms);
  if (!last_log.empty()) r.details.push_back("worker's last log line: " + last_log);
  out.push_back(std::move(r));
  return out;
}

}  // namespace gpudoctor
