// Device memory bandwidth with BabelStream's five kernels (bench_kernels.h has the formulas), fp32, over a
// sweep of array sizes. Each kernel runs alone on freshly initialised arrays:
//   a = 0.1, b = 0.2, c = 0.0625, s = 0.4
// so its output has one analytic value, exact in fp32 whether or not the compiler fuses the triad's
// multiply-add (s * c = 0.025 is exact):
//   copy c = 0.1, mul b = 0.025, add c = fl(0.1 + 0.2), triad a = fl(0.2 + 0.025), dot = n * 0.1 * 0.2.
// Every element of the output is compared with that value on the GPU (a count of mismatches comes back)
// and three of them are read back and compared on the CPU. The dot's sum is compared within its fp32
// rounding: (t + 32) * 2^-24 relative, t the terms each accumulator adds. Bandwidth counts the bytes each
// kernel must move (copy and mul 8 per element, add and triad 12, dot 8) over the best of the timed runs,
// which are queued back to back with a device event between each two (bench_support.h). The benchmark's
// figure is the best point among arrays of 256 MiB and more (kBeyondCacheBytes): smaller ones may be served
// from the L2 or Infinity Cache and say nothing about the memory.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "bench/bench_kernels.h"
#include "bench/bench_support.h"
#include "core/strings.h"
#include "gates/gate_context.h"

namespace gpudoctor {
namespace {

constexpr float kA = 0.1f, kB = 0.2f, kC = 0.0625f, kScalar = 0.4f;

struct Kernel {
  const char* id;
  const char* title;
  std::optional<StreamOp> op;  // nullopt: the dot
  double bytes_per_element;
};

const Kernel kKernels[] = {
    {"memory.copy", "Device memory: copy (c = a)", StreamOp::kCopy, 8},
    {"memory.mul", "Device memory: mul (b = s * c)", StreamOp::kMul, 8},
    {"memory.add", "Device memory: add (c = a + b)", StreamOp::kAdd, 12},
    {"memory.triad", "Device memory: triad (a = b + s * c)", StreamOp::kTriad, 12},
    {"memory.dot", "Device memory: dot (sum of a * b)", std::nullopt, 8},
};

const Kernel& KernelOf(const std::string& id) {
  for (const auto& k : kKernels)
    if (id == k.id) return k;
  return kKernels[0];
}

// The analytic result of an element-wise kernel on the initial arrays, computed in fp32 as the GPU does.
float Expected(StreamOp op) {
  volatile float a = kA, b = kB, c = kC, s = kScalar;  // no constant folding in another precision
  switch (op) {
    case StreamOp::kCopy:
      return a;
    case StreamOp::kMul:
      return s * c;
    case StreamOp::kAdd:
      return a + b;
    case StreamOp::kTriad: {
      float sc = s * c;
      return b + sc;
    }
  }
  return 0;
}

class MemoryBenchmark final : public Benchmark {
 public:
  std::string Name() const override { return "memory"; }
  std::string Help() const override {
    return "Device memory bandwidth with BabelStream's copy, mul, add, triad and dot kernels (fp32), over "
           "array sizes from 1 MiB to 1 GiB per array (as free memory allows); every output element is "
           "checked against its analytic value.";
  }
  std::vector<BenchSpec> Specs() const override {
    std::vector<BenchSpec> out;
    for (const auto& k : kKernels)
      out.push_back({k.id, "memory", k.title, "GB/s", "array size", "bytes", true});
    return out;
  }
  std::chrono::seconds TimeLimit(BenchLevel level) const override {
    return std::chrono::seconds(level == BenchLevel::kQuick ? 45 : 90);
  }
  void Run(BenchContext& ctx, const std::vector<std::string>& ids) override;
};

// Everything one run of the group holds on the device.
struct Arrays {
  DevicePtr a = 0, b = 0, c = 0, partial = 0, result = 0;
};

class MemoryRun {
 public:
  MemoryRun(BenchContext& ctx, FunctionId init, FunctionId check, uint32_t dot_blocks_max)
      : ctx_(ctx), init_(init), check_(check), dot_blocks_max_(dot_blocks_max) {}

  Status Init(const Arrays& d, uint64_t n) {
    KernelArgs args;
    args.Ptr(d.a).Ptr(d.b).Ptr(d.c).F32(kA).F32(kB).F32(kC).U64(n);
    return ctx_.backend.Launch(init_, GridFor(n), kBlock256, args);
  }

  // Mismatches of `p` against `expected` over n elements: the device's count, then three elements read back.
  Result<std::string> CheckArray(DevicePtr p, DevicePtr result, uint64_t n, float expected) {
    uint64_t start[2] = {0, ~0ull};
    if (auto s = ctx_.backend.CopyToDevice(result, start, sizeof start); !s) return s.error();
    KernelArgs args;
    args.Ptr(p).U64(n).F32(expected).F32(0.0f).Ptr(result);
    if (auto s = ctx_.backend.Launch(check_, GridFor(n), kBlock256, args); !s) return s.error();
    uint64_t counts[2] = {0, 0};
    if (auto s = ctx_.backend.CopyToHost(counts, result, sizeof counts); !s) return s.error();
    char line[200];
    if (counts[0] > 0) {
      float seen = 0;
      if (counts[1] < n) (void)ctx_.backend.CopyToHost(&seen, p + counts[1] * 4, 4);
      std::snprintf(line, sizeof line, "%llu of %llu elements differ from %.9g (first at index %llu: %.9g)",
                    static_cast<unsigned long long>(counts[0]), static_cast<unsigned long long>(n),
                    static_cast<double>(expected), static_cast<unsigned long long>(counts[1]),
                    static_cast<double>(seen));
      return std::string(line);
    }
    for (uint64_t i : {uint64_t{0}, n / 2, n - 1}) {
      float v = 0;
      if (auto s = ctx_.backend.CopyToHost(&v, p + i * 4, 4); !s) return s.error();
      if (v != expected) {
        std::snprintf(
            line, sizeof line, "element %llu reads %.9g, expected %.9g (the device's check missed it)",
            static_cast<unsigned long long>(i), static_cast<double>(v), static_cast<double>(expected));
        return std::string(line);
      }
    }
    return std::string();
  }

  uint32_t DotBlocks(uint64_t n) const {
    uint64_t wanted = (n / 4 + kStreamBlock - 1) / kStreamBlock;
    return static_cast<uint32_t>(std::clamp<uint64_t>(wanted, 1, dot_blocks_max_));
  }

 private:
  BenchContext& ctx_;
  FunctionId init_, check_;
  uint32_t dot_blocks_max_;
};

Dim3 StreamGrid(uint64_t n, int groups) {
  uint64_t per_block = static_cast<uint64_t>(kStreamBlock) * 4 * static_cast<uint64_t>(groups);
  uint64_t blocks = (n + per_block - 1) / per_block;
  return Dim3{static_cast<uint32_t>(std::max<uint64_t>(blocks, 1)), 1, 1};
}

void MemoryBenchmark::Run(BenchContext& ctx, const std::vector<std::string>& ids) {
  const auto specs = Specs();
  if (auto s = OpenBenchDevice(ctx); !s) return FailAll(ctx, specs, ids, s.error());
  std::vector<std::string> defines;
  if (ctx.options.plant_wrong) defines.emplace_back(kBenchPlantWrongDefine);
  auto module = ctx.backend.CompileModule(BenchKernelSource(), kBenchProgramName, defines);
  if (!module) return FailAll(ctx, specs, ids, module.error());
  auto fn = [&](const std::string& name) { return ctx.backend.GetFunction(*module, name); };
  auto init = fn(kInitKernel), check = fn(kCheckKernel), dot = fn(kDotKernel);
  for (auto* f : {&init, &check, &dot})
    if (!*f) return FailAll(ctx, specs, ids, f->error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailAll(ctx, specs, ids, mem.error());
  auto devices = ctx.backend.Devices();
  uint32_t units = 0;
  if (devices && ctx.options.device_index < static_cast<int>(devices->size()))
    units = (*devices)[static_cast<size_t>(ctx.options.device_index)].compute_units.value_or(0);
  uint32_t dot_blocks_max = units ? units * 8 : 1024;

  bool quick = ctx.options.level == BenchLevel::kQuick;
  // Three arrays of the largest size, with room left for the runtime.
  uint64_t reserve = std::min<uint64_t>(mem->free_bytes / 8, 512ull << 20);
  uint64_t limit = mem->free_bytes > reserve ? (mem->free_bytes - reserve) / 3 : 0;
  auto sizes =
      FitSizes(GeometricSizes(1ull << 20, 1ull << 30, quick ? 4 : 2), limit / 4096 * 4096, 64ull << 10);
  if (sizes.empty())
    return FailAll(
        ctx, specs, ids,
        EnvError("not enough free device memory for the arrays (" + FormatBytes(mem->free_bytes) + " free)"));
  uint64_t max_bytes = sizes.back();
  auto da = AllocateBuffer(ctx.backend, max_bytes), db = AllocateBuffer(ctx.backend, max_bytes),
       dc = AllocateBuffer(ctx.backend, max_bytes), dp = AllocateBuffer(ctx.backend, dot_blocks_max * 4ull),
       dr = AllocateBuffer(ctx.backend, 16);
  for (auto* buf : {&da, &db, &dc, &dp, &dr})
    if (!*buf) return FailAll(ctx, specs, ids, buf->error());
  Arrays d{da->get(), db->get(), dc->get(), dp->get(), dr->get()};
  MemoryRun run(ctx, *init, *check, dot_blocks_max);
  const int reps = quick ? 20 : 50;

  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    auto started = std::chrono::steady_clock::now();
    const Kernel& k = KernelOf(id);
    BenchResult r;
    r.spec = SpecById(specs, id);
    r.check = BenchCheck::kPassed;
    std::optional<Error> failure;
    // The launch of this kernel at n elements, in the shape picked below.
    FunctionId kernel = *dot;
    int groups = 1;
    DevicePtr x = d.a, y = d.a, out = d.c;
    if (k.op) {
      switch (*k.op) {
        case StreamOp::kCopy:
          x = d.a, y = d.a, out = d.c;
          break;
        case StreamOp::kMul:
          x = d.c, y = d.c, out = d.b;
          break;
        case StreamOp::kAdd:
          x = d.a, y = d.b, out = d.c;
          break;
        case StreamOp::kTriad:
          x = d.b, y = d.c, out = d.a;
          break;
      }
    }
    auto launch = [&](uint64_t n) -> Status {
      KernelArgs args;
      if (!k.op) {
        args.Ptr(d.a).Ptr(d.b).Ptr(d.partial).U64(n);
        return ctx.backend.Launch(kernel, Dim3{run.DotBlocks(n), 1, 1}, kBlock256, args);
      }
      args.Ptr(x).Ptr(y).Ptr(out).F32(kScalar).U64(n);
      return ctx.backend.Launch(kernel, StreamGrid(n, groups), kBlock256, args);
    };
    auto best_ms = [&](uint64_t n, int count) {
      return BestTime(ctx.backend, count, [&] { return launch(n); });
    };
    // Shape: one or four 16-byte groups per thread, whichever is faster at the largest size.
    if (k.op) {
      uint64_t n = max_bytes / 4;
      double fastest = 1e30;
      int chosen = 1;
      for (int g : {1, 4}) {
        auto f = ctx.backend.GetFunction(*module, StreamKernelName(*k.op, g));
        if (!f) {
          failure = f.error();
          break;
        }
        kernel = *f;
        groups = g;
        Status s = run.Init(d, n);
        if (s) s = launch(n);  // warm-up (loads the function)
        auto ms = s ? best_ms(n, 3) : Result<double>(s.error());
        if (!ms) {
          failure = ms.error();
          break;
        }
        if (*ms < fastest) {
          fastest = *ms;
          chosen = g;
        }
      }
      r.note =
          chosen == 1 ? "one 16-byte group of floats per thread" : "four 16-byte groups of floats per thread";
      if (!failure) {
        auto f = ctx.backend.GetFunction(*module, StreamKernelName(*k.op, chosen));
        if (f) {
          kernel = *f;
          groups = chosen;
        } else {
          failure = f.error();
        }
      }
    } else {
      r.note = "grid-stride, up to " + std::to_string(dot_blocks_max) + " blocks of 256 threads";
    }
    for (uint64_t bytes : sizes) {
      if (failure) break;
      uint64_t n = bytes / 4;
      Status s = run.Init(d, n);
      for (int w = 0; s && w < 2; ++w) s = launch(n);
      if (!s) {
        failure = s.error();
        break;
      }
      auto ms = best_ms(n, reps);
      if (!ms) {
        failure = ms.error();
        break;
      }
      double gbs = *ms > 0 ? k.bytes_per_element * static_cast<double>(n) / (*ms * 1e6) : 0;
      r.points.push_back({static_cast<double>(bytes), gbs});
      // The check of what the last run wrote.
      std::string wrong;
      if (k.op) {
        auto c = run.CheckArray(out, d.result, n, Expected(*k.op));
        if (!c) {
          failure = c.error();
          break;
        }
        wrong = *c;
      } else {
        uint32_t blocks = run.DotBlocks(n);
        std::vector<float> partial(blocks);
        if (auto cp = ctx.backend.CopyToHost(partial.data(), d.partial, blocks * 4ull); !cp) {
          failure = cp.error();
          break;
        }
        double sum = 0;
        for (float p : partial) sum += p;
        double expected = static_cast<double>(n) * static_cast<double>(kA) * static_cast<double>(kB);
        double terms = std::ceil(static_cast<double>(n / 4) / (blocks * static_cast<double>(kStreamBlock)));
        double tolerance = (terms + 32) * std::ldexp(1.0, -24);
        double error = std::fabs(sum - expected) / expected;
        if (!(error <= tolerance)) {
          char line[200];
          std::snprintf(line, sizeof line,
                        "sum %.9g, expected %.9g: relative error %.2e over the tolerance %.2e", sum, expected,
                        error, tolerance);
          wrong = line;
        }
      }
      if (!wrong.empty() && r.check == BenchCheck::kPassed) {
        r.check = BenchCheck::kFailed;
        r.check_detail = "at " + FormatBytes(bytes) + " per array: " + wrong;
      }
    }
    if (!failure && id == ids.back()) {
      uint64_t n = max_bytes / 4;
      ReadTelemetryUnderLoad(ctx, id, [&]() -> Status {
        for (int i = 0; i < 20; ++i)
          if (auto s = launch(n); !s) return s;
        return Ok{};
      });
    }
    if (failure) {
      BenchResult e = ErrorResult(r.spec, *failure);
      e.points = r.points;
      r = e;
    } else {
      r.best = BestOf(r.points, true, static_cast<double>(kBeyondCacheBytes));
      r.note += "; best of " + std::to_string(reps) +
                " runs per size; the figure counts arrays of 256 MiB and more "
                "(smaller ones may sit in the cache)";
    }
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeMemoryBenchmark() {
  return std::make_unique<MemoryBenchmark>();
}

}  // namespace gpudoctor
