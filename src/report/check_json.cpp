// Renders check findings as JSON with nlohmann::ordered_json: a stable key order, the layer summary,
// each finding with its fix both as shell-neutral actions and as lines for the chosen shell, and a
// short summary of the machine the verdict is about.
#include "report/check_json.h"

#include <nlohmann/json.hpp>

#include "report/check_text.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

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
      j["commands"] =
          Json{{"bash", a.commands.bash.empty() ? Json(nullptr) : Json(a.commands.bash)},
               {"powershell", a.commands.powershell.empty() ? Json(nullptr) : Json(a.commands.powershell)},
               {"cmd", a.commands.cmd.empty() ? Json(nullptr) : Json(a.commands.cmd)}};
      break;
    case FixAction::Kind::kManual:
      j["text"] = a.text;
      break;
  }
  return j;
}

Json FindingToJson(const Finding& f, Shell shell) {
  Json lines = Json::array();
  for (const auto& l : RenderFix(f.fix, shell))
    lines.push_back(Json{{"command", l.command}, {"text", l.text}});
  Json actions = Json::array();
  for (const auto& a : f.fix) actions.push_back(ActionToJson(a));
  return Json{{"id", f.id},
              {"layer", ToString(f.layer)},
              {"severity", ToString(f.severity)},
              {"subject", f.subject},
              {"title", f.title},
              {"evidence", f.evidence},
              {"fix", Json{{"summary", f.fix_summary}, {"actions", actions}, {"lines", lines}}},
              {"link", f.link.empty() ? Json(nullptr) : Json(f.link)}};
}

Json MachineSummary(const Snapshot& s) {
  Json gpus = Json::array();
  for (const auto& g : s.gpus) {
    gpus.push_back(Json{{"pci_address", g.pci_address},
                        {"vendor", ToString(g.vendor)},
                        {"name", g.name},
                        {"architecture", g.architecture},
                        {"integrated", g.integrated ? Json(*g.integrated) : Json(nullptr)},
                        {"driver", g.driver}});
  }
  Json torch = Json::array();
  for (const auto& e : s.python_envs) {
    if (!e.torch) continue;
    torch.push_back(Json{{"site_packages", e.site_packages},
                         {"version", e.torch->version},
                         {"cuda", e.torch->cuda.empty() ? Json(nullptr) : Json(e.torch->cuda)},
                         {"hip", e.torch->hip.empty() ? Json(nullptr) : Json(e.torch->hip)}});
  }
  return Json{{"host_name", s.host_name},
              {"sysroot", s.sysroot},
              {"live_machine", s.live_machine},
              {"os", Json{{"family", s.os.family},
                          {"distro_name", s.os.distro_name},
                          {"kernel_release", s.os.kernel_release},
                          {"wsl", s.os.wsl}}},
              {"gpus", gpus},
              {"torch", torch},
              {"nvidia_driver", s.nvidia.driver_version ? Json(*s.nvidia.driver_version) : Json(nullptr)}};
}

}  // namespace

std::string RenderCheckJson(const Snapshot& snap, std::vector<Finding> findings, Shell shell, int exit_code,
                            const KnowledgeStamp& knowledge) {
  SortWorstFirst(findings);
  Json layers = Json::array();
  for (const auto& l : SummarizeLayers(findings)) {
    layers.push_back(Json{{"layer", ToString(l.layer)},
                          {"title", LayerTitle(l.layer)},
                          {"severity", ToString(l.severity)},
                          {"summary", l.text}});
  }
  Json list = Json::array();
  for (const auto& f : findings) list.push_back(FindingToJson(f, shell));
  Json doc{{"schema", "gpudoctor.check"},
           {"schema_version", kCheckSchemaVersion},
           {"tool_version", snap.tool_version},
           {"verdict", ToString(WorstSeverity(findings))},
           {"exit_code", exit_code},
           {"shell", ToString(shell)},
           {"machine", MachineSummary(snap)},
           {"knowledge", Json{{"as_of", knowledge.as_of.empty() ? Json(nullptr) : Json(knowledge.as_of)},
                              {"origin", knowledge.origin.empty() ? Json(nullptr) : Json(knowledge.origin)}}},
           {"layers", layers},
           {"findings", list},
           {"warnings", snap.warnings}};
  return doc.dump(2) + "\n";
}

}  // namespace gpudoctor
