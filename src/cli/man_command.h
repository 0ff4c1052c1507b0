// `gpudoctor man`: prints gpudoctor(1) in roff, written from the same flag declarations as `--help`
// (cli/man_page.h). The .deb ships its output; `gpudoctor man | man -l -` reads it anywhere.
#pragma once

#include <string>

#include "cli/command.h"

namespace gpudoctor {

class ManCommand final : public Command {
 public:
  std::string Name() const override { return "man"; }
  std::string Summary() const override { return "Print the manual page gpudoctor(1) in roff"; }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;
};

}  // namespace gpudoctor
