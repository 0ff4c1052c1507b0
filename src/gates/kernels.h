// The GPU kernels the gates run, as source compiled at run time (NVRTC / hiprtc) for the GPU at hand, so one
// binary serves every architecture. The source is one dialect both compilers take: extern "C" entry points
// (no name mangling), builtins only, no headers. The fake backend (gpu/fake/) emulates each entry point by
// name, so the names and argument lists below are a contract.
#pragma once

#include <string>

namespace gpudoctor {

inline constexpr const char* kKernelProgramName = "gpudoctor_gates.cu";

// Entry points and their arguments (each argument one KernelArgs slot, in order):
//   gd_triad(const float* a, const float* b, float* c, float s, u64 n)       c[i] = a[i] + s * b[i]
//   gd_mem_fill(u32* p, u64 n, u32 pattern, u32 mode)                        p[i] = Expected(i)
//   gd_mem_check(const u32* p, u64 n, u32 pattern, u32 mode, u64* result)    counts p[i] != Expected(i)
//   gd_mem_check_invert(u32* p, u64 n, u32 pattern, u64* result)             checks pattern, writes ~pattern
//   gd_spin(volatile u32* flag)                                              loops until *flag != 0
// Expected(i) is `pattern` in mode 0 and AddressWord(i) ^ pattern in mode 1 (address in address).
// result[0] counts mismatches; result[1] holds the lowest mismatching index (start it at ~0).
inline constexpr const char* kTriadKernel = "gd_triad";
inline constexpr const char* kMemFillKernel = "gd_mem_fill";
inline constexpr const char* kMemCheckKernel = "gd_mem_check";
inline constexpr const char* kMemCheckInvertKernel = "gd_mem_check_invert";
inline constexpr const char* kSpinKernel = "gd_spin";

// -D name that plants a wrong element in gd_triad's output (for the planted-fault test).
inline constexpr const char* kPlantWrongDefine = "GD_PLANT_WRONG=1";

inline constexpr unsigned kMemModePattern = 0;
inline constexpr unsigned kMemModeAddress = 1;

const std::string& GateKernelSource();

// The word stored at index `i` by the address-in-address pattern (the same formula as in the source).
inline unsigned AddressWord(unsigned long long i) {
  return static_cast<unsigned>(i ^ (i >> 32)) * 2654435761u;
}

}  // namespace gpudoctor
