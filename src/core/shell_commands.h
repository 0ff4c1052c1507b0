// One command line per shell, the form every fix takes: `check`'s findings, explain's fixes and the knowledge
// base's install commands (placeholders filled by the rules).
#pragma once

#include <string>

namespace gpudoctor {

// An empty entry means "not available in that shell".
struct ShellCommands {
  std::string bash;        // Linux, WSL and macOS shells
  std::string powershell;  // Windows PowerShell
  std::string cmd;         // Windows cmd.exe
  bool operator==(const ShellCommands&) const = default;
};

}  // namespace gpudoctor
