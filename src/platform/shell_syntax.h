// Shell syntax: which shell a user types into, and a word or an environment variable's assignment written
// for bash (`export X=Y`), PowerShell (`$env:X = "Y"`) or cmd (`set X=Y`), with each shell's quoting. Every
// piece of shell text gpudoctor prints (check's fixes, tune's settings, setup's snippets) is quoted here, so
// quoting mistakes live (and are tested) in one place.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/os.h"
#include "platform/environment.h"

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

// The line that sets, or removes, an environment variable in that shell.
std::string SetEnvLine(std::string_view name, std::string_view value, Shell shell);
std::string UnsetEnvLine(std::string_view name, Shell shell);

}  // namespace gpudoctor
