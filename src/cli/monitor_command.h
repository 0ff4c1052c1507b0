// `gpudoctor monitor`.
#pragma once

#include "cli/command.h"

namespace gpudoctor {

class MonitorCommand final : public Command {
 public:
  std::string Name() const override { return "monitor"; }
  std::string Summary() const override {
    return "Watch every GPU live: memory, utilization, power, temperature, clocks (text, JSON lines, CSV)";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string interval_ = "1";
  std::string count_;
  bool once_ = false;
  bool json_ = false;
  bool csv_ = false;
  std::string sysroot_;
};

}  // namespace gpudoctor
