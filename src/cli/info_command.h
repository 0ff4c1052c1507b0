// `gpudoctor info`.
#pragma once

#include "cli/command.h"
#include "cli/snapshot_options.h"

namespace gpudoctor {

class InfoCommand final : public Command {
 public:
  std::string Name() const override { return "info"; }
  std::string Summary() const override {
    return "What is on this machine: OS, CPU, memory, GPUs, drivers, runtimes";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool json_ = false;
  bool force_ = false;
  std::string save_;
  SnapshotOptions source_;
};

}  // namespace gpudoctor
