// The fake backend's arithmetic: the gates' kernels (gates/kernels.h) emulated on the CPU by name, and a
// naive GEMM with fp32 accumulation, so results computed "on the device" can be checked as on a real one.
#include <cstring>
#include <thread>

#include "gates/kernels.h"
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
  auto need = [&](size_t count) -> Status {
    if (args.size() != count)
      return EnvError("fake launch of " + name + ": " + std::to_string(args.size()) +
                      " arguments, expected " + std::to_string(count));
    return Ok{};
  };
  auto fault = [&](const char* what) {
    return EnvError("fake launch of " + name + ": illegal address (" + what + ")");
  };

  if (name == kTriadKernel) {
    if (auto s = need(5); !s) return s;
    uint64_t n = args.Raw(4);
    auto* a = reinterpret_cast<float*>(HostView(args.Raw(0), n * 4));
    auto* b = reinterpret_cast<float*>(HostView(args.Raw(1), n * 4));
    auto* c = reinterpret_cast<float*>(HostView(args.Raw(2), n * 4));
    if (!a || !b || !c) return fault("triad arrays");
    float s = args.RawF32(3);
    for (uint64_t i = 0; i < n; ++i) c[i] = a[i] + s * b[i];
    if ((plant_wrong_ || Corrupts("launch")) && n > 0) c[n / 2] += 1.0f;
    return Ok{};
  }
  if (name == kMemFillKernel || name == kMemCheckKernel || name == kMemCheckInvertKernel) {
    bool invert = name == kMemCheckInvertKernel;
    if (auto s = need(name == kMemFillKernel ? 4 : (invert ? 4 : 5)); !s) return s;
    uint64_t n = args.Raw(1);
    auto* p = reinterpret_cast<uint32_t*>(HostView(args.Raw(0), n * 4));
    if (!p) return fault("memory test range");
    uint32_t pattern = static_cast<uint32_t>(args.Raw(2));
    uint32_t mode = invert ? kMemModePattern : static_cast<uint32_t>(args.Raw(3));
    auto expected = [&](uint64_t i) {
      return mode == kMemModeAddress ? (AddressWord(i) ^ pattern) : pattern;
    };
    if (name == kMemFillKernel) {
      for (uint64_t i = 0; i < n; ++i) p[i] = expected(i);
      if (Corrupts("launch") && n > 0) p[n / 3] ^= 0x4;
      return Ok{};
    }
    auto* result = reinterpret_cast<uint64_t*>(HostView(args.Raw(invert ? 3 : 4), 16));
    if (!result) return fault("result buffer");
    for (uint64_t i = 0; i < n; ++i) {
      if (p[i] != expected(i)) {
        ++result[0];
        if (i < result[1]) result[1] = i;
      }
      if (invert) p[i] = ~pattern;
    }
    return Ok{};
  }
  if (name == kSpinKernel) {
    if (auto s = need(1); !s) return s;
    auto* flag = reinterpret_cast<volatile uint32_t*>(HostView(args.Raw(0), 4));
    if (!flag) return fault("spin flag");
    while (*flag == 0u)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));  // as the GPU would: forever
    return Ok{};
  }
  return EmulateBenchKernel(name, grid, args);
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
