// The commands of a setup plan in a conda environment (see conda_commands.h).
#include "setup/conda_commands.h"

#include "rules/shell.h"

namespace gpudoctor {

std::string CondaPython(const std::vector<std::string>& python_versions) {
  if (python_versions.empty()) return "";
  if (python_versions.size() == 1) return python_versions.front();
  return python_versions[python_versions.size() - 2];
}

std::vector<std::string> CondaCreateArgv(const std::string& conda, const std::string& prefix,
                                         const std::string& python) {
  return {conda, "create", "-y", "-p", prefix, python.empty() ? "python" : "python=" + python, "pip"};
}

std::string CondaCreateCommand(const SetupPlan& plan) {
  std::string out;
  for (const std::string& word : CondaCreateArgv("conda", plan.environment, plan.python))
    out += (out.empty() ? "" : " ") + QuoteBash(word);
  return out;
}

std::string CondaPipCommand(const SetupPlan& plan) {
  return "conda run -p " + QuoteBash(plan.environment) + " python -m pip";
}

}  // namespace gpudoctor
