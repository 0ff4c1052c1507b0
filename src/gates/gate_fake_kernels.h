// The gates' kernels (kernels.h) emulated on the CPU for the fake backend (gpu/fake/fake_kernels.h), so the
// gates run end to end without a GPU.
#pragma once

#include "gpu/fake/fake_kernels.h"

namespace gpudoctor {

FakeKernelTable GateFakeKernels();

}  // namespace gpudoctor
