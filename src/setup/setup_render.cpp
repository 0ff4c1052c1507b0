// The text and JSON of a setup plan (see setup_render.h).
#include "setup/setup_render.h"

#include <nlohmann/json.hpp>

#include "core/json_reader.h"
#include "core/printable.h"
#include "rules/rule_context.h"
#include "setup/conda_commands.h"
#include "setup/driver_floor.h"

namespace gpudoctor {
namespace {

using Json = nlohmann::ordered_json;

std::string ManualText(const SetupPlan& plan) {
  std::string out;
  for (const ManualStep& m : plan.manual) {
    out += "   - " + Printable(m.title) + "   (" + m.finding + ")\n";
    if (!m.summary.empty()) out += "     " + Printable(m.summary) + "\n";
    for (const std::string& line : m.lines) out += "       " + Printable(line) + "\n";
  }
  return out;
}

// The conda commands of a conda plan (null for pip and uv, and for a plan that installs nothing).
Json CondaJson(const SetupPlan& plan) {
  if (plan.installer != "conda" || plan.packages.empty()) return nullptr;
  Json out{{"pip", CondaPipCommand(plan)}};
  out["create"] = plan.mode == PlanMode::kNewEnvironment ? Json(CondaCreateCommand(plan)) : Json(nullptr);
  return out;
}

Json DriverJson(const std::optional<DriverFloorCheck>& d) {
  if (!d) return nullptr;
  return {{"verdict", ToString(d->verdict)},
          {"cuda", d->cuda},
          {"needs", d->needs},
          {"installed", d->installed},
          {"os", d->os},
          {"note", d->note},
          {"source", d->source}};
}

std::string VariableLine(const VariableStep& v) {
  return v.unset ? "unset " + v.name : v.name + "=" + Printable(v.value);
}

// The step that creates (or names) the environment, and what installs into it.
std::string EnvironmentText(const SetupPlan& plan) {
  const bool fresh = plan.mode == PlanMode::kNewEnvironment;
  const std::string built_for = plan.python_versions.empty() ? ""
                                                             : " (the wheels are built for Python " +
                                                                   JoinList(plan.python_versions, ", ") + ")";
  if (plan.installer == "conda") {
    std::string out = fresh ? "Create the environment " + Printable(plan.environment) +
                                  " with conda: " + Printable(CondaCreateCommand(plan)) + built_for + "\n"
                            : "Use the conda environment " + Printable(plan.environment) + "\n";
    return out + "     packages through pip inside it (" + Printable(CondaPipCommand(plan)) +
           "): PyTorch's conda channel is deprecated, so the wheels come from the same index as in a venv\n";
  }
  return std::string(fresh ? "Create" : "Use") + " the environment " + Printable(plan.environment) +
         (fresh ? " with " + Printable(plan.python) : std::string()) + ", packages through " +
         plan.installer + built_for + "\n";
}

}  // namespace

std::string PipArguments(const PackageStep& step) {
  std::string out;
  for (const std::string& o : step.options) out += o + " ";
  out += JoinList(step.requirements, " ");
  if (!step.index_url.empty()) out += " --index-url " + step.index_url;
  if (!step.find_links.empty()) out += " --find-links " + step.find_links;
  return out;
}

std::string RenderPlanText(const SetupPlan& plan) {
  if (plan.Empty())
    return "Nothing to do: check finds nothing on this machine that setup would install, set or ask an "
           "administrator for.\n";
  std::string out = std::string("Plan for ") +
                    (plan.gpu.empty() ? "a machine without a GPU" : Printable(plan.gpu)) +
                    (plan.mode == PlanMode::kRepair ? ": repair in place" : ": a new environment") +
                    ", from check's fixes\n\n";
  int n = 0;
  if (!plan.manual.empty())
    out += std::to_string(++n) + ". First, by you or an administrator (setup never runs these):\n" +
           ManualText(plan);
  if (!plan.packages.empty()) out += std::to_string(++n) + ". " + EnvironmentText(plan);
  for (const PackageStep& p : plan.packages) {
    if (!p.uninstall.empty())
      out += std::to_string(++n) + ". Uninstall " + JoinList(p.uninstall, " ") + "   (" + p.finding + ")\n";
    out += std::to_string(++n) + ". Install " + Printable(PipArguments(p)) + "   (" + p.finding + ")\n";
    if (!p.variant.empty())
      out += "     the " + p.variant + " build, check's fix: " + Printable(p.check_command) + "\n";
    if (p.driver) out += "     " + Printable(p.driver->note) + "\n";
    if (!p.note.empty()) out += "     " + Printable(p.note) + "\n";
  }
  if (!plan.variables.empty()) {
    out += std::to_string(++n) + ". Set in the environment's activation snippet:\n";
    for (const VariableStep& v : plan.variables)
      out += "     " + VariableLine(v) + "   (" + v.finding + ")\n";
  }
  return out;
}

std::string RenderPlanJson(const SetupPlan& plan) {
  Json manual = Json::array();
  for (const ManualStep& m : plan.manual)
    manual.push_back(
        {{"finding", m.finding}, {"title", m.title}, {"summary", m.summary}, {"lines", m.lines}});
  Json packages = Json::array();
  for (const PackageStep& p : plan.packages)
    packages.push_back({{"finding", p.finding},
                        {"uninstall", p.uninstall},
                        {"requirements", p.requirements},
                        {"index_url", p.index_url},
                        {"find_links", p.find_links},
                        {"variant", p.variant},
                        {"options", p.options},
                        {"check_command", p.check_command},
                        {"driver", DriverJson(p.driver)},
                        {"note", p.note}});
  Json variables = Json::array();
  for (const VariableStep& v : plan.variables)
    variables.push_back({{"finding", v.finding}, {"name", v.name}, {"value", v.value}, {"unset", v.unset}});
  Json doc{{"schema", SchemaName("setup", kSetupSchemaMajor)},
           {"mode", ToString(plan.mode)},
           {"shell", ToString(plan.shell)},
           {"gpu", plan.gpu},
           {"empty", plan.Empty()},
           {"environment", plan.environment},
           {"python", plan.python},
           {"installer", plan.installer},
           {"conda", CondaJson(plan)},
           {"python_versions", plan.python_versions},
           {"manual", std::move(manual)},
           {"packages", std::move(packages)},
           {"variables", std::move(variables)}};
  return doc.dump(2) + "\n";
}

}  // namespace gpudoctor
