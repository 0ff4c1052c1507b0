// How a kernel is emulated on the fake backend: the code that owns a kernel (gates/gate_fake_kernels.cpp,
// bench/bench_fake_kernels.cpp) gives the fake backend a table from the kernel's name to a CPU function,
// so gpu/fake knows no kernel by name and a new kernel brings its own emulation. The worker job that runs
// the kernels hands the table over (BackendInputs::fake_kernels).
#pragma once

#include <functional>
#include <map>
#include <string>

#include "gpu/backend.h"

namespace gpudoctor {

class FakeBackend;

// One launch, as its emulation sees it.
struct FakeLaunch {
  const std::string& name;
  Dim3 grid;
  const KernelArgs& args;
  FakeBackend& device;
  bool plant_wrong = false;  // the module was compiled with GD_PLANT_WRONG
  bool corrupt = false;      // the script says "corrupt": "launch"

  // An error unless the launch has `count` arguments.
  Status Need(size_t count) const;
  // The bytes behind argument `arg` (a device pointer) for `bytes`; nullptr when that range is not allocated.
  uint8_t* View(size_t arg, uint64_t bytes) const;
  // The error of a launch that touched memory it does not own.
  Error Fault(const char* what) const;
};

using FakeKernel = std::function<Status(const FakeLaunch& launch)>;
using FakeKernelTable = std::map<std::string, FakeKernel>;

}  // namespace gpudoctor
