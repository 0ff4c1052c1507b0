// Runs the live Python check (python_live.h) through platform RunProcess and reads its report.
#include "probe/common/python_live.h"

#include <nlohmann/json.hpp>
#include <set>

#include "core/json_depth.h"
#include "core/strings.h"
#include "platform/child_protocol.h"
#include "probe/common/machine_paths.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::json;

constexpr size_t kStderrLines = 8;
constexpr size_t kMaxLineChars = 300;
constexpr size_t kMaxListItems = 64;

std::string Clip(std::string_view s) {
  return ClipLine(s, kMaxLineChars);
}

std::vector<std::string> StderrTail(const std::string& text) {
  return LastLines(text, kStderrLines, kMaxLineChars);
}

std::string Text(const Json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? Clip(it->get<std::string>()) : std::string();
}

std::optional<double> Number(const Json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::vector<std::string> TextList(const Json& j, const char* key) {
  std::vector<std::string> out;
  auto it = j.find(key);
  if (it == j.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string() && out.size() < kMaxListItems) out.push_back(Clip(v.get<std::string>()));
  }
  return out;
}

// Fills `run` from the report line; false when it is not a JSON object.
bool ReadReport(std::string_view line, PythonLiveRun& run) {
  Json j = ParseJsonWithinDepth<Json>(line);
  if (j.is_discarded() || !j.is_object()) return false;
  run.stage = Text(j, "stage");
  run.error = Text(j, "error");
  run.torch_version = Text(j, "torch_version");
  run.torch_file = Text(j, "torch_file");
  run.cuda = Text(j, "cuda");
  run.hip = Text(j, "hip");
  if (auto it = j.find("cuda_available"); it != j.end() && it->is_boolean())
    run.cuda_available = it->get<bool>();
  if (auto n = Number(j, "device_count"); n && *n >= 0 && *n < 65536)
    run.device_count = static_cast<uint32_t>(*n);
  run.device_names = TextList(j, "device_names");
  run.arch_list = TextList(j, "arch_list");
  run.matmul_max_abs_error = Number(j, "matmul_max_abs_error");
  run.matmul_max_abs_value = Number(j, "matmul_max_abs_value");
  return true;
}

}  // namespace

const std::string& LivePythonScript() {
  static const std::string kScript = R"PY(import json, math, sys
out = {"stage": "import"}
def stage(name):
    out["stage"] = name
    sys.stdout.write(json.dumps({"type": "begin", "id": name}) + "\n")
    sys.stdout.flush()
try:
    stage("import")
    import torch
    out["torch_version"] = str(torch.__version__)
    out["torch_file"] = str(torch.__file__)
    out["cuda"] = torch.version.cuda
    out["hip"] = getattr(torch.version, "hip", None)
    stage("is_available")
    ok = bool(torch.cuda.is_available())
    out["cuda_available"] = ok
    if ok:
        stage("devices")
        n = torch.cuda.device_count()
        out["device_count"] = n
        out["device_names"] = [torch.cuda.get_device_name(i) for i in range(n)]
        out["arch_list"] = [str(a) for a in torch.cuda.get_arch_list()]
        stage("matmul")
        g = torch.Generator().manual_seed(0)
        a = torch.randn(1024, 1024, generator=g)
        b = torch.randn(1024, 1024, generator=g)
        want = a @ b
        got = (a.cuda() @ b.cuda()).cpu()
        err = float((got - want).abs().max())
        if math.isnan(err) or math.isinf(err):
            raise ArithmeticError("the GPU result holds NaN or Inf")
        out["matmul_max_abs_error"] = err
        out["matmul_max_abs_value"] = float(want.abs().max())
    stage("done")
except BaseException as e:
    text = str(e).strip().splitlines()
    out["error"] = type(e).__name__ + (": " + text[0] if text else "")
out["type"] = "result"
out["id"] = "live"
sys.stdout.write("\n" + json.dumps(out) + "\n")
sys.stdout.flush()
)PY";
  return kScript;
}

PythonLiveRun InterpretLiveRun(const std::string& interpreter, const Result<ProcessResult>& result,
                               std::chrono::milliseconds timeout) {
  PythonLiveRun run;
  run.interpreter = interpreter;
  if (!result.ok()) {
    run.status = "not-started";
    run.error = result.error().message;
    return run;
  }
  const ProcessResult& r = *result;
  run.exit_code = r.exit_code;
  run.signal = r.term_signal;
  run.elapsed_ms = static_cast<uint64_t>(r.elapsed.count());
  run.stderr_tail = StderrTail(r.stderr_text);
  bool reported = false;
  for (const ChildLine& line : ReadChildLines(r.stdout_text)) {
    if (line.type == "begin") run.stage = Clip(line.id);
    if (line.type == "result" && line.id == "live") reported = ReadReport(line.json, run) || reported;
  }
  const ChildEnd end = ReadChildEnd(r, timeout);
  if (end.kind == ChildEndKind::kTimedOut) {
    run.status = "timeout";
  } else if (end.kind == ChildEndKind::kCrashed) {
    run.status = "crashed";
  } else if (reported) {
    run.status = "ok";
  } else {
    run.status = end.kind == ChildEndKind::kFailed ? "failed" : "no-report";
    if (run.error.empty() && !r.stdout_text.empty()) {
      auto lines = SplitLines(r.stdout_text);
      if (!lines.empty()) run.error = "last output: " + Clip(lines.back());
    }
  }
  return run;
}

void RunLivePythonChecks(Snapshot& snap, const LiveOptions& options) {
  std::set<std::string> done;
  for (size_t i = 0; i < snap.python_envs.size(); ++i) {
    const PythonEnv& first = snap.python_envs[i];
    if (!first.torch || first.interpreter.empty() || !done.insert(first.interpreter).second) continue;
    const std::string interpreter = first.interpreter;
    ProcessRequest req;
    req.argv = {interpreter, "-"};
    req.stdin_text = LivePythonScript();
    req.timeout = options.timeout;
    req.extra_env = {{"PYTHONDONTWRITEBYTECODE", "1"}, {"PYTHONIOENCODING", "utf-8"}};
    PythonLiveRun run = InterpretLiveRun(interpreter, RunProcess(req), options.timeout);
    // The environment the imported torch belongs to; else the first of this interpreter.
    size_t target = i;
    for (size_t j = 0; j < snap.python_envs.size() && !run.torch_file.empty(); ++j) {
      const PythonEnv& e = snap.python_envs[j];
      if (e.torch && PathIsUnder(run.torch_file, e.site_packages)) {
        target = j;
        break;
      }
    }
    snap.python_envs[target].live = std::move(run);
  }
}

}  // namespace gpudoctor
