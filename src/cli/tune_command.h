// `gpudoctor tune`: the guides' training advice measured in the user's own PyTorch (docs/tune.md).
#pragma once

#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/snapshot_options.h"
#include "core/result.h"
#include "rules/shell.h"
#include "tune/tune_advice.h"
#include "tune/tune_runner.h"

namespace gpudoctor {

class TuneCommand final : public Command {
 public:
  std::string Name() const override { return "tune"; }
  std::string Summary() const override {
    return "Measure AMP, channels_last, cudnn.benchmark and batch size in your own PyTorch";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  SnapshotOptions snapshot_;
  bool quick_ = false;
  bool json_ = false;
  std::string device_ = "0";
  std::string timeout_;
  std::string apply_;
  std::vector<std::string> models_;
  std::string model_file_;
  std::string shell_ = "auto";
  std::string max_batch_;
  bool exact_ = false;
  std::string compile_ = "default";
  bool perf_level_ = false;
  bool restore_ = false;
  std::string root_ = "/";  // hidden --root: where /sys and the state file are (tests)

  int Restore(const CliContext& ctx);
  int ApplyPerfLevel(const CliContext& ctx, const Snapshot& snap);
  Result<TuneOptions> ReadOptions() const;
  int WriteApply(const CliContext& ctx, const TuneAdvice& advice, Shell shell, const Snapshot& snap);
};

}  // namespace gpudoctor
