// The fake backend's arithmetic: a launch runs the emulation its kernel's owner handed over (fake_kernels.h),
// and a GEMM is computed naively with fp32 accumulation, so results computed "on the device" can be checked
// as on a real one.
#include <cstring>

#include "gpu/fake/fake_backend.h"
#include "gpu/numeric.h"

namespace gpudoctor {
namespace {

float LoadAs(GemmType t, const uint8_t* base, uint64_t index) {
  if (t == GemmType::kF32) {
    float f;
    std::memcpy(&f, base + index * 4, 4);
    return f;
  }
  uint16_t h;
  std::memcpy(&h, base + index * 2, 2);
  return t == GemmType::kF16 ? HalfBitsToFloat(h) : Bf16BitsToFloat(h);
}

void StoreAs(GemmType t, uint8_t* base, uint64_t index, float v) {
  if (t == GemmType::kF32) {
    std::memcpy(base + index * 4, &v, 4);
    return;
  }
  uint16_t h = t == GemmType::kF16 ? FloatToHalfBits(v) : FloatToBf16Bits(v);
  std::memcpy(base + index * 2, &h, 2);
}

}  // namespace

Status FakeBackend::EmulateKernel(const std::string& name, Dim3 grid, const KernelArgs& args) {
  auto it = kernels_.find(name);
  if (it == kernels_.end()) return EnvError("fake launch: no emulation for kernel " + name);
  return it->second(FakeLaunch{name, grid, args, *this, plant_wrong_, Corrupts("launch")});
}

Status FakeLaunch::Need(size_t count) const {
  if (args.size() != count)
    return EnvError("fake launch of " + name + ": " + std::to_string(args.size()) + " arguments, expected " +
                    std::to_string(count));
  return Ok{};
}

uint8_t* FakeLaunch::View(size_t arg, uint64_t bytes) const {
  return device.HostView(args.Raw(arg), bytes);
}

Error FakeLaunch::Fault(const char* what) const {
  return EnvError("fake launch of " + name + ": illegal address (" + what + ")");
}

Status FakeBackend::Gemm(const GemmRequest& r) {
  if (!device_) return InternalError("no fake device open");
  std::string op = std::string("gemm_") + (r.type == GemmType::kF32 && r.tf32 ? "tf32" : ToString(r.type));
  if (auto s = Scripted(op); !s) return s;
  size_t es = ElementBytes(r.type);
  const uint8_t* a = HostView(r.a, static_cast<uint64_t>(r.m) * r.k * es);
  const uint8_t* b = HostView(r.b, static_cast<uint64_t>(r.k) * r.n * es);
  uint8_t* c = HostView(r.c, static_cast<uint64_t>(r.m) * r.n * es);
  if (!a || !b || !c) return EnvError("fake " + op + ": invalid device range");
  // Column-major: A(i, p) at i + p * m, B(p, j) at p + j * k, C(i, j) at i + j * m.
  std::vector<float> fa(static_cast<size_t>(r.m) * r.k), fb(static_cast<size_t>(r.k) * r.n);
  for (size_t i = 0; i < fa.size(); ++i) fa[i] = LoadAs(r.type, a, i);
  for (size_t i = 0; i < fb.size(); ++i) fb[i] = LoadAs(r.type, b, i);
  std::vector<float> column(static_cast<size_t>(r.m));
  for (int j = 0; j < r.n; ++j) {
    std::fill(column.begin(), column.end(), 0.0f);
    for (int p = 0; p < r.k; ++p) {
      float bv = fb[static_cast<size_t>(p) + static_cast<size_t>(j) * r.k];
      const float* acol = fa.data() + static_cast<size_t>(p) * r.m;
      for (int i = 0; i < r.m; ++i) column[static_cast<size_t>(i)] += acol[i] * bv;
    }
    for (int i = 0; i < r.m; ++i)
      StoreAs(r.type, c, static_cast<uint64_t>(i) + static_cast<uint64_t>(j) * r.m,
              column[static_cast<size_t>(i)]);
  }
  // Every 16th element wrong: enough that the gates' sampled check cannot miss it.
  if (Corrupts(op))
    for (uint64_t i = 0; i < static_cast<uint64_t>(r.m) * r.n; i += 16)
      StoreAs(r.type, c, i, LoadAs(r.type, c, i) * 2.0f + 1.0f);
  return Ok{};
}

}  // namespace gpudoctor
