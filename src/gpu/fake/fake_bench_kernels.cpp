// The benchmarks' kernels (bench/bench_kernels.h) emulated on the CPU by name, so the benchmarks' timing,
// sweeps and result checks run end to end without a GPU. A module compiled with GD_PLANT_WRONG, or a script
// with "corrupt": "launch", makes the triad write one wrong element; the script's corruption also makes the
// dot report twice its sum.
#include <cstring>

#include "bench/bench_kernels.h"
#include "bench/gemm_operands.h"
#include "core/strings.h"
#include "gpu/fake/fake_backend.h"
#include "gpu/numeric.h"

namespace gpudoctor {

Status FakeBackend::EmulateBenchKernel(const std::string& name, Dim3 grid, const KernelArgs& args) {
  auto need = [&](size_t count) -> Status {
    if (args.size() != count)
      return EnvError("fake launch of " + name + ": " + std::to_string(args.size()) +
                      " arguments, expected " + std::to_string(count));
    return Ok{};
  };
  auto fault = [&](const char* what) {
    return EnvError("fake launch of " + name + ": illegal address (" + what + ")");
  };
  bool wrong = plant_wrong_ || Corrupts("launch");

  for (StreamOp op : {StreamOp::kCopy, StreamOp::kMul, StreamOp::kAdd, StreamOp::kTriad}) {
    if (name != StreamKernelName(op, 1) && name != StreamKernelName(op, 4)) continue;
    if (auto s = need(5); !s) return s;
    uint64_t n = args.Raw(4);
    bool binary = op == StreamOp::kAdd || op == StreamOp::kTriad;
    auto* x = reinterpret_cast<const float*>(HostView(args.Raw(0), n * 4));
    auto* y = binary ? reinterpret_cast<const float*>(HostView(args.Raw(1), n * 4)) : x;
    auto* out = reinterpret_cast<float*>(HostView(args.Raw(2), n * 4));
    if (!x || !y || !out) return fault("stream arrays");
    float s = args.RawF32(3);
    for (uint64_t i = 0; i < n; ++i) {
      switch (op) {
        case StreamOp::kCopy:
          out[i] = x[i];
          break;
        case StreamOp::kMul:
          out[i] = s * x[i];
          break;
        case StreamOp::kAdd:
          out[i] = x[i] + y[i];
          break;
        case StreamOp::kTriad:
          out[i] = x[i] + s * y[i];
          break;
      }
    }
    if (op == StreamOp::kTriad && wrong && n >= 4) out[(n / 2) / 4 * 4] += 1.0f;
    return Ok{};
  }
  if (name == kDotKernel) {
    if (auto s = need(4); !s) return s;
    uint64_t n = args.Raw(3);
    auto* a = reinterpret_cast<const float*>(HostView(args.Raw(0), n * 4));
    auto* b = reinterpret_cast<const float*>(HostView(args.Raw(1), n * 4));
    auto* partial = reinterpret_cast<float*>(HostView(args.Raw(2), uint64_t{grid.x} * 4));
    if (!a || !b || !partial) return fault("dot arrays");
    double sum = 0;
    for (uint64_t i = 0; i < n; ++i) sum += static_cast<double>(a[i]) * b[i];
    for (uint32_t i = 0; i < grid.x; ++i) partial[i] = 0.0f;
    partial[0] = static_cast<float>(Corrupts("launch") ? 2 * sum : sum);
    return Ok{};
  }
  if (name == kInitKernel) {
    if (auto s = need(7); !s) return s;
    uint64_t n = args.Raw(6);
    float* arrays[3];
    for (int k = 0; k < 3; ++k) {
      arrays[k] = reinterpret_cast<float*>(HostView(args.Raw(static_cast<size_t>(k)), n * 4));
      if (!arrays[k]) return fault("init arrays");
    }
    for (int k = 0; k < 3; ++k) {
      float v = args.RawF32(static_cast<size_t>(3 + k));
      for (uint64_t i = 0; i < n; ++i) arrays[k][i] = v;
    }
    return Ok{};
  }
  if (name == kCheckKernel) {
    if (auto s = need(5); !s) return s;
    uint64_t n = args.Raw(1);
    auto* p = reinterpret_cast<const float*>(HostView(args.Raw(0), n * 4));
    auto* result = reinterpret_cast<uint64_t*>(HostView(args.Raw(4), 16));
    if (!p || !result) return fault("check range");
    float expected = args.RawF32(2), tolerance = args.RawF32(3);
    for (uint64_t i = 0; i < n; ++i) {
      float d = p[i] - expected;
      if (d < 0) d = -d;
      if (!(d <= tolerance)) {
        ++result[0];
        if (i < result[1]) result[1] = i;
      }
    }
    return Ok{};
  }
  if (name == kTickKernel) {
    if (auto s = need(1); !s) return s;
    auto* counter = reinterpret_cast<uint64_t*>(HostView(args.Raw(0), 8));
    if (!counter) return fault("counter");
    ++*counter;
    return Ok{};
  }
  if (name == kFillOperandKernel) {
    if (auto s = need(4); !s) return s;
    uint64_t count = args.Raw(1), seed = args.Raw(2);
    uint32_t type = static_cast<uint32_t>(args.Raw(3));
    uint8_t* p = HostView(args.Raw(0), count * (type == 0 ? 4 : 2));
    if (!p) return fault("operand");
    for (uint64_t i = 0; i < count; ++i) {
      float v = OperandValue(seed, i);
      if (type == 0) {
        std::memcpy(p + i * 4, &v, 4);
      } else {
        uint16_t h = type == 1 ? FloatToHalfBits(v) : FloatToBf16Bits(v);
        std::memcpy(p + i * 2, &h, 2);
      }
    }
    return Ok{};
  }
  return EnvError("fake launch: no emulation for kernel " + name);
}

}  // namespace gpudoctor
