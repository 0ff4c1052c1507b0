// The GPU kernels the benchmarks run, as source compiled at run time (NVRTC / hiprtc) for the GPU at hand, in
// the one dialect both compilers take (extern "C" entry points, builtins only, no headers). The fake backend
// (gpu/fake/) emulates each entry point by name, so the names and argument lists below are a contract.
//
// Device-memory kernels, BabelStream's five (fp32; a, b, c arrays of n elements; s a scalar):
//   copy   c[i] = a[i]              2 x 4 bytes moved per element
//   mul    b[i] = s * c[i]          2 x 4 bytes
//   add    c[i] = a[i] + b[i]       3 x 4 bytes
//   triad  a[i] = b[i] + s * c[i]   3 x 4 bytes
//   dot    sum += a[i] * b[i]       2 x 4 bytes
// The four element-wise ones share one signature, (const float* x, const float* y, float* out, float s,
// u64 n), as out[i] = f(x[i], y[i]): copy out = x, mul out = s * x, add out = x + y, triad out = x + s * y
// (copy and mul never read y). Each comes in two shapes: "_u1", one 16-byte group of four floats per
// thread, and "_u4", four such groups per thread, all loads issued before the first store; 256 threads a
// block. The benchmark times both at the largest size and keeps the faster one.
//   gd_bench_dot(const float* a, const float* b, float* partial, u64 n)   grid-stride, one float per block
//   gd_bench_init(float* a, float* b, float* c, float va, float vb, float vc, u64 n)
//   gd_bench_check(const float* p, u64 n, float expected, float tolerance, u64* result)
//       counts elements with |p[i] - expected| > tolerance (NaN counts); result[0] += count,
//       result[1] = min(result[1], first bad index) (start it at ~0)
// Launch latency, a kernel that does next to nothing but leaves a trace that it ran:
//   gd_bench_tick(u64* counter)                                          thread 0 of block 0: ++*counter
// GEMM operands, written on the device so no host has to generate gigabytes of them:
//   gd_bench_fill_operand(void* p, u64 count, u64 seed, u32 type)        p[i] = OperandValue(seed, i)
//       stored as fp32 (type 0), fp16 (1) or bf16 (2), rounded to nearest even (bench/gemm_operands.h has
//       the same function on the CPU, bit for bit).
#pragma once

#include <string>

namespace gpudoctor {

inline constexpr const char* kBenchProgramName = "gpudoctor_bench.cu";

enum class StreamOp { kCopy, kMul, kAdd, kTriad };
// "gd_bench_triad_u4".
std::string StreamKernelName(StreamOp op, int groups_per_thread);
inline constexpr int kStreamBlock = 256;

inline constexpr const char* kDotKernel = "gd_bench_dot";
inline constexpr const char* kInitKernel = "gd_bench_init";
inline constexpr const char* kCheckKernel = "gd_bench_check";
inline constexpr const char* kTickKernel = "gd_bench_tick";
inline constexpr const char* kFillOperandKernel = "gd_bench_fill_operand";

// -D that plants one wrong element in the triad's output (tests of the checks; bench --inject wrong-result).
inline constexpr const char* kBenchPlantWrongDefine = "GD_PLANT_WRONG=1";

const std::string& BenchKernelSource();

}  // namespace gpudoctor
