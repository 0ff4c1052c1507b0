// bench as a worker job (see bench_protocol.h): the request in and out of the worker layer's form, the
// result and telemetry lines, and the reading of a worker that crashed, hung or stopped early.
#include "bench/bench_protocol.h"
#include "core/json_depth.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "bench/bench_json.h"
#include "core/json_reader.h"
#include "core/strings.h"
#include "telemetry/telemetry_json.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

using nlohmann::json;

// The worker's result line: the document's entry (bench_json.h) plus how the run went.
Result<BenchResult> ResultFromObject(const json& j) {
  std::string error;
  JsonReader line(j, "result", &error);
  BenchResult r = BenchResultFromJson(line);
  std::string run = "measured";
  line.String("run", run);
  line.Number("elapsed_ms", r.elapsed_ms);
  if (!error.empty()) return InternalError("malformed benchmark result: " + error);
  r.run = BenchRunFromString(run).value_or(BenchRun::kError);
  return r;
}

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

WorkerRequest ToWorkerRequest(const BenchWorkerRequest& r) {
  std::map<std::string, std::string> settings = {{"group", r.group}, {"level", ToString(r.options.level)}};
  if (r.options.plant_wrong) settings["inject"] = "wrong-result";
  return MakeWorkerRequest(kWorkerBench, r.target, r.ids, std::move(settings));
}

Result<BenchWorkerRequest> BenchRequestFromWorker(const WorkerRequest& w) {
  BenchWorkerRequest r;
  r.group = SettingText(w, "group", "");
  if (r.group.empty()) return UserError("bench worker: no group named");
  r.ids = w.items;
  if (r.ids.empty()) return UserError("bench worker: no benchmarks named (--items)");
  r.target = TargetOf(w);
  auto level = BenchLevelFromString(SettingText(w, "level", "quick"));
  if (!level) return UserError("bench worker: unknown level " + SettingText(w, "level", ""));
  r.options.level = *level;
  std::string inject = SettingText(w, "inject", "none");
  if (inject != "none" && inject != "wrong-result") return UserError("bench worker: unknown fault " + inject);
  r.options.plant_wrong = inject == "wrong-result";
  return r;
}

std::string BenchResultLine(const BenchResult& r) {
  json j = BenchResultToJson(r);
  j["type"] = "result";  // "id" is the entry's own
  j["run"] = ToString(r.run);
  j["elapsed_ms"] = r.elapsed_ms;
  return Dump(j);
}

std::string BenchTelemetryLine(const BenchTelemetry& t) {
  return Dump({{"type", "telemetry"},
               {"id", t.id},
               {"worker_pid", t.worker_pid},
               {"reading", ParseJsonWithinDepth<json>(SampleToJsonText(t.reading))}});
}

Result<BenchResult> BenchResultFromLine(const std::string& line) {
  json j = ParseJsonWithinDepth<json>(line);
  if (j.is_discarded() || !j.is_object()) return InternalError("not a JSON object");
  try {
    return ResultFromObject(j);
  } catch (const json::exception& e) {
    return InternalError(std::string("malformed benchmark result: ") + e.what());
  }
}

Result<BenchTelemetry> BenchTelemetryFromLine(const std::string& line) {
  json j = ParseJsonWithinDepth<json>(line);
  if (j.is_discarded() || !j.is_object()) return InternalError("not a JSON object");
  try {
    std::vector<std::string> problems;
    auto reading = ParseSampleJson(j.at("reading").dump(), problems);
    if (!reading) return InternalError("malformed telemetry: " + reading.error().message);
    if (!problems.empty()) return InternalError("malformed telemetry: " + problems.front());
    return BenchTelemetry{j.at("id").get<std::string>(), std::move(reading).value(),
                          WholeNumberOr(j, "worker_pid", 0u)};
  } catch (const json::exception& e) {
    return InternalError(std::string("malformed telemetry: ") + e.what());
  }
}

BenchStepOutcome InterpretBenchWorker(const BenchWorkerRequest& request, const ProcessResult& process,
                                      long timeout_seconds, const std::vector<BenchSpec>& specs) {
  BenchStepOutcome out;
  WorkerOutcome outcome = InterpretWorkerProcess(request.ids, process, timeout_seconds);
  for (const auto& line : outcome.telemetry)
    if (auto t = BenchTelemetryFromLine(line.json)) out.telemetry.push_back(*t);
  auto spec_of = [&](const std::string& id) {
    for (const auto& s : specs)
      if (s.id == id) return s;
    return BenchSpec{id, request.group, id, "", "", "", true};
  };
  // The answers, in the request's order; a line of ours cut short by a crash counts as no answer.
  size_t next = 0;
  for (; next < outcome.results.size(); ++next) {
    auto r = BenchResultFromLine(outcome.results[next].json);
    if (!r) break;
    out.results.push_back(*r);
  }
  if (next == request.ids.size()) return out;
  // The worker ended before answering `id`: it is the one that failed, unless the worker never got that far
  // and said why (a setup error): then every benchmark left carries that error.
  const std::string& id = request.ids[next];
  if (outcome.setup_error && !outcome.stopped_itself) {
    for (size_t i = next; i < request.ids.size(); ++i) {
      BenchResult r;
      r.spec = spec_of(request.ids[i]);
      r.run = BenchRun::kError;
      r.note = outcome.setup_error->message +
               (outcome.setup_error->hint.empty() ? "" : " (" + outcome.setup_error->hint + ")");
      out.results.push_back(r);
    }
    return out;
  }
  BenchResult failed;
  failed.spec = spec_of(id);
  failed.run = BenchRun::kError;
  failed.note = outcome.stopped_at == id ? outcome.why : "worker's result for " + id + " was cut short";
  failed.note += outcome.hung ? "; the GPU or its driver hung: check `dmesg` for driver errors (Xid / amdgpu)"
                              : "; the GPU runtime crashed: check `dmesg` for driver errors";
  out.results.push_back(failed);
  for (size_t i = next + 1; i < request.ids.size(); ++i) out.rerun.push_back(request.ids[i]);
  return out;
}

}  // namespace gpudoctor
