// `gpudoctor fleet merge FILES...`.
#pragma once

#include <vector>

#include "cli/command.h"

namespace gpudoctor {

class FleetCommand final : public Command {
 public:
  std::string Name() const override { return "fleet"; }
  std::string Summary() const override {
    return "fleet merge FILES...: many nodes' reports, the nodes that stand out";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string action_;
  std::vector<std::string> files_;
  bool json_ = false;
  std::string threshold_ = "10";
};

}  // namespace gpudoctor
