// `gpudoctor gather DIR`.
#pragma once

#include "cli/command.h"

namespace gpudoctor {

class GatherCommand final : public Command {
 public:
  std::string Name() const override { return "gather"; }
  std::string Summary() const override {
    return "Record this machine's GPU-related files into a folder (for bug reports)";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string dest_;
  std::string sysroot_;  // "": this machine
};

}  // namespace gpudoctor
