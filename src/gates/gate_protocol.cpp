// verify's gates as a worker job (see gate_protocol.h): the request in and out of the worker layer's form,
// the gate result as a result line, and the reading of a worker that crashed, hung or answered nonsense.
#include "gates/gate_protocol.h"

#include <algorithm>

#include <nlohmann/json.hpp>
#include "core/json_depth.h"

#include "core/json_reader.h"
#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/gate_json.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {

using nlohmann::json;

WorkerRequest ToWorkerRequest(const GateRequest& r) {
  std::vector<std::string> items;
  for (GateId g : r.gates) items.emplace_back(SpecOf(g).name);
  std::map<std::string, std::string> settings = {{"level", ToString(r.options.level)}};
  if (r.options.memtest_fraction > 0)
    settings["memtest-fraction"] = std::to_string(r.options.memtest_fraction);
  if (r.options.sustain_seconds > 0) settings["sustain-seconds"] = std::to_string(r.options.sustain_seconds);
  if (r.options.inject != InjectedFault::kNone) settings["inject"] = ToString(r.options.inject);
  return MakeWorkerRequest(kWorkerVerifyGate, r.target, std::move(items), std::move(settings));
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
  r.target = TargetOf(w);
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
  json j = GateEntryToJson(r);
  j["type"] = "result";
  j["id"] = r.gate;
  j["elapsed_ms"] = r.elapsed_ms;  // a skipped gate's time too: the parent counts it (InterpretWorker)
  j["runtime_version"] = r.runtime_version;
  json libraries = json::array();
  for (const auto& l : r.libraries) libraries.push_back(LibraryToJson(l));
  j["libraries"] = std::move(libraries);
  json devices = json::array();
  for (const auto& d : r.devices) devices.push_back(DeviceToJson(d));
  j["devices"] = std::move(devices);
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

namespace {

// The line holds the gate as verify's document writes it (gate_json.h), plus what the runtime and devices
// gates found (runtime version, libraries, devices).
Result<GateResult> GateResultFromLine(std::string_view line) {
  json j = ParseJsonWithinDepth<json>(line);
  if (j.is_discarded() || !j.is_object()) return InternalError("not a JSON object");
  std::string error;
  JsonReader r(j, "result", &error);
  GateResult g = ReadGateEntry(r);
  r.String("runtime_version", g.runtime_version);
  r.ForEachObject("libraries", false, [&](const JsonReader& l) { g.libraries.push_back(ReadLibrary(l)); });
  r.ForEachObject("devices", false, [&](const JsonReader& d) { g.devices.push_back(ReadDevice(d)); });
  if (!error.empty()) return InternalError("malformed gate result: " + error);
  return g;
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
  return request.target.limit.value_or(GateTimeout(gate, request.options));
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
