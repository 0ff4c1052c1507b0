// `gpudoctor topo`.
#pragma once

#include "cli/command.h"
#include "cli/snapshot_options.h"

namespace gpudoctor {

class TopoCommand final : public Command {
 public:
  std::string Name() const override { return "topo"; }
  std::string Summary() const override {
    return "How the GPUs are connected: NVLink, XGMI, PCIe switches, NUMA nodes";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool json_ = false;
  bool links_ = false;
  SnapshotOptions source_;
};

}  // namespace gpudoctor
