// `gpudoctor explain`: what an error message or a whole log means, with this machine's facts.
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/snapshot_options.h"

namespace gpudoctor {

class ExplainCommand final : public Command {
 public:
  std::string Name() const override { return "explain"; }
  std::string Summary() const override {
    return "Explain an error message or a log, with the fix for this machine";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::vector<std::string> text_;
  std::string file_;
  std::string db_;
  bool json_ = false;
  bool here_ = false;  // --here: the log is from this machine
  SnapshotOptions source_;
};

}  // namespace gpudoctor
