// What `gpudoctor verify` found: the gates' results, the device they ran on and the verdict. Its own header
// so that the readers (text, JSON, HTML, bench's device choice) compile without the runner and its executors.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gates/gate_types.h"
#include "gpu/backend.h"

namespace gpudoctor {

struct VerifyReport {
  std::string tool_version;  // the gpudoctor that ran it
  std::string backend;       // "cuda", "hip", "fake", "" when none loaded
  std::string runtime_version;
  VerifyLevel level = VerifyLevel::kQuick;
  std::optional<DeviceInfo> device;  // the device the gates ran on
  std::vector<DeviceInfo> devices;   // every device the runtime sees
  std::vector<BackendLibrary> libraries;
  std::vector<GateResult> gates;
  std::vector<std::string> findings;
  std::string advice;  // what to install when no runtime was found
  std::string inject;  // the planted fault, "none" normally
  double elapsed_ms = 0;
  int exit_code = 0;  // 0 all passed, 1 a gate failed, 2 no usable GPU or runtime
};

}  // namespace gpudoctor
