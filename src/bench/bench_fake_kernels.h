// The benchmarks' kernels (bench_kernels.h) emulated on the CPU for the fake backend
// (gpu/fake/fake_kernels.h), so the benchmarks' timing, sweeps and result checks run end to end without a
// GPU.
#pragma once

#include "gpu/fake/fake_kernels.h"

namespace gpudoctor {

FakeKernelTable BenchFakeKernels();

}  // namespace gpudoctor
