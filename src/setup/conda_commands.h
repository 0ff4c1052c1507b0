// `setup --installer conda`: the commands of a plan in a conda environment. PyTorch's own conda channel
// is deprecated, so conda makes the environment (a prefix folder with the plan's Python and pip) and the
// wheels come from the same pip index as in a venv, through that environment's pip. `setup --apply`
// runs the same create command (setup_apply.cpp), then the environment's own python -m pip.
#pragma once

#include <string>
#include <vector>

#include "setup/setup_plan.h"

namespace gpudoctor {

// The Python conda installs for `python_versions` (what the pinned wheels are built for, oldest first):
// the newest but one, since the newest Python's wheels of other packages (add-ons, the project's own
// dependencies) often lag behind torch's; the only one when there is one; "" when none is known (conda's
// default Python).
std::string CondaPython(const std::vector<std::string>& python_versions);

// {conda, "create", "-y", "-p", prefix, "python=3.13" (or "python" when `python` is ""), "pip"}: what
// creates the environment, as the plan prints it and as --apply runs it.
std::vector<std::string> CondaCreateArgv(const std::string& conda, const std::string& prefix,
                                         const std::string& python);

// "conda create -y -p .conda python=3.13 pip".
std::string CondaCreateCommand(const SetupPlan& plan);

// "conda run -p .conda python -m pip": what runs pip in the plan's environment.
std::string CondaPipCommand(const SetupPlan& plan);

}  // namespace gpudoctor
