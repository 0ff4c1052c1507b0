// The codec of VerifyReport (see verify_json.h): written with nlohmann::json, read back with core's
// JsonReader so that every problem is a message with its JSON path, never an exception.
#include "gates/verify_json.h"

#include "core/json_reader.h"
#include "gates/gate_json.h"
#include "gates/verify_report.h"

namespace gpudoctor {

using Json = JsonValue;

std::string VerifyReportToJson(const VerifyReport& r) {
  Json gates = Json::array();
  for (const auto& g : r.gates) gates.push_back(GateEntryToJson(g));
  Json libraries = Json::array();
  for (const auto& l : r.libraries) libraries.push_back(LibraryToJson(l));
  Json devices = Json::array();
  for (const auto& d : r.devices) devices.push_back(DeviceToJson(d));
  Json j = {{"schema", SchemaName("verify", kVerifySchemaMajor)},
            {"tool_version", r.tool_version},
            {"level", ToString(r.level)},
            {"backend", StringOrNull(r.backend)},
            {"runtime_version", StringOrNull(r.runtime_version)},
            {"device", r.device ? DeviceToJson(*r.device) : Json(nullptr)},
            {"devices", devices},
            {"libraries", libraries},
            {"gates", gates},
            {"findings", r.findings},
            {"advice", StringOrNull(r.advice)},
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
  r.ForEachObject("gates", true, [&](const JsonReader& g) { v.gates.push_back(ReadGateEntry(g)); });
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
