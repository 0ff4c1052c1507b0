// Shell completion scripts for bash, zsh, fish and PowerShell, written from the flag table
// (cli/flag_table.h), so they complete exactly the commands and flags `--help` lists.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli/flag_table.h"

namespace gpudoctor {

enum class CompletionShell { kBash, kZsh, kFish, kPowerShell };

inline const std::vector<std::string>& CompletionShellNames() {
  static const std::vector<std::string> names = {"bash", "zsh", "fish", "powershell"};
  return names;
}
std::optional<CompletionShell> CompletionShellFromName(std::string_view name);

std::string CompletionScript(CompletionShell shell, const std::vector<CommandSpec>& commands);

}  // namespace gpudoctor
