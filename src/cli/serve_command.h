// `gpudoctor serve`.
#pragma once

#include "cli/command.h"

namespace gpudoctor {

class ServeCommand final : public Command {
 public:
  std::string Name() const override { return "serve"; }
  std::string Summary() const override {
    return "Serve GPU metrics to Prometheus (--prometheus [ADDR], default 127.0.0.1:9400)";
  }
  std::string Description() const override;
  void DefineFlags(FlagSet& flags) override;
  int Run(const CliContext& ctx) override;

 private:
  bool prometheus_ = false;
  std::string address_ = "127.0.0.1:9400";
  bool listen_all_ = false;
  std::string sysroot_;
};

}  // namespace gpudoctor
