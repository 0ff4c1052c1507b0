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

Dim3 StreamGrid(uint64_t n, int groups) {
  uint64_t per_block = static_cast<uint64_t>(kStreamBlock) * 4 * static_cast<uint64_t>(groups);
  uint64_t blocks = (n + per_block - 1) / per_block;
  return Dim3{static_cast<uint32_t>(std::max<uint64_t>(blocks, 1)), 1, 1};
}

// One kernel's launch at n elements: the function, its shape (16-byte groups per thread) and its arrays.
struct StreamLaunch {
  FunctionId fn = 0;
  int groups = 1;
  DevicePtr x = 0, y = 0, out = 0;
};

// The arrays an element-wise kernel reads (x, y) and writes (out), as BabelStream assigns them.
StreamLaunch OperandsOf(StreamOp op, const Arrays& d) {
  switch (op) {
    case StreamOp::kCopy:
      return {0, 1, d.a, d.a, d.c};
    case StreamOp::kMul:
      return {0, 1, d.c, d.c, d.b};
    case StreamOp::kAdd:
      return {0, 1, d.a, d.b, d.c};
    case StreamOp::kTriad:
      return {0, 1, d.b, d.c, d.a};
  }
  return {0, 1, d.a, d.a, d.c};
}

// The dot's check: the partial sums read back and added in fp64, against n * a * b within the fp32 rounding
// of the terms each accumulator adds. "" when it holds.
std::string DotMismatch(const std::vector<float>& partial, uint64_t n) {
  double sum = 0;
  for (float p : partial) sum += p;
  double expected = static_cast<double>(n) * static_cast<double>(kA) * static_cast<double>(kB);
  double terms = std::ceil(static_cast<double>(n / 4) / (partial.size() * static_cast<double>(kStreamBlock)));
  double tolerance = (terms + 32) * std::ldexp(1.0, -24);
  double error = std::fabs(sum - expected) / expected;
  if (error <= tolerance) return "";
  char line[200];
  std::snprintf(line, sizeof line, "sum %.9g, expected %.9g: relative error %.2e over the tolerance %.2e",
                sum, expected, error, tolerance);
  return line;
}

// The kernels, the arrays and the sweep one run of the group shares; one result per kernel.
class MemoryRun {
 public:
  MemoryRun(BenchContext& ctx, ModuleId module, FunctionId init, FunctionId check, FunctionId dot,
            uint32_t dot_blocks_max, Arrays d, std::vector<uint64_t> sizes)
      : ctx_(ctx),
        module_(module),
        init_(init),
        check_(check),
        dot_(dot),
        dot_blocks_max_(dot_blocks_max),
        d_(d),
        sizes_(std::move(sizes)),
        reps_(ctx.options.level == BenchLevel::kQuick ? 20 : 50) {}

  // One kernel's sweep over the sizes, checked at each; the telemetry under load when `last`.
  BenchResult Measure(const Kernel& k, const BenchSpec& spec, bool last) {
    BenchResult r;
    r.spec = spec;
    r.check = BenchCheck::kPassed;
    auto launch = Shape(k, r.note);
    std::optional<Error> failure;
    if (!launch) failure = launch.error();
    for (uint64_t bytes : sizes_) {
      if (failure) break;
      auto wrong = MeasureSize(k, *launch, bytes, r);
      if (!wrong) {
        failure = wrong.error();
        break;
      }
      if (!wrong->empty() && r.check == BenchCheck::kPassed) {
        r.check = BenchCheck::kFailed;
        r.check_detail = "at " + FormatBytes(bytes) + " per array: " + *wrong;
      }
    }
    if (!failure && last) {
      uint64_t n = sizes_.back() / 4;
      ReadTelemetryUnderLoad(ctx_, spec.id, [&]() -> Status {
        for (int i = 0; i < 20; ++i)
          if (auto s = Launch(k, *launch, n); !s) return s;
        return Ok{};
      });
    }
    if (failure) {
      BenchResult e = ErrorResult(r.spec, *failure);
      e.points = r.points;
      return e;
    }
    r.best = BestOf(r.points, true, static_cast<double>(kBeyondCacheBytes));
    r.note +=
        "; best of " + std::to_string(reps_) +
        " runs per size; the figure counts arrays of 256 MiB and more (smaller ones may sit in the cache)";
    return r;
  }

 private:
  Status Init(uint64_t n) {
    KernelArgs args;
    args.Ptr(d_.a).Ptr(d_.b).Ptr(d_.c).F32(kA).F32(kB).F32(kC).U64(n);
    return ctx_.backend.Launch(init_, GridFor(n), kBlock256, args);
  }

  Status Launch(const Kernel& k, const StreamLaunch& l, uint64_t n) {
    KernelArgs args;
    if (!k.op) {
      args.Ptr(d_.a).Ptr(d_.b).Ptr(d_.partial).U64(n);
      return ctx_.backend.Launch(l.fn, Dim3{DotBlocks(n), 1, 1}, kBlock256, args);
    }
    args.Ptr(l.x).Ptr(l.y).Ptr(l.out).F32(kScalar).U64(n);
    return ctx_.backend.Launch(l.fn, StreamGrid(n, l.groups), kBlock256, args);
  }

  Result<double> BestMs(const Kernel& k, const StreamLaunch& l, uint64_t n, int count) {
    return BestTime(ctx_.backend, count, [&] { return Launch(k, l, n); });
  }

  // The launch of `k`: for an element-wise kernel one or four 16-byte groups per thread, whichever is faster
  // at the largest size; the dot is grid-stride. Says which in `note`.
  Result<StreamLaunch> Shape(const Kernel& k, std::string& note) {
    if (!k.op) {
      note = "grid-stride, up to " + std::to_string(dot_blocks_max_) + " blocks of 256 threads";
      return StreamLaunch{dot_, 1, d_.a, d_.a, d_.c};
    }
    StreamLaunch l = OperandsOf(*k.op, d_);
    uint64_t n = sizes_.back() / 4;
    double fastest = 1e30;
    int chosen = 1;
    std::optional<Error> failure;
    for (int g : {1, 4}) {
      auto f = ctx_.backend.GetFunction(module_, StreamKernelName(*k.op, g));
      if (!f) {
        failure = f.error();
        break;
      }
      l.fn = *f;
      l.groups = g;
      Status s = Init(n);
      if (s) s = Launch(k, l, n);  // warm-up (loads the function)
      auto ms = s ? BestMs(k, l, n, 3) : Result<double>(s.error());
      if (!ms) {
        failure = ms.error();
        break;
      }
      if (*ms < fastest) {
        fastest = *ms;
        chosen = g;
      }
    }
    note =
        chosen == 1 ? "one 16-byte group of floats per thread" : "four 16-byte groups of floats per thread";
    if (failure) return *failure;
    auto f = ctx_.backend.GetFunction(module_, StreamKernelName(*k.op, chosen));
    if (!f) return f.error();
    l.fn = *f;
    l.groups = chosen;
    return l;
  }

  // One size: fresh arrays, two untimed runs, the timed runs (a point added to `r`), then the check of what
  // the last run wrote: "" when right, else what was wrong.
  Result<std::string> MeasureSize(const Kernel& k, const StreamLaunch& l, uint64_t bytes, BenchResult& r) {
    uint64_t n = bytes / 4;
    Status s = Init(n);
    for (int w = 0; s && w < 2; ++w) s = Launch(k, l, n);
    if (!s) return s.error();
    auto ms = BestMs(k, l, n, reps_);
    if (!ms) return ms.error();
    double gbs = *ms > 0 ? k.bytes_per_element * static_cast<double>(n) / (*ms * 1e6) : 0;
    r.points.push_back({static_cast<double>(bytes), gbs});
    if (k.op) return CheckArray(l.out, d_.result, n, Expected(*k.op));
    std::vector<float> partial(DotBlocks(n));
    if (auto cp = ctx_.backend.CopyToHost(partial.data(), d_.partial, partial.size() * 4ull); !cp)
      return cp.error();
    return DotMismatch(partial, n);
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

  BenchContext& ctx_;
  ModuleId module_;
  FunctionId init_, check_, dot_;
  uint32_t dot_blocks_max_;
  Arrays d_;
  std::vector<uint64_t> sizes_;
  int reps_;
};

// Blocks of the dot's grid at most: eight per compute unit, 1024 when the device does not say.
uint32_t DotBlocksMax(BenchContext& ctx) {
  auto devices = ctx.backend.Devices();
  uint32_t units = 0;
  if (devices && ctx.device_ordinal < static_cast<int>(devices->size()))
    units = (*devices)[static_cast<size_t>(ctx.device_ordinal)].compute_units.value_or(0);
  return units ? units * 8 : 1024;
}

// The array sizes of the sweep: three arrays of the largest size, with room left for the runtime.
std::vector<uint64_t> ArraySizes(uint64_t free_bytes, bool quick) {
  uint64_t reserve = std::min<uint64_t>(free_bytes / 8, 512ull << 20);
  uint64_t limit = free_bytes > reserve ? (free_bytes - reserve) / 3 : 0;
  return FitSizes(GeometricSizes(1ull << 20, 1ull << 30, quick ? 4 : 2), limit / 4096 * 4096, 64ull << 10);
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
  uint32_t dot_blocks_max = DotBlocksMax(ctx);
  auto sizes = ArraySizes(mem->free_bytes, ctx.options.level == BenchLevel::kQuick);
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
  MemoryRun run(ctx, *module, *init, *check, *dot, dot_blocks_max, d, sizes);
  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    auto started = std::chrono::steady_clock::now();
    BenchResult r = run.Measure(KernelOf(id), SpecById(specs, id), id == ids.back());
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeMemoryBenchmark() {
  return std::make_unique<MemoryBenchmark>();
}

}  // namespace gpudoctor
