// The benchmarks' kernels on the fake backend (see bench_fake_kernels.h). A module compiled with
// GD_PLANT_WRONG, or a script with "corrupt": "launch", makes the triad write one wrong element; the
// script's corruption also makes the dot report twice its sum.
#include "bench/bench_fake_kernels.h"

#include <cstring>

#include "bench/bench_kernels.h"
#include "bench/gemm_operands.h"
#include "gpu/numeric.h"

namespace gpudoctor {
namespace {

Status Stream(StreamOp op, const FakeLaunch& l) {
  if (auto s = l.Need(5); !s) return s;
  uint64_t n = l.args.Raw(4);
  bool binary = op == StreamOp::kAdd || op == StreamOp::kTriad;
  auto* x = reinterpret_cast<const float*>(l.View(0, n * 4));
  auto* y = binary ? reinterpret_cast<const float*>(l.View(1, n * 4)) : x;
  auto* out = reinterpret_cast<float*>(l.View(2, n * 4));
  if (!x || !y || !out) return l.Fault("stream arrays");
  float s = l.args.RawF32(3);
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
  if (op == StreamOp::kTriad && (l.plant_wrong || l.corrupt) && n >= 4) out[(n / 2) / 4 * 4] += 1.0f;
  return Ok{};
}

Status Dot(const FakeLaunch& l) {
  if (auto s = l.Need(4); !s) return s;
  uint64_t n = l.args.Raw(3);
  auto* a = reinterpret_cast<const float*>(l.View(0, n * 4));
  auto* b = reinterpret_cast<const float*>(l.View(1, n * 4));
  auto* partial = reinterpret_cast<float*>(l.View(2, uint64_t{l.grid.x} * 4));
  if (!a || !b || !partial) return l.Fault("dot arrays");
  double sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += static_cast<double>(a[i]) * b[i];
  for (uint32_t i = 0; i < l.grid.x; ++i) partial[i] = 0.0f;
  partial[0] = static_cast<float>(l.corrupt ? 2 * sum : sum);
  return Ok{};
}

Status Init(const FakeLaunch& l) {
  if (auto s = l.Need(7); !s) return s;
  uint64_t n = l.args.Raw(6);
  float* arrays[3];
  for (size_t k = 0; k < 3; ++k) {
    arrays[k] = reinterpret_cast<float*>(l.View(k, n * 4));
    if (!arrays[k]) return l.Fault("init arrays");
  }
  for (size_t k = 0; k < 3; ++k) {
    float v = l.args.RawF32(3 + k);
    for (uint64_t i = 0; i < n; ++i) arrays[k][i] = v;
  }
  return Ok{};
}

Status Check(const FakeLaunch& l) {
  if (auto s = l.Need(5); !s) return s;
  uint64_t n = l.args.Raw(1);
  auto* p = reinterpret_cast<const float*>(l.View(0, n * 4));
  auto* result = reinterpret_cast<uint64_t*>(l.View(4, 16));
  if (!p || !result) return l.Fault("check range");
  float expected = l.args.RawF32(2), tolerance = l.args.RawF32(3);
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

Status Tick(const FakeLaunch& l) {
  if (auto s = l.Need(1); !s) return s;
  auto* counter = reinterpret_cast<uint64_t*>(l.View(0, 8));
  if (!counter) return l.Fault("counter");
  ++*counter;
  return Ok{};
}

Status FillOperand(const FakeLaunch& l) {
  if (auto s = l.Need(4); !s) return s;
  uint64_t count = l.args.Raw(1), seed = l.args.Raw(2);
  uint32_t type = static_cast<uint32_t>(l.args.Raw(3));
  uint8_t* p = l.View(0, count * (type == 0 ? 4 : 2));
  if (!p) return l.Fault("operand");
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

}  // namespace

FakeKernelTable BenchFakeKernels() {
  FakeKernelTable table = {{kDotKernel, Dot},
                           {kInitKernel, Init},
                           {kCheckKernel, Check},
                           {kTickKernel, Tick},
                           {kFillOperandKernel, FillOperand}};
  for (StreamOp op : {StreamOp::kCopy, StreamOp::kMul, StreamOp::kAdd, StreamOp::kTriad})
    for (int width : {1, 4})
      table[StreamKernelName(op, width)] = [op](const FakeLaunch& l) { return Stream(op, l); };
  return table;
}

}  // namespace gpudoctor
