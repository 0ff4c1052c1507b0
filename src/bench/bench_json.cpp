// The codec of BenchReport and BenchResult (see bench_json.h): written with nlohmann::json, read back with
// core's JsonReader so that every problem is a message with its JSON path, never an exception.
#include "bench/bench_json.h"

#include <cmath>

#include "core/strings.h"
#include "gates/gate_json.h"

namespace gpudoctor {
namespace {

using Json = JsonValue;

Json Number(std::optional<double> v) {
  return v && std::isfinite(*v) ? Json(*v) : Json(nullptr);
}

// "passed", "failed: <why>", "not run" (CheckText's forms; "failed" alone too).
bool ReadCheck(const std::string& text, BenchResult& r) {
  if (text == "passed") {
    r.check = BenchCheck::kPassed;
  } else if (text == "not run") {
    r.check = BenchCheck::kNotRun;
  } else if (text == "failed" || StartsWith(text, "failed:")) {
    r.check = BenchCheck::kFailed;
    r.check_detail = std::string(Trim(std::string_view(text).substr(std::string_view("failed").size())));
    if (!r.check_detail.empty() && r.check_detail.front() == ':')
      r.check_detail = std::string(Trim(std::string_view(r.check_detail).substr(1)));
  } else {
    return false;
  }
  return true;
}

// The runtime's device fields as verify writes them (gates/gate_json.h), and the backend.
Json BenchDeviceToJson(const BenchDevice& d) {
  Json j = DeviceToJson(d);
  j["backend"] = d.backend;
  return j;
}

BenchDevice ReadBenchDevice(const JsonReader& r) {
  BenchDevice d{ReadDevice(r), ""};
  r.String("backend", d.backend);
  return d;
}

BenchFinding ReadFinding(const JsonReader& r) {
  BenchFinding f;
  r.String("id", f.id);
  r.Enum("severity", f.severity, SeverityFromString, "ok, info, warning or error");
  r.String("title", f.title);
  r.Strings("evidence", f.evidence);
  r.String("fix", f.fix);
  return f;
}

}  // namespace

Json BenchResultToJson(const BenchResult& r) {
  Json points = Json::array();
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
          {"peak_source", r.peak_source},
          {"verdict", ToString(r.verdict)},
          {"check", CheckText(r)},
          {"note", r.note}};
}

BenchResult BenchResultFromJson(const JsonReader& e) {
  BenchResult b;
  e.String("id", b.spec.id, true);
  if (e.ok() && b.spec.id.empty()) e.Fail(e.PathOf("id"), "is empty");
  e.String("group", b.spec.group);
  if (b.spec.group.empty()) b.spec.group = b.spec.id.substr(0, b.spec.id.find('.'));
  e.String("title", b.spec.title);
  if (b.spec.title.empty()) b.spec.title = b.spec.id;
  e.String("unit", b.spec.unit);
  e.Bool("higher_is_better", b.spec.higher_is_better);
  e.String("x_label", b.spec.x_label);
  e.String("x_unit", b.spec.x_unit);
  e.Number("best", b.best);
  e.Number("peak", b.peak);
  e.Number("percent_of_peak", b.percent_of_peak);
  e.String("peak_source", b.peak_source);
  e.Enum("verdict", b.verdict, BenchVerdictFromString, "ok, low, failed or skipped", true);
  std::string check;
  e.String("check", check, true);
  if (e.ok() && !ReadCheck(check, b))
    e.Fail(e.PathOf("check"), "\"" + check + "\" is not passed, \"failed: ...\" or not run");
  e.String("note", b.note);
  // A document keeps no "run": a skipped verdict is a benchmark that did not run here.
  if (b.verdict == BenchVerdict::kSkipped) b.run = BenchRun::kSkipped;
  e.ForEachObject("points", true, [&](const JsonReader& p) {
    std::optional<double> x, value;
    p.Number("x", x, true);
    p.Number("value", value, true);
    if (!p.ok()) return;
    if (!x) return p.Fail(p.PathOf("x"), "is null");
    if (!std::isfinite(*x)) return p.Fail(p.PathOf("x"), "is out of range");
    b.points.push_back({*x, value.value_or(std::nan(""))});
  });
  return b;
}

std::string BenchReportToJson(const BenchReport& r) {
  Json j;
  j["schema"] = SchemaName("bench", kBenchSchemaMajor);
  j["tool_version"] = r.tool_version;
  j["device"] = r.device ? BenchDeviceToJson(*r.device) : Json(nullptr);
  j["runtime_version"] = r.runtime_version;
  j["peaks"] = {{"model", r.peak_model},
                {"matched_by", r.peak_model_source},
                {"link", r.link_now},
                {"link_max", r.link_max}};
  j["level"] = ToString(r.level);
  j["duration_s"] = std::round(r.duration_s * 100) / 100;
  Json benchmarks = Json::array();
  for (const auto& b : r.benchmarks) benchmarks.push_back(BenchResultToJson(b));
  j["benchmarks"] = benchmarks;
  Json findings = Json::array();
  for (const auto& f : r.findings)
    findings.push_back({{"id", f.id},
                        {"severity", ToString(f.severity)},
                        {"title", f.title},
                        {"evidence", f.evidence},
                        {"fix", f.fix}});
  j["findings"] = findings;
  j["exit_code"] = r.exit_code;
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<BenchReport> BenchReportFromJson(std::string_view text, const std::string& origin) {
  const std::string hint = "give the file `gpudoctor bench --json > bench.json` wrote";
  auto parsed = ParseJsonObject(text, origin, hint);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = *parsed;
  auto major = ExpectSchema(doc, "bench", kBenchSchemaMajor, origin, hint);
  if (!major.ok()) return major.error();
  std::string error;
  JsonReader r(doc, "", &error);
  BenchReport b;
  r.String("tool_version", b.tool_version);
  if (const Json* d = r.Object("device", false)) b.device = ReadBenchDevice(JsonReader(*d, "device", &error));
  r.String("runtime_version", b.runtime_version);
  if (const Json* p = r.Object("peaks", false)) {
    JsonReader peaks(*p, "peaks", &error);
    peaks.String("model", b.peak_model);
    peaks.String("matched_by", b.peak_model_source);
    peaks.String("link", b.link_now);
    peaks.String("link_max", b.link_max);
  }
  r.Enum("level", b.level, BenchLevelFromString, "quick or standard");
  r.Number("duration_s", b.duration_s);
  r.ForEachObject("benchmarks", true,
                  [&](const JsonReader& e) { b.benchmarks.push_back(BenchResultFromJson(e)); });
  r.ForEachObject("findings", false, [&](const JsonReader& f) { b.findings.push_back(ReadFinding(f)); });
  std::optional<int64_t> exit_code;
  r.Integer("exit_code", exit_code);
  if (exit_code && (*exit_code < 0 || *exit_code > 3)) r.Fail("exit_code", "is not 0, 1, 2 or 3");
  b.exit_code = static_cast<int>(exit_code.value_or(0));
  if (!error.empty()) return UserError(origin + ": " + error, hint);
  return b;
}

}  // namespace gpudoctor
