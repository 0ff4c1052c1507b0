// `gpudoctor report -o report.html`: the machine, the check findings and saved verify and bench results
// as one self-contained HTML page.
#pragma once

#include "cli/command.h"
#include "cli/snapshot_options.h"

namespace gpudoctor {

class ReportCommand final : public Command {
 public:
  std::string Name() const override { return "report"; }
  std::string Summary() const override {
    return "One HTML page: the machine, the check findings, verify gates and bench charts";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string output_;
  std::string verify_;
  std::string bench_;
  std::string tune_;
  std::string shell_ = "auto";
  std::string db_;
  bool force_ = false;
  SnapshotOptions source_;
};

}  // namespace gpudoctor
