// The codec of CheckReport (see check_json.h). Written with nlohmann::ordered_json for a stable key order;
// read back with core's JsonReader, so that every problem is a message with its JSON path.
#include "report/check_json.h"

#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "report/check_text.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

Json OrNull(const std::string& s) {
  return s.empty() ? Json(nullptr) : Json(s);
}

const char* ActionKind(FixAction::Kind k) {
  switch (k) {
    case FixAction::Kind::kSetEnv:
      return "set_env";
    case FixAction::Kind::kUnsetEnv:
      return "unset_env";
    case FixAction::Kind::kCommand:
      return "command";
    case FixAction::Kind::kManual:
      return "manual";
  }
  return "manual";
}

std::optional<FixAction::Kind> ActionKindFromString(std::string_view s) {
  for (auto k : {FixAction::Kind::kSetEnv, FixAction::Kind::kUnsetEnv, FixAction::Kind::kCommand,
                 FixAction::Kind::kManual})
    if (s == ActionKind(k)) return k;
  return std::nullopt;
}

Json ActionToJson(const FixAction& a) {
  Json j{{"kind", ActionKind(a.kind)}};
  switch (a.kind) {
    case FixAction::Kind::kSetEnv:
      j["name"] = a.name;
      j["value"] = a.value;
      break;
    case FixAction::Kind::kUnsetEnv:
      j["name"] = a.name;
      break;
    case FixAction::Kind::kCommand:
      j["commands"] = Json{{"bash", OrNull(a.commands.bash)},
                           {"powershell", OrNull(a.commands.powershell)},
                           {"cmd", OrNull(a.commands.cmd)}};
      break;
    case FixAction::Kind::kManual:
      j["text"] = a.text;
      break;
  }
  return j;
}

Json FixToJson(const std::string& summary, const std::vector<FixAction>& fix, Shell shell) {
  Json lines = Json::array();
  for (const auto& l : RenderFix(fix, shell)) lines.push_back(Json{{"command", l.command}, {"text", l.text}});
  Json actions = Json::array();
  for (const auto& a : fix) actions.push_back(ActionToJson(a));
  return Json{{"summary", summary}, {"actions", actions}, {"lines", lines}};
}

Json FindingToJson(const Finding& f, Shell shell) {
  Json fix = FixToJson(f.fix_summary, f.fix, shell);
  Json alternatives = Json::array();
  for (const auto& alt : f.alternatives) {
    Json a = FixToJson(alt.summary, alt.fix, shell);
    a["link"] = OrNull(alt.link);
    alternatives.push_back(std::move(a));
  }
  fix["alternatives"] = std::move(alternatives);
  return Json{{"id", f.id},           {"layer", ToString(f.layer)}, {"severity", ToString(f.severity)},
              {"subject", f.subject}, {"title", f.title},           {"evidence", f.evidence},
              {"fix", fix},           {"link", OrNull(f.link)},     {"unconfirmed", f.unconfirmed}};
}

Json MachineToJson(const CheckMachine& m) {
  Json gpus = Json::array();
  for (const auto& g : m.gpus) {
    gpus.push_back(Json{{"pci_address", g.pci_address},
                        {"vendor", ToString(g.vendor)},
                        {"name", g.name},
                        {"architecture", g.architecture},
                        {"integrated", g.integrated ? Json(*g.integrated) : Json(nullptr)},
                        {"driver", g.driver}});
  }
  Json torch = Json::array();
  for (const auto& t : m.torch)
    torch.push_back(Json{{"site_packages", t.site_packages},
                         {"version", t.version},
                         {"cuda", OrNull(t.cuda)},
                         {"hip", OrNull(t.hip)}});
  return Json{{"host_name", m.host_name},
              {"sysroot", m.sysroot},
              {"live_machine", m.live_machine},
              {"os", Json{{"family", std::string(OsFamilyName(m.os_family))},
                          {"distro_name", m.distro_name},
                          {"kernel_release", m.kernel_release},
                          {"wsl", m.wsl}}},
              {"gpus", gpus},
              {"torch", torch},
              {"nvidia_driver", m.nvidia_driver ? Json(*m.nvidia_driver) : Json(nullptr)}};
}

// ---- reading ----

FixAction ReadAction(const JsonReader& r) {
  FixAction a;
  r.Enum("kind", a.kind, ActionKindFromString, "set_env, unset_env, command or manual", true);
  r.String("name", a.name);
  r.String("value", a.value);
  r.String("text", a.text);
  if (const JsonValue* c = r.Object("commands", false)) {
    JsonReader commands(*c, r.PathOf("commands"), r.error());
    commands.String("bash", a.commands.bash);
    commands.String("powershell", a.commands.powershell);
    commands.String("cmd", a.commands.cmd);
  }
  return a;
}

Finding ReadFinding(const JsonReader& r) {
  Finding f;
  r.String("id", f.id, true);
  r.Enum("layer", f.layer, LayerFromString, "hardware, runtime, framework or environment");
  r.Enum("severity", f.severity, SeverityFromString, "ok, info, warning or error", true);
  r.String("subject", f.subject);
  r.String("title", f.title);
  r.Strings("evidence", f.evidence);
  r.String("link", f.link);
  if (const JsonValue* fix = r.Object("fix", false)) {
    JsonReader fr(*fix, r.PathOf("fix"), r.error());
    fr.String("summary", f.fix_summary);
    fr.ForEachObject("actions", false, [&](const JsonReader& a) { f.fix.push_back(ReadAction(a)); });
    fr.ForEachObject("alternatives", false, [&](const JsonReader& ar) {
      FixOption o;
      ar.String("summary", o.summary);
      ar.String("link", o.link);
      ar.ForEachObject("actions", false, [&](const JsonReader& a) { o.fix.push_back(ReadAction(a)); });
      f.alternatives.push_back(std::move(o));
    });
  }
  r.Strings("unconfirmed", f.unconfirmed);
  return f;
}

CheckMachine ReadMachine(const JsonReader& r) {
  CheckMachine m;
  r.String("host_name", m.host_name);
  r.String("sysroot", m.sysroot);
  r.Bool("live_machine", m.live_machine);
  if (const JsonValue* os = r.Object("os", false)) {
    JsonReader o(*os, r.PathOf("os"), r.error());
    std::string family;
    o.String("family", family);
    m.os_family = OsFamilyFromName(family);
    o.String("distro_name", m.distro_name);
    o.String("kernel_release", m.kernel_release);
    o.Bool("wsl", m.wsl);
  }
  r.ForEachObject("gpus", false, [&](const JsonReader& g) {
    CheckMachineGpu gpu;
    g.String("pci_address", gpu.pci_address);
    std::string vendor;
    g.String("vendor", vendor);
    gpu.vendor = GpuVendorFromString(vendor);
    g.String("name", gpu.name);
    g.String("architecture", gpu.architecture);
    bool integrated = false;
    if (const JsonValue* i = g.Find("integrated", false); i && !i->is_null()) {
      g.Bool("integrated", integrated);
      gpu.integrated = integrated;
    }
    g.String("driver", gpu.driver);
    m.gpus.push_back(std::move(gpu));
  });
  r.ForEachObject("torch", false, [&](const JsonReader& t) {
    CheckMachineTorch torch;
    t.String("site_packages", torch.site_packages);
    t.String("version", torch.version);
    t.String("cuda", torch.cuda);
    t.String("hip", torch.hip);
    m.torch.push_back(std::move(torch));
  });
  std::string driver;
  if (const JsonValue* d = r.Find("nvidia_driver", false); d && !d->is_null()) {
    r.String("nvidia_driver", driver);
    m.nvidia_driver = driver;
  }
  return m;
}

}  // namespace

CheckReport MakeCheckReport(const Snapshot& s, std::vector<Finding> findings, Shell shell, int exit_code,
                            const KnowledgeStamp& knowledge) {
  SortWorstFirst(findings);
  CheckReport r;
  r.tool_version = s.tool_version;
  r.exit_code = exit_code;
  r.shell = shell;
  r.knowledge = knowledge;
  r.findings = std::move(findings);
  r.warnings = s.warnings;
  CheckMachine& m = r.machine;
  m.host_name = s.host_name;
  m.sysroot = s.sysroot;
  m.live_machine = s.live_machine;
  m.os_family = s.os.family;
  m.distro_name = s.os.distro_name;
  m.kernel_release = s.os.kernel_release;
  m.wsl = s.os.wsl;
  for (const auto& g : s.gpus)
    m.gpus.push_back({g.pci_address, g.vendor, g.name, g.architecture, g.integrated, g.driver});
  for (const auto& e : s.python_envs)
    if (e.torch) m.torch.push_back({e.site_packages, e.torch->version, e.torch->cuda, e.torch->hip});
  m.nvidia_driver = s.nvidia.driver_version;
  return r;
}

std::string CheckReportToJson(const CheckReport& r) {
  Json layers = Json::array();
  for (const auto& l : SummarizeLayers(r.findings)) {
    layers.push_back(Json{{"layer", ToString(l.layer)},
                          {"title", LayerTitle(l.layer)},
                          {"severity", ToString(l.severity)},
                          {"summary", l.text}});
  }
  Json list = Json::array();
  for (const auto& f : r.findings) list.push_back(FindingToJson(f, r.shell));
  Json doc{{"schema", SchemaName("check", kCheckSchemaMajor)},
           {"tool_version", r.tool_version},
           {"verdict", ToString(WorstSeverity(r.findings))},
           {"exit_code", r.exit_code},
           {"shell", ToString(r.shell)},
           {"machine", MachineToJson(r.machine)},
           {"knowledge", Json{{"as_of", OrNull(r.knowledge.as_of)}, {"origin", OrNull(r.knowledge.origin)}}},
           {"layers", layers},
           {"findings", list},
           {"warnings", r.warnings}};
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string RenderCheckJson(const Snapshot& snapshot, std::vector<Finding> findings, Shell shell,
                            int exit_code, const KnowledgeStamp& knowledge) {
  return CheckReportToJson(MakeCheckReport(snapshot, std::move(findings), shell, exit_code, knowledge));
}

Result<CheckReport> CheckReportFromJson(std::string_view text, const std::string& origin) {
  const std::string hint = "give the file `gpudoctor check --json > check.json` wrote";
  auto parsed = ParseJsonObject(text, origin, hint);
  if (!parsed.ok()) return parsed.error();
  const JsonValue& doc = *parsed;
  auto major = ExpectSchema(doc, "check", kCheckSchemaMajor, origin, hint);
  if (!major.ok()) return major.error();
  std::string error;
  JsonReader r(doc, "", &error);
  CheckReport c;
  r.String("tool_version", c.tool_version);
  r.IntegerAs("exit_code", c.exit_code);
  r.Enum("shell", c.shell, ShellFromString, "bash, powershell or cmd");
  if (const JsonValue* m = r.Object("machine", false))
    c.machine = ReadMachine(JsonReader(*m, "machine", &error));
  if (const JsonValue* k = r.Object("knowledge", false)) {
    JsonReader kr(*k, "knowledge", &error);
    kr.String("as_of", c.knowledge.as_of);
    kr.String("origin", c.knowledge.origin);
  }
  r.ForEachObject("findings", false, [&](const JsonReader& f) { c.findings.push_back(ReadFinding(f)); });
  r.Strings("warnings", c.warnings);
  if (!error.empty()) return UserError(origin + ": " + error, hint);
  return c;
}

}  // namespace gpudoctor
