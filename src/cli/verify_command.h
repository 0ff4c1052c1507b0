// `gpudoctor verify`: staged quality gates on the real GPU, each run in a worker process under a timeout.
#pragma once

#include "cli/command.h"

namespace gpudoctor {

class VerifyCommand final : public Command {
 public:
  std::string Name() const override { return "verify"; }
  std::string Summary() const override {
    return "Check the GPU really works: runtime, memory, kernels, GEMM, memory test, sustained load";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool json_ = false;
  std::string level_ = "quick";
  std::string device_;
  std::string backend_ = "auto";
  std::string memtest_fraction_;
  std::string sustain_seconds_;
  // Hidden, for tests of the tool itself.
  std::string inject_ = "none";
  std::string fake_script_;
  std::string gate_timeout_;
};

}  // namespace gpudoctor
