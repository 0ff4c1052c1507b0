// The commands of a setup plan in a conda environment (see conda_commands.h).
#include "setup/conda_commands.h"

#include "rules/shell.h"

namespace gpudoctor {

std::string CondaPython(const std::vector<std::string>& python_versions) {
  if (python_versions.empty()) return "";
  if (python_versions.size() == 1) return python_versions.front();
  return python_versions[python_versions.size() - 2];
}

std::string CondaCreateCommand(const SetupPlan& plan) {
  std::string out = "conda create -y -p " + QuoteBash(plan.environment);
  out += plan.python.empty() ? " python" : " python=" + plan.python;
  return out + " pip";
}

std::string CondaPipCommand(const SetupPlan& plan) {
  return "conda run -p " + QuoteBash(plan.environment) + " python -m pip";
}

}  // namespace gpudoctor
