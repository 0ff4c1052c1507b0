// Matrix multiply through the vendor BLAS (cublasGemmEx / rocblas_gemm_ex, as verify's GEMM gates call
// it) in fp32, fp32 with TF32, fp16 and bf16 over square sizes: 1024 to 8192 (quick) or 16384 (standard),
// as memory allows. TFLOP/s = 2 m n k / time of the best timed run (two untimed runs first: the first call
// at a size picks the library's kernels; the timed ones are queued back to back, device events between). The
// operands are written on the GPU by a function of (seed, index) (gemm_operands.h), C is filled with NaN
// first, and the result is checked at sampled entries against an fp64 reference the CPU computes from the
// same function: 16 random columns of C are read back and their sampled rows judged with gates/gemm_check.h's
// tolerances (relative Frobenius error).
#include <algorithm>
#include <random>

#include "bench/bench_kernels.h"
#include "bench/bench_support.h"
#include "bench/gemm_operands.h"
#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/gemm_check.h"

namespace gpudoctor {
namespace {

struct Precision {
  const char* id;
  const char* title;
  GemmType type;
  bool tf32;
};

const Precision kPrecisions[] = {
    {"gemm.fp32", "GEMM fp32 (vendor BLAS)", GemmType::kF32, false},
    {"gemm.tf32", "GEMM fp32 with TF32 tensor cores (vendor BLAS)", GemmType::kF32, true},
    {"gemm.fp16", "GEMM fp16, fp32 accumulate (vendor BLAS)", GemmType::kF16, false},
    {"gemm.bf16", "GEMM bf16, fp32 accumulate (vendor BLAS)", GemmType::kBF16, false},
};

const Precision& PrecisionOf(const std::string& id) {
  for (const auto& p : kPrecisions)
    if (id == p.id) return p;
  return kPrecisions[0];
}

class GemmBenchmark final : public Benchmark {
 public:
  std::string Name() const override { return "gemm"; }
  std::string Help() const override {
    return "Square matrix multiplies through the vendor BLAS in fp32, TF32, fp16 and bf16, from 1024^3 to "
           "8192^3 (16384^3 at the standard level); sampled entries are checked against an fp64 CPU "
           "reference.";
  }
  std::vector<BenchSpec> Specs() const override {
    std::vector<BenchSpec> out;
    for (const auto& p : kPrecisions)
      out.push_back({p.id, "gemm", p.title, "TFLOP/s", "matrix size (m = n = k)", "elements", true});
    return out;
  }
  std::chrono::seconds TimeLimit(BenchLevel level) const override {
    return std::chrono::seconds(level == BenchLevel::kQuick ? 60 : 150);
  }
  void Run(BenchContext& ctx, const std::vector<std::string>& ids) override;
};

bool BlasMissing(const Backend& backend) {
  for (const auto& lib : backend.Libraries())
    if (lib.role == "blas") return lib.status == LoadStatus::kAbsent || lib.status == LoadStatus::kBroken;
  return false;
}

// The sampled check of C (n x n, column-major) against fp64 dot products of the regenerated operands.
Result<GemmCheck> CheckSamples(Backend& backend, const Precision& p, int n, DevicePtr c, uint64_t seed_a,
                               uint64_t seed_b, size_t samples, uint64_t pick_seed) {
  std::mt19937_64 rng(pick_seed);
  std::uniform_int_distribution<int> pick(0, n - 1);
  const int columns = std::min(16, n);
  const size_t per_column = std::max<size_t>(1, samples / static_cast<size_t>(columns));
  size_t es = ElementBytes(p.type);
  std::vector<uint8_t> column(static_cast<size_t>(n) * es);
  std::vector<std::pair<double, double>> pairs;
  std::vector<double> bcol(static_cast<size_t>(n));
  for (int cj = 0; cj < columns; ++cj) {
    int j = pick(rng);
    if (auto s = backend.CopyToHost(column.data(), c + static_cast<uint64_t>(j) * n * es, column.size()); !s)
      return s.error();
    for (int q = 0; q < n; ++q)
      bcol[static_cast<size_t>(q)] =
          OperandAs(p.type, seed_b, static_cast<uint64_t>(q) + static_cast<uint64_t>(j) * n);
    for (size_t r = 0; r < per_column; ++r) {
      int i = pick(rng);
      double ref = 0;
      for (int q = 0; q < n; ++q)
        ref += static_cast<double>(
                   OperandAs(p.type, seed_a, static_cast<uint64_t>(i) + static_cast<uint64_t>(q) * n)) *
               bcol[static_cast<size_t>(q)];
      pairs.emplace_back(ref, ElementAt(p.type, column, static_cast<size_t>(i)));
    }
  }
  return JudgeGemm(p.type, p.tf32, n, pairs);
}

// What every size of one precision's sweep shares: the fill kernel, the timing and checking settings, the
// three device matrices and the operands' seeds.
struct GemmSweep {
  BenchContext& ctx;
  FunctionId fill;
  const Precision& p;
  int reps;
  size_t samples;
  DevicePtr a, b, c;
  uint64_t seed_a, seed_b;
};

// How one size ended: measured (its point is in the result), the GEMM cannot run here (skipped, with the
// reason), or an error that ends the sweep.
struct SizeEnd {
  std::optional<Error> failure;
  std::optional<std::string> skipped;
};

// The sizes of the sweep: three n x n matrices in at most half the free memory.
std::vector<uint64_t> GemmSizes(uint64_t free_bytes, size_t es, bool quick) {
  std::vector<uint64_t> sizes;
  for (uint64_t n : GeometricSizes(1024, quick ? 8192 : 16384, 2))
    if (3 * n * n * es <= free_bytes / 2) sizes.push_back(n);
  if (sizes.empty())  // a small GPU (or the fake): the largest power of two that fits, from 64 up
    for (uint64_t n = 64; 3 * n * n * es <= free_bytes / 2 && n < 1024; n *= 2) sizes = {n};
  return sizes;
}

// A and B from their seeds on the device, C all NaN (0xffffffff is NaN in every type), so an entry the GEMM
// never wrote fails the check.
Status FillOperands(const GemmSweep& sweep, uint64_t n) {
  uint64_t count = n * n;
  for (auto [ptr, seed] : {std::pair{sweep.a, sweep.seed_a}, std::pair{sweep.b, sweep.seed_b}}) {
    KernelArgs args;
    args.Ptr(ptr).U64(count).U64(seed).U32(OperandTypeCode(sweep.p.type));
    if (auto s = sweep.ctx.backend.Launch(sweep.fill, GridFor(count), kBlock256, args); !s) return s;
  }
  return sweep.ctx.backend.Memset32(sweep.c, 0xffffffffu, count * ElementBytes(sweep.p.type) / 4);
}

// The check's line for a result whose sampled entries were wrong.
std::string CheckFailureLine(const GemmCheck& check, int n) {
  char line[200];
  if (check.non_finite)
    std::snprintf(line, sizeof line, "at %d^3: %zu of %zu sampled entries are NaN or infinite", n,
                  check.non_finite, check.samples);
  else
    std::snprintf(line, sizeof line, "at %d^3: relative error %.2e over the tolerance %.2e (%zu entries)", n,
                  check.relative_error, check.tolerance, check.samples);
  return line;
}

// One size: fill, a first GEMM (whose failure may mean "not available here"), a warm-up, the timed runs, the
// sampled check, and the telemetry under load at the largest size.
SizeEnd MeasureGemmSize(const GemmSweep& sweep, uint64_t n64, bool largest, const std::string& id,
                        BenchResult& r) {
  Backend& backend = sweep.ctx.backend;
  int n = static_cast<int>(n64);
  if (auto s = FillOperands(sweep, n64); !s) return {s.error(), {}};
  GemmRequest req{sweep.p.type, sweep.p.tf32, n, n, n, sweep.a, sweep.b, sweep.c};
  if (Status g = backend.Gemm(req); !g) {
    bool unsupported = (sweep.p.tf32 && backend.Kind() == BackendKind::kHip) || BlasMissing(backend);
    if (unsupported) return {{}, "not run: " + g.error().message};
    return {g.error(), {}};
  }
  if (auto w = backend.Gemm(req); !w) return {w.error(), {}};
  auto ms = BestTime(backend, sweep.reps, [&] { return backend.Gemm(req); });
  if (!ms) return {ms.error(), {}};
  double flops = 2.0 * static_cast<double>(n) * n * n;
  r.points.push_back({static_cast<double>(n), *ms > 0 ? flops / (*ms * 1e9) : 0});
  auto check = CheckSamples(backend, sweep.p, n, sweep.c, sweep.seed_a, sweep.seed_b, sweep.samples,
                            sweep.seed_a + n64);
  if (!check) return {check.error(), {}};
  if (!check->passed && r.check == BenchCheck::kPassed) {
    r.check = BenchCheck::kFailed;
    r.check_detail = CheckFailureLine(*check, n);
  }
  if (largest)
    ReadTelemetryUnderLoad(sweep.ctx, id, [&]() -> Status {
      for (int i = 0; i < 3; ++i)
        if (auto q = backend.Gemm(req); !q) return q;
      return Ok{};
    });
  return {};
}

// The note of a measured precision: how it was timed and checked, and which BLAS ran it.
std::string GemmNote(const Backend& backend, int reps, size_t samples, uint64_t seed_a) {
  std::string note = "best of " + std::to_string(reps) +
                     " back-to-back timed runs per size after 2 untimed; " + std::to_string(samples) +
                     " entries of C checked per size (seed 0x" + Hex(seed_a, 16) + ")";
  for (const auto& lib : backend.Libraries())
    if (lib.role == "blas" && !lib.path.empty()) note += "; BLAS " + lib.path + " " + lib.version;
  return note;
}

// One precision's result: the sweep over the sizes that fit, ended early by an error or a skip.
BenchResult RunPrecision(BenchContext& ctx, FunctionId fill, uint64_t free_bytes, const BenchSpec& spec) {
  const bool quick = ctx.options.level == BenchLevel::kQuick;
  const Precision& p = PrecisionOf(spec.id);
  BenchResult r;
  r.spec = spec;
  size_t es = ElementBytes(p.type);
  std::vector<uint64_t> sizes = GemmSizes(free_bytes, es, quick);
  if (sizes.empty())
    return ErrorResult(
        spec, EnvError("not enough free device memory for a GEMM (" + FormatBytes(free_bytes) + ")"));
  uint64_t bytes = sizes.back() * sizes.back() * es;
  auto da = AllocateBuffer(ctx.backend, bytes), db = AllocateBuffer(ctx.backend, bytes),
       dc = AllocateBuffer(ctx.backend, bytes);
  for (auto* buf : {&da, &db, &dc})
    if (!*buf) return ErrorResult(spec, buf->error());
  uint64_t seed_a = FreshSeed();
  GemmSweep sweep{ctx,       fill,      p,         quick ? 5 : 10, quick ? size_t{256} : size_t{512},
                  da->get(), db->get(), dc->get(), seed_a,         seed_a ^ 0x5bd1e9955bd1e995ull};
  r.check = BenchCheck::kPassed;
  for (uint64_t n : sizes) {
    SizeEnd end = MeasureGemmSize(sweep, n, n == sizes.back(), spec.id, r);
    if (end.skipped) return SkippedResult(spec, *end.skipped);
    if (end.failure) {
      BenchResult e = ErrorResult(spec, *end.failure);
      e.points = r.points;
      return e;
    }
  }
  r.best = BestOf(r.points, true);
  r.note = GemmNote(ctx.backend, sweep.reps, sweep.samples, seed_a);
  return r;
}

void GemmBenchmark::Run(BenchContext& ctx, const std::vector<std::string>& ids) {
  const auto specs = Specs();
  if (auto s = OpenBenchDevice(ctx); !s) return FailAll(ctx, specs, ids, s.error());
  auto module = ctx.backend.CompileModule(BenchKernelSource(), kBenchProgramName, {});
  if (!module) return FailAll(ctx, specs, ids, module.error());
  auto fill = ctx.backend.GetFunction(*module, kFillOperandKernel);
  if (!fill) return FailAll(ctx, specs, ids, fill.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailAll(ctx, specs, ids, mem.error());
  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    auto started = std::chrono::steady_clock::now();
    BenchResult r = RunPrecision(ctx, *fill, mem->free_bytes, SpecById(specs, id));
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeGemmBenchmark() {
  return std::make_unique<GemmBenchmark>();
}

}  // namespace gpudoctor
