// `gpudoctor targets`: the GPU code compiled into one library, or the gfx targets of a rocBLAS /
// hipBLASLt kernel folder, read from the file headers; for checking what a framework was built for.
#pragma once

#include <string>

#include "cli/command.h"

namespace gpudoctor {

class TargetsCommand final : public Command {
 public:
  std::string Name() const override { return "targets"; }
  std::string Summary() const override {
    return "List the GPU targets compiled into a library or kernel folder";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  std::string path_;
  bool json_ = false;
  std::string wheel_toml_;  // --wheel-toml FILE|DIR
  std::string checked_;     // --checked YYYY-MM-DD, default today (UTC)
};

}  // namespace gpudoctor
