// The memory test: a chosen share of VRAM (--memtest-fraction) written and read back by GPU kernels with the
// classic patterns of memtest86 and cuda_memtest: address in address (each word holds a hash of its own
// index, which catches address-line faults), moving inversions (a pattern checked and inverted in place,
// then the inverse checked) and walking ones (one bit set, moved across the word).
#include <algorithm>
#include <cstring>
#include <vector>

#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/kernels.h"

namespace gpudoctor {
namespace {

struct Pass {
  std::string name;
  enum Kind { kAddress, kInversion, kWalkingOne } kind;
  uint32_t pattern;
};

std::vector<Pass> PassesFor(VerifyLevel level) {
  std::vector<Pass> passes = {{"address in address", Pass::kAddress, 0}};
  std::vector<uint32_t> inversions = {0x00000000u, 0x55555555u};
  if (level == VerifyLevel::kLong) inversions.insert(inversions.end(), {0x33333333u, 0x0f0f0f0fu});
  for (uint32_t p : inversions) passes.push_back({"moving inversions 0x" + Hex(p, 8), Pass::kInversion, p});
  int bits = level == VerifyLevel::kQuick ? 2 : level == VerifyLevel::kStandard ? 8 : 32;
  for (int i = 0; i < bits; ++i) {
    int bit = bits == 32 ? i : (i * 31) / (bits - 1);
    passes.push_back({"walking ones bit " + std::to_string(bit), Pass::kWalkingOne, 1u << bit});
  }
  return passes;
}

struct Kernels {
  FunctionId fill, check, check_invert;
};

// How much to test: the level's fraction of the memory, within what is free less a margin, whole 2 MiB.
uint64_t TestedBytes(const DeviceMemory& mem, const GateOptions& options) {
  double fraction = std::clamp(EffectiveMemtestFraction(options), 0.0, 0.95);
  uint64_t bytes = static_cast<uint64_t>(static_cast<double>(mem.total_bytes) * fraction);
  bytes = std::min<uint64_t>(
      bytes, mem.free_bytes > (64ull << 20) ? mem.free_bytes - (64ull << 20) : mem.free_bytes / 2);
  bytes = bytes / (2ull << 20) * (2ull << 20);
  if (bytes < (2ull << 20)) bytes = std::min<uint64_t>(mem.free_bytes / 2, 1ull << 20) / 4 * 4;
  return bytes;
}

// The failed result of a pass that found `count` bad words, the first at word `first`.
GateResult BadWords(uint64_t count, uint64_t first, const std::string& pass, uint64_t bytes) {
  GateResult r;
  r.gate = "memtest";
  r.status = GateStatus::kFail;
  r.summary = std::to_string(count) + " bad words in pass " + pass + "; first at byte offset 0x" +
              Hex(first * 4, 1) + " of the " + FormatBytes(bytes) + " tested";
  r.hint =
      "device memory is faulty: check `nvidia-smi -q -d ECC,ROW_REMAPPER` or `amd-smi metric --ecc`, and "
      "contact the vendor if errors repeat";
  return r;
}

}  // namespace

GateResult RunMemtestGate(GateContext& ctx) {
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("memtest", s.error());
  auto module = ctx.backend.CompileModule(GateKernelSource(), kKernelProgramName, {});
  if (!module) return FailedGate("memtest", module.error());
  Kernels k{};
  for (auto [slot, name] : {std::pair{&k.fill, kMemFillKernel}, std::pair{&k.check, kMemCheckKernel},
                            std::pair{&k.check_invert, kMemCheckInvertKernel}}) {
    auto fn = ctx.backend.GetFunction(*module, name);
    if (!fn) return FailedGate("memtest", fn.error());
    *slot = *fn;
  }
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate("memtest", mem.error());
  uint64_t bytes = TestedBytes(*mem, ctx.options);
  if (bytes < 4) return FailedGate("memtest", EnvError("no free device memory to test"));
  uint64_t words = bytes / 4;
  auto area = AllocateBuffer(ctx.backend, bytes);
  if (!area) return FailedGate("memtest", area.error().With("allocating the tested area"));
  auto result = AllocateBuffer(ctx.backend, 16);
  if (!result) return FailedGate("memtest", result.error());

  DevicePtr p = area->get();
  Dim3 grid = GridFor(words);
  auto launch = [&](FunctionId fn, const KernelArgs& args) -> Status {
    if (auto s = ctx.backend.Launch(fn, grid, kBlock256, args); !s) return s;
    return ctx.backend.Synchronize();
  };
  auto check = [&](FunctionId fn, const KernelArgs& args) -> Result<std::pair<uint64_t, uint64_t>> {
    const uint64_t init[2] = {0, ~0ull};
    if (auto s = ctx.backend.CopyToDevice(result->get(), init, sizeof init); !s) return s.error();
    if (auto s = launch(fn, args); !s) return s.error();
    uint64_t out[2] = {0, 0};
    if (auto s = ctx.backend.CopyToHost(out, result->get(), sizeof out); !s) return s.error();
    return std::pair<uint64_t, uint64_t>{out[0], out[1]};
  };

  auto start = std::chrono::steady_clock::now();
  uint64_t traffic = 0;  // bytes read plus written
  std::vector<Pass> passes = PassesFor(ctx.options.level);
  for (const Pass& pass : passes) {
    Result<std::pair<uint64_t, uint64_t>> outcome = std::pair<uint64_t, uint64_t>{0, 0};
    uint32_t mode = pass.kind == Pass::kAddress ? kMemModeAddress : kMemModePattern;
    Status s = launch(k.fill, KernelArgs().Ptr(p).U64(words).U32(pass.pattern).U32(mode));
    if (!s) return FailedGate("memtest", s.error().With("pass " + pass.name));
    traffic += bytes;
    if (pass.kind == Pass::kInversion) {
      outcome = check(k.check_invert, KernelArgs().Ptr(p).U64(words).U32(pass.pattern).Ptr(result->get()));
      traffic += 2 * bytes;
      if (outcome && outcome->first == 0) {
        outcome =
            check(k.check,
                  KernelArgs().Ptr(p).U64(words).U32(~pass.pattern).U32(kMemModePattern).Ptr(result->get()));
        traffic += bytes;
      }
    } else {
      outcome = check(k.check, KernelArgs().Ptr(p).U64(words).U32(pass.pattern).U32(mode).Ptr(result->get()));
      traffic += bytes;
    }
    if (!outcome) return FailedGate("memtest", outcome.error().With("pass " + pass.name));
    if (outcome->first) return BadWords(outcome->first, outcome->second, pass.name, bytes);
  }
  double ms = MsSince(start);
  GateResult r;
  r.gate = "memtest";
  r.status = GateStatus::kPass;
  double gbps = ms > 0 ? static_cast<double>(traffic) / (ms * 1e6) : 0;
  char line[200];
  std::snprintf(
      line, sizeof line, "%s (%.0f%% of VRAM) clean after %zu passes; %.0f GB/s", FormatBytes(bytes).c_str(),
      100.0 * static_cast<double>(bytes) / static_cast<double>(mem->total_bytes), passes.size(), gbps);
  r.summary = line;
  r.figures.push_back({"tested", static_cast<double>(bytes) / (1ull << 30), "GiB"});
  r.figures.push_back({"test bandwidth", gbps, "GB/s"});
  std::string names;
  for (const auto& pass : passes) names += (names.empty() ? "" : ", ") + pass.name;
  r.details.push_back("passes: " + names);
  return r;
}

}  // namespace gpudoctor
