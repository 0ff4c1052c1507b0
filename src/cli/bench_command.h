// `gpudoctor bench`: how fast this GPU really is (memory, transfers, GEMM, launch latency), each figure
// checked and set beside the card's peak, each benchmark group in a worker process under a time limit.
#pragma once

#include "cli/command.h"

namespace gpudoctor {

class BenchCommand final : public Command {
 public:
  std::string Name() const override { return "bench"; }
  std::string Summary() const override {
    return "Measure memory bandwidth, transfers, GEMM and launch latency against the card's spec";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool quick_ = false;
  bool json_ = false;
  bool csv_ = false;
  std::string only_;
  std::string device_;
  std::string backend_ = "auto";
  std::string db_;
  // Hidden, for tests of the tool itself.
  std::string inject_ = "none";
  std::string fake_script_;
  std::string limit_;
};

}  // namespace gpudoctor
