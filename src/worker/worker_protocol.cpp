// The worker protocol's lines and the reading of a finished worker (see worker_protocol.h).
#include "worker/worker_protocol.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/strings.h"
#include "worker/worker_watchdog.h"

namespace gpudoctor {
namespace {

using nlohmann::json;

std::string Dump(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string LastLine(const std::string& text) {
  auto lines = SplitLines(text);
  for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
    auto t = Trim(*it);
    if (!t.empty()) return std::string(t.substr(0, 300));
  }
  return {};
}

// How the process ended while `what` ran, when it did not say so itself.
std::string HowItEnded(const ProcessResult& p, long timeout_seconds, const std::string& what) {
  const ChildEnd end = ReadChildEnd(p, std::chrono::seconds(timeout_seconds));
  switch (end.kind) {
    case ChildEndKind::kTimedOut:
      return end.how + " during " + what + " (the worker was killed)";
    case ChildEndKind::kCrashed:
      return "worker " + end.how + " during " + what;
    case ChildEndKind::kFailed:
    case ChildEndKind::kExited:
      break;
  }
  return "worker exited with code " + std::to_string(p.exit_code.value_or(-1)) + " during " + what +
         " without a result";
}

}  // namespace

std::string WorkerBeginLine(const std::string& id) {
  return ChildLineText("begin", id);
}

std::string WorkerTimeoutLine(const std::string& id, long limit_s) {
  return Dump({{"type", "timeout"}, {"id", id}, {"limit_s", limit_s}});
}

std::string WorkerErrorLine(const Error& error) {
  return Dump({{"type", "error"}, {"message", error.message}, {"hint", error.hint}});
}

std::vector<WorkerLine> ReadWorkerLines(const std::string& stdout_text) {
  return ReadChildLines(stdout_text);
}

WorkerOutcome InterpretWorkerProcess(const std::vector<std::string>& items, const ProcessResult& p,
                                     long timeout_seconds, const std::string& item_prefix) {
  WorkerOutcome out;
  std::optional<std::pair<std::string, long>> timeout;  // the watchdog's line
  std::vector<WorkerLine> results;
  for (auto& line : ReadWorkerLines(p.stdout_text)) {
    if (line.type == "result") {
      results.push_back(std::move(line));
    } else if (line.type == "telemetry") {
      out.telemetry.push_back(std::move(line));
    } else if (line.type == "timeout") {
      json j = ParseJsonWithinDepth<json>(line.json);
      long limit = j.is_object() && j.contains("limit_s") && j["limit_s"].is_number_integer()
                       ? j["limit_s"].get<long>()
                       : 0;
      timeout = {line.id, limit};
    } else if (line.type == "error") {
      json j = ParseJsonWithinDepth<json>(line.json);
      auto text = [&](const char* key) {
        return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
      };
      out.setup_error = EnvError(text("message"), text("hint"));
    }
  }
  out.ended_badly = p.timed_out || p.term_signal || (p.exit_code && *p.exit_code != 0);
  out.last_log_line = LastLine(p.stderr_text);
  // The answers, in the request's order, each once; stop at the first unanswered item.
  size_t next = 0;
  for (; next < items.size(); ++next) {
    auto it = std::find_if(results.begin(), results.end(),
                           [&](const WorkerLine& l) { return l.id == items[next]; });
    if (it == results.end()) break;
    out.results.push_back(*it);
  }
  if (next == items.size()) return out;
  const std::string& id = items[next];
  out.stopped_at = id;
  if (timeout && timeout->first == id) {
    out.hung = out.stopped_itself = true;
    out.limit_s = timeout->second;
    out.why = "timed out after " + std::to_string(timeout->second) + " s during " + item_prefix + id +
              " (the worker stopped itself)";
  } else {
    out.hung = p.timed_out || p.exit_code == kWatchdogExitCode;
    out.limit_s = timeout_seconds;
    out.why = HowItEnded(p, timeout_seconds, item_prefix + id);
  }
  return out;
}

Result<ProcessResult> RunWorkerProcess(const std::string& executable, const WorkerRequest& request,
                                       std::chrono::seconds timeout) {
  ProcessRequest p;
  p.argv.push_back(executable);
  for (auto& a : EncodeWorkerRequest(request)) p.argv.push_back(std::move(a));
  p.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(timeout);
  return RunProcess(p);
}

}  // namespace gpudoctor
