// Turning a fix into lines a user can paste: bash (`export X=Y`), PowerShell (`$env:X = "Y"`) or cmd
// (`set X=Y`), with each shell's quoting. Which shell to show is chosen once, from a flag or the OS.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/os.h"
#include "platform/environment.h"
#include "rules/finding.h"

namespace gpudoctor {

enum class Shell { kBash, kPowerShell, kCmd };
const char* ToString(Shell s);  // "bash", "powershell", "cmd"
std::optional<Shell> ShellFromString(std::string_view s);

// The shell a user of this machine most likely types into: bash unless `os_family` is Windows;
// on Windows, PowerShell unless the environment looks like cmd.exe. PowerShell puts the user's own
// module folder (...\Documents\...PowerShell\Modules) first in PSModulePath when it starts; cmd.exe
// inherits only the system's entries and has PROMPT set.
Shell DetectShell(OsFamily os_family, const Environment& env);

// A word as one argument of that shell, quoted only when it needs to be.
std::string QuoteBash(std::string_view word);
std::string QuotePowerShell(std::string_view word);  // always a double-quoted string: "..."
std::string QuoteCmdSetValue(std::string_view name, std::string_view value);  // `set X=Y` or `set "X=Y"`

struct FixLine {
  bool command = true;  // false: a step to do by hand (shown as text, not as a command)
  std::string text;
};

// One action in one shell. A command missing for that shell becomes a manual line saying so.
FixLine RenderAction(const FixAction& action, Shell shell);
std::vector<FixLine> RenderFix(const std::vector<FixAction>& fix, Shell shell);

}  // namespace gpudoctor
