// The gates' kernels on the fake backend (see gate_fake_kernels.h). A module compiled with GD_PLANT_WRONG,
// or a script with "corrupt": "launch", makes the triad write one wrong element; the script's corruption
// also flips a bit of the memory test's fill.
#include "gates/gate_fake_kernels.h"

#include <chrono>
#include <thread>

#include "gates/kernels.h"

namespace gpudoctor {
namespace {

Status Triad(const FakeLaunch& l) {
  if (auto s = l.Need(5); !s) return s;
  uint64_t n = l.args.Raw(4);
  auto* a = reinterpret_cast<float*>(l.View(0, n * 4));
  auto* b = reinterpret_cast<float*>(l.View(1, n * 4));
  auto* c = reinterpret_cast<float*>(l.View(2, n * 4));
  if (!a || !b || !c) return l.Fault("triad arrays");
  float s = l.args.RawF32(3);
  for (uint64_t i = 0; i < n; ++i) c[i] = a[i] + s * b[i];
  if ((l.plant_wrong || l.corrupt) && n > 0) c[n / 2] += 1.0f;
  return Ok{};
}

// The memory test's three kernels: fill, check, and check-then-invert.
Status MemoryTest(const FakeLaunch& l) {
  bool fill = l.name == kMemFillKernel;
  bool invert = l.name == kMemCheckInvertKernel;
  if (auto s = l.Need(fill || invert ? 4 : 5); !s) return s;
  uint64_t n = l.args.Raw(1);
  auto* p = reinterpret_cast<uint32_t*>(l.View(0, n * 4));
  if (!p) return l.Fault("memory test range");
  uint32_t pattern = static_cast<uint32_t>(l.args.Raw(2));
  uint32_t mode = invert ? kMemModePattern : static_cast<uint32_t>(l.args.Raw(3));
  auto expected = [&](uint64_t i) { return mode == kMemModeAddress ? (AddressWord(i) ^ pattern) : pattern; };
  if (fill) {
    for (uint64_t i = 0; i < n; ++i) p[i] = expected(i);
    if (l.corrupt && n > 0) p[n / 3] ^= 0x4;
    return Ok{};
  }
  auto* result = reinterpret_cast<uint64_t*>(l.View(invert ? 3 : 4, 16));
  if (!result) return l.Fault("result buffer");
  for (uint64_t i = 0; i < n; ++i) {
    if (p[i] != expected(i)) {
      ++result[0];
      if (i < result[1]) result[1] = i;
    }
    if (invert) p[i] = ~pattern;
  }
  return Ok{};
}

Status Spin(const FakeLaunch& l) {
  if (auto s = l.Need(1); !s) return s;
  auto* flag = reinterpret_cast<volatile uint32_t*>(l.View(0, 4));
  if (!flag) return l.Fault("spin flag");
  while (*flag == 0u)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // as the GPU would: forever
  return Ok{};
}

}  // namespace

FakeKernelTable GateFakeKernels() {
  return {{kTriadKernel, Triad},
          {kMemFillKernel, MemoryTest},
          {kMemCheckKernel, MemoryTest},
          {kMemCheckInvertKernel, MemoryTest},
          {kSpinKernel, Spin}};
}

}  // namespace gpudoctor
