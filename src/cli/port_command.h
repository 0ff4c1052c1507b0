// `gpudoctor port`: CUDA source to HIP, with a report of what needs a human.
#pragma once

#include <optional>
#include <string>

#include "cli/command.h"
#include "core/result.h"
#include "knowledge/version.h"

namespace gpudoctor {

struct PortReport;

class PortCommand final : public Command {
 public:
  std::string Name() const override { return "port"; }
  std::string Summary() const override {
    return "Translate CUDA source to HIP and report what needs a human";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  int Interrupted(const CliContext& ctx, PortReport& report) const;
  Result<std::optional<Version>> ChosenHipVersion(const CliContext& ctx) const;

  std::string input_;
  std::string output_;
  std::string hip_version_;
  std::string threads_;
  std::string db_;
  std::string offload_arch_ = "gfx1030";
  bool in_place_ = false;
  bool backup_ = false;
  bool examine_ = false;
  bool json_ = false;
  bool launch_macro_ = false;
  bool force_ = false;
  bool skip_existing_ = false;
  bool check_build_ = false;
};

}  // namespace gpudoctor
