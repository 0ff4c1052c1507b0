// `gpudoctor setup`: plans the environment check's fixes call for (printed, nothing changed), or with
// --apply carries it out and proves it with check --live and verify --level quick (docs/setup.md).
#pragma once

#include "cli/command.h"
#include "cli/snapshot_options.h"
#include "setup/setup_plan.h"

namespace gpudoctor {

class SetupCommand final : public Command {
 public:
  std::string Name() const override { return "setup"; }
  std::string Summary() const override {
    return "Plan (and with --apply make) the Python environment check's fixes call for: PyTorch for this GPU";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string dir_;
  bool json_ = false;
  bool apply_ = false;
  bool repair_ = false;
  std::string env_;
  std::string device_;
  std::string installer_ = "auto";
  std::string local_index_;
  bool allow_foreign_ = false;
  bool no_post_check_ = false;
  std::string shell_ = "auto";
  std::string db_;
  SnapshotOptions source_;

  int PostCheckIfUseful(const CliContext& ctx, const Snapshot& snap, const std::string& environment);
  int ApplySteps(const CliContext& ctx, const SetupPlan& plan, const Snapshot& snap, const std::string& uv,
                 const std::string& conda_exe);
};

}  // namespace gpudoctor
