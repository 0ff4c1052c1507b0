// pip command lines for the fixes of the framework and add-on rules: the same pip arguments with the
// python each shell starts (python3 in bash, the `py` launcher in PowerShell and cmd; ForEnvironment in
// rule_context.h turns python3 into a venv's or conda env's own), and pytorch.org's index for a variant.
#pragma once

#include <string>

#include "rules/finding.h"

namespace gpudoctor {

// "python3 -m pip ARGS" in bash, "py -m pip ARGS" in PowerShell and cmd.
ShellCommands PipCommand(const std::string& args);

// A variant download.pytorch.org has an index for: cpu, cuXYZ, rocmX.Y[.Z].
bool IsPytorchIndexVariant(const std::string& variant);
// "https://download.pytorch.org/whl/cu124".
std::string PytorchIndexUrl(const std::string& variant);

}  // namespace gpudoctor
