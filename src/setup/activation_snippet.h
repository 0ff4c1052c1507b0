// The snippet a user sources to enter a set-up environment: the environment's own activate script, then
// the plan's variables (and only those), in the syntax of bash and zsh, fish, or PowerShell. Written by
// `setup --apply` beside the environment: gpudoctor-activate.sh, .fish and .ps1.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "setup/setup_plan.h"

namespace gpudoctor {

enum class SnippetShell { kPosix, kFish, kPowerShell };  // kPosix: bash and zsh

// "gpudoctor-activate.sh", ".fish", ".ps1".
const char* SnippetFileName(SnippetShell shell);

// `bin_dir`: the environment's folder of scripts, "/e/.venv/bin" or "C:\\e\\.venv\\Scripts".
std::string ActivationSnippet(SnippetShell shell, const std::string& bin_dir,
                              const std::vector<VariableStep>& variables);

// The same for a conda environment at `prefix`: `conda activate PREFIX` (conda's shell hook, set up by
// `conda init`, is what enters a conda environment), then the variables.
std::string CondaActivationSnippet(SnippetShell shell, const std::string& prefix,
                                   const std::vector<VariableStep>& variables);

// A word as one fish argument: single-quoted, with \\ and \' escaped.
std::string QuoteFish(std::string_view word);

}  // namespace gpudoctor
