// `gpudoctor collectives`.
#pragma once

#include "cli/command.h"

namespace gpudoctor {

// The text of the numeric flags, as given ("" when not).
struct CollectivesFlagText {
  std::string min_bytes, max_bytes, p2p_bytes, factor, iters, warmup, gpus, timeout;
};

class CollectivesCommand final : public Command {
 public:
  std::string Name() const override { return "collectives"; }
  std::string Summary() const override {
    return "NCCL/RCCL collectives (algbw, busbw, checked data) and the GPU-to-GPU copy matrix; mpirun/srun "
           "aware";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool json_ = false;
  bool quick_ = false;
  bool no_p2p_ = false;
  bool p2p_only_ = false;
  std::string ops_ = "all";
  std::string min_bytes_;
  std::string max_bytes_;
  std::string factor_;
  std::string iters_;
  std::string warmup_;
  std::string gpus_;
  std::string p2p_bytes_;
  std::string timeout_;
  std::string backend_ = "auto";
  std::string launcher_ = "auto";
};

}  // namespace gpudoctor
