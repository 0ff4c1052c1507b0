// verify's gates as a worker job (see gate_protocol.h): the request in and out of the worker layer's form,
// the gate result as a result line, and the reading of a worker that crashed, hung or answered nonsense.
#include "gates/gate_protocol.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/strings.h"
#include "gates/gate_context.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

using nlohmann::json;

template <typename T>
json OptJson(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json LibraryJson(const BackendLibrary& l) {
  return {{"role", l.role},       {"name", l.name},     {"status", LoadStatusName(l.status)},
          {"path", l.path},       {"origin", l.origin}, {"where", l.where},
          {"version", l.version}, {"detail", l.detail}};
}

json DeviceJson(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_address", d.pci_address},
          {"arch", d.arch},
          {"memory_total_bytes", d.memory_total_bytes},
          {"compute_units", OptJson(d.compute_units)}};
}

}  // namespace

WorkerRequest ToWorkerRequest(const GateRequest& r) {
  WorkerRequest w;
  w.job = kWorkerVerifyGate;
  w.backend = r.backend;
  w.device = r.options.device;
  for (GateId g : r.gates) w.items.emplace_back(SpecOf(g).name);
  w.limit = r.gate_timeout;
  w.fake_script_path = r.fake_script_path;
  w.arch_by_pci = r.arch_by_pci;
  w.settings["level"] = ToString(r.options.level);
  if (r.options.memtest_fraction > 0)
    w.settings["memtest-fraction"] = std::to_string(r.options.memtest_fraction);
  if (r.options.sustain_seconds > 0)
    w.settings["sustain-seconds"] = std::to_string(r.options.sustain_seconds);
  if (r.options.inject != InjectedFault::kNone) w.settings["inject"] = ToString(r.options.inject);
  return w;
}

Result<GateRequest> GateRequestFromWorker(const WorkerRequest& w) {
  GateRequest r;
  r.gates.clear();
  for (const auto& name : w.items) {
    auto gate = GateIdFromName(name);
    if (!gate) return UserError("worker: unknown gate " + name);
    r.gates.push_back(*gate);
  }
  if (r.gates.empty()) return UserError("worker: no gate named");
  r.backend = w.backend;
  r.options.device = w.device;
  r.gate_timeout = w.limit;
  r.fake_script_path = w.fake_script_path;
  r.arch_by_pci = w.arch_by_pci;
  auto level = VerifyLevelFromString(SettingText(w, "level", "quick"));
  if (!level) return UserError("worker: unknown level " + SettingText(w, "level", ""));
  r.options.level = *level;
  auto fraction = SettingNumber(w, "memtest-fraction", 0);
  if (!fraction) return fraction.error();
  r.options.memtest_fraction = *fraction;
  auto sustain = SettingNumber(w, "sustain-seconds", 0);
  if (!sustain) return sustain.error();
  r.options.sustain_seconds = *sustain;
  auto fault = InjectedFaultFromString(SettingText(w, "inject", "none"));
  if (!fault) return UserError("worker: unknown fault " + SettingText(w, "inject", ""));
  r.options.inject = *fault;
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
  json j = {{"type", "result"},
            {"id", r.gate},
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
    for (const auto& l : j.value("libraries", json::array())) {
      auto status = LoadStatusFromName(l.value("status", ""));
      if (!status) return InternalError("unknown library status");
      r.libraries.push_back({l.value("role", ""), l.value("name", ""), *status, l.value("path", ""),
                             l.value("origin", ""), l.value("where", ""), l.value("version", ""),
                             l.value("detail", "")});
    }
    for (const auto& d : j.value("devices", json::array())) {
      DeviceInfo info;
      info.index = WholeNumberOr(d, "index", 0);
      info.name = d.value("name", "");
      info.pci_address = d.value("pci_address", "");
      info.arch = d.value("arch", "");
      info.memory_total_bytes = WholeNumberOr(d, "memory_total_bytes", uint64_t{0});
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

std::chrono::seconds TimeoutOf(const GateRequest& request, GateId gate) {
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

std::vector<GateResult> InterpretWorker(const std::vector<GateId>& gates, const ProcessResult& p,
                                        long timeout_seconds) {
  std::vector<std::string> names;
  for (GateId g : gates) names.emplace_back(SpecOf(g).name);
  WorkerOutcome outcome = InterpretWorkerProcess(names, p, timeout_seconds, "gate ");
  std::vector<GateResult> out;
  double answered_ms = 0;
  for (const auto& line : outcome.results) {
    auto parsed = GateResultFromLine(line.json);
    if (!parsed) break;  // a line of ours cut short: the gate counts as unanswered
    bool passed = parsed->status == GateStatus::kPass;
    answered_ms += parsed->elapsed_ms;
    out.push_back(std::move(*parsed));
    if (!passed) return out;
  }
  if (out.size() == gates.size()) {
    // Every answer stands; a worker that died afterwards (in the runtime's teardown, say) gets a note.
    if (outcome.ended_badly)
      out.back().findings.push_back(std::string("the worker ") + (p.timed_out ? "hung" : "crashed") +
                                    " after reporting this gate (while shutting the GPU runtime down)");
    return out;
  }
  GateId gate = gates[out.size()];
  GateResult r;
  if (outcome.setup_error) {
    r = FailedGate(SpecOf(gate).name, *outcome.setup_error);
  } else if (outcome.hung) {
    r = TimedOutGate(gate, outcome.limit_s, outcome.stopped_itself);
  } else {
    r.gate = SpecOf(gate).name;
    r.status = GateStatus::kFail;
    r.summary = outcome.why;
    if (p.term_signal)
      r.hint = "the GPU runtime crashed; check `dmesg` for driver errors and update the driver";
  }
  // The watchdog's line is the gate's own time; otherwise the process's time less the answered gates'.
  if (!outcome.stopped_itself) {
    r.elapsed_ms = std::max(0.0, static_cast<double>(p.elapsed.count()) - answered_ms);
    if (!outcome.last_log_line.empty())
      r.details.push_back("worker's last log line: " + outcome.last_log_line);
  }
  out.push_back(std::move(r));
  return out;
}

}  // namespace gpudoctor
