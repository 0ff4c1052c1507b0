// `gpudoctor completions SHELL`: prints the completion script for bash, zsh, fish or PowerShell, written
// from the same flag declarations as `--help` (cli/completions.h).
#pragma once

#include <string>

#include "cli/command.h"

namespace gpudoctor {

class CompletionsCommand final : public Command {
 public:
  std::string Name() const override { return "completions"; }
  std::string Summary() const override {
    return "Print the shell completion script for bash, zsh, fish or PowerShell";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string shell_;
};

}  // namespace gpudoctor
