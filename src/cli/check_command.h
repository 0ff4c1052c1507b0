// `gpudoctor check`: the three-layer doctor (hardware, driver/runtime, framework, plus the environment).
#pragma once

#include "cli/command.h"
#include "cli/snapshot_options.h"

namespace gpudoctor {

class CheckCommand final : public Command {
 public:
  std::string Name() const override { return "check"; }
  std::string Summary() const override {
    return "What stops deep learning on this machine, layer by layer, with the fix for each problem";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool json_ = false;
  bool live_ = false;
  std::string shell_ = "auto";
  std::string db_;
  std::string explain_;
  std::string
      today_;  // "YYYY-MM-DD" instead of the clock's day for knowledge.stale (reproducible runs, tests)
  SnapshotOptions source_;
};

}  // namespace gpudoctor
