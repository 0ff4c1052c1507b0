// The codec of VerifyReport (see verify_json.h): written with nlohmann::json, read back with core's
// JsonReader so that every problem is a message with its JSON path, never an exception.
#include "gates/verify_json.h"

#include <cmath>

#include "core/json_reader.h"
#include "gates/verify_report.h"

namespace gpudoctor {
namespace {

using Json = JsonValue;

Json OrNull(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

Json DeviceToJson(const DeviceInfo& d) {
  return {{"index", d.index},
          {"name", d.name},
          {"pci_address", d.pci_address},
          {"arch", d.arch},
          {"memory_total_bytes", d.memory_total_bytes},
          {"compute_units", d.compute_units ? Json(*d.compute_units) : Json(nullptr)}};
}

Json LibraryToJson(const BackendLibrary& l) {
  return {{"role", l.role},
          {"name", l.name},
          {"status", LoadStatusName(l.status)},
          {"path", OrNull(l.path)},
          {"origin", OrNull(l.origin)},
          {"where", OrNull(l.where)},
          {"version", OrNull(l.version)},
          {"detail", l.detail}};
}

Json GateToJson(const GateResult& g) {
  Json figures = Json::array();
  for (const auto& f : g.figures)
    figures.push_back({{"label", f.label}, {"value", f.value}, {"unit", f.unit}});
  auto id = GateIdFromName(g.gate);
  return {{"gate", g.gate},
          {"title", id ? SpecOf(*id).title : ""},
          {"status", ToString(g.status)},
          {"summary", g.summary},
          {"hint", OrNull(g.hint)},
          {"elapsed_ms", g.status == GateStatus::kSkip ? Json(nullptr) : Json(g.elapsed_ms)},
          {"figures", figures},
          {"details", g.details},
          {"findings", g.findings}};
}

DeviceInfo ReadDevice(const JsonReader& r) {
  DeviceInfo d;
  r.IntegerAs("index", d.index);
  r.String("name", d.name);
  r.String("pci_address", d.pci_address);
  r.String("arch", d.arch);
  r.IntegerAs("memory_total_bytes", d.memory_total_bytes);
  r.OptionalIntegerAs("compute_units", d.compute_units);
  return d;
}

BackendLibrary ReadLibrary(const JsonReader& r) {
  BackendLibrary l;
  r.String("role", l.role);
  r.String("name", l.name);
  r.Enum("status", l.status, LoadStatusFromName, LoadStatusNames());
  r.String("path", l.path);
  r.String("origin", l.origin);
  r.String("where", l.where);
  r.String("version", l.version);
  r.String("detail", l.detail);
  return l;
}

GateResult ReadGate(const JsonReader& r) {
  GateResult g;
  r.String("gate", g.gate, true);
  r.Enum("status", g.status, GateStatusFromString, "pass, fail or skip", true);
  r.String("summary", g.summary);
  r.String("hint", g.hint);
  r.Number("elapsed_ms", g.elapsed_ms);
  r.Strings("details", g.details);
  r.Strings("findings", g.findings);
  r.ForEachObject("figures", false, [&](const JsonReader& f) {
    GateFigure figure;
    f.String("label", figure.label);
    std::optional<double> value;
    f.Number("value", value);
    figure.value = value.value_or(std::nan(""));  // null: could not be measured
    f.String("unit", figure.unit);
    g.figures.push_back(std::move(figure));
  });
  return g;
}

}  // namespace

std::string VerifyReportToJson(const VerifyReport& r) {
  Json gates = Json::array();
  for (const auto& g : r.gates) gates.push_back(GateToJson(g));
  Json libraries = Json::array();
  for (const auto& l : r.libraries) libraries.push_back(LibraryToJson(l));
  Json devices = Json::array();
  for (const auto& d : r.devices) devices.push_back(DeviceToJson(d));
  Json j = {{"schema", SchemaName("verify", kVerifySchemaMajor)},
            {"tool_version", r.tool_version},
            {"level", ToString(r.level)},
            {"backend", OrNull(r.backend)},
            {"runtime_version", OrNull(r.runtime_version)},
            {"device", r.device ? DeviceToJson(*r.device) : Json(nullptr)},
            {"devices", devices},
            {"libraries", libraries},
            {"gates", gates},
            {"findings", r.findings},
            {"advice", OrNull(r.advice)},
            {"inject", r.inject},
            {"elapsed_ms", r.elapsed_ms},
            {"verdict", VerifyVerdict(r)},
            {"exit_code", r.exit_code}};
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Result<VerifyReport> VerifyReportFromJson(std::string_view text, const std::string& origin) {
  const std::string hint = "give the file `gpudoctor verify --json > verify.json` wrote";
  auto parsed = ParseJsonObject(text, origin, hint);
  if (!parsed.ok()) return parsed.error();
  const Json& doc = *parsed;
  auto major = ExpectSchema(doc, "verify", kVerifySchemaMajor, origin, hint);
  if (!major.ok()) return major.error();
  std::string error;
  JsonReader r(doc, "", &error);
  VerifyReport v;
  r.String("tool_version", v.tool_version);
  r.Enum("level", v.level, VerifyLevelFromString, "quick, standard or long");
  r.String("backend", v.backend);
  r.String("runtime_version", v.runtime_version);
  if (const Json* d = r.Object("device", false)) v.device = ReadDevice(JsonReader(*d, "device", &error));
  r.ForEachObject("devices", false, [&](const JsonReader& d) { v.devices.push_back(ReadDevice(d)); });
  r.ForEachObject("libraries", false, [&](const JsonReader& l) { v.libraries.push_back(ReadLibrary(l)); });
  r.ForEachObject("gates", true, [&](const JsonReader& g) { v.gates.push_back(ReadGate(g)); });
  r.Strings("findings", v.findings);
  r.String("advice", v.advice);
  v.inject = "none";
  r.String("inject", v.inject);
  r.Number("elapsed_ms", v.elapsed_ms);
  std::optional<int64_t> exit_code;
  r.Integer("exit_code", exit_code);
  if (exit_code && (*exit_code < 0 || *exit_code > 3)) r.Fail("exit_code", "is not 0, 1, 2 or 3");
  bool any_failed = false;
  for (const auto& g : v.gates) any_failed = any_failed || g.status == GateStatus::kFail;
  v.exit_code = exit_code ? static_cast<int>(*exit_code) : any_failed ? 1 : 0;
  if (!error.empty()) return UserError(origin + ": " + error, hint);
  return v;
}

}  // namespace gpudoctor
