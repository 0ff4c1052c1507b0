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
    if (lib.role == "blas") return lib.status == "absent" || lib.status == "broken";
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

void GemmBenchmark::Run(BenchContext& ctx, const std::vector<std::string>& ids) {
  const auto specs = Specs();
  if (auto s = OpenBenchDevice(ctx); !s) return FailAll(ctx, specs, ids, s.error());
  auto module = ctx.backend.CompileModule(BenchKernelSource(), kBenchProgramName, {});
  if (!module) return FailAll(ctx, specs, ids, module.error());
  auto fill = ctx.backend.GetFunction(*module, kFillOperandKernel);
  if (!fill) return FailAll(ctx, specs, ids, fill.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailAll(ctx, specs, ids, mem.error());
  bool quick = ctx.options.level == BenchLevel::kQuick;
  const int reps = quick ? 5 : 10;
  const size_t samples = quick ? 256 : 512;

  for (const auto& id : ids) {
    ctx.sink.Begin(id);
    auto started = std::chrono::steady_clock::now();
    const Precision& p = PrecisionOf(id);
    BenchResult r;
    r.spec = SpecById(specs, id);
    size_t es = ElementBytes(p.type);
    // Three n x n matrices in at most half the free memory.
    std::vector<uint64_t> wanted;
    for (uint64_t n : GeometricSizes(1024, quick ? 8192 : 16384, 2)) wanted.push_back(n);
    std::vector<uint64_t> sizes;
    for (uint64_t n : wanted)
      if (3 * n * n * es <= mem->free_bytes / 2) sizes.push_back(n);
    if (sizes.empty())  // a small GPU (or the fake): the largest power of two that fits, from 64 up
      for (uint64_t n = 64; 3 * n * n * es <= mem->free_bytes / 2 && n < 1024; n *= 2) sizes = {n};
    if (sizes.empty()) {
      r = ErrorResult(r.spec, EnvError("not enough free device memory for a GEMM (" +
                                       FormatBytes(mem->free_bytes) + ")"));
      ctx.sink.Emit(r);
      continue;
    }
    uint64_t max_n = sizes.back();
    uint64_t bytes = max_n * max_n * es;
    auto da = AllocateBuffer(ctx.backend, bytes), db = AllocateBuffer(ctx.backend, bytes),
         dc = AllocateBuffer(ctx.backend, bytes);
    std::optional<Error> failure;
    for (auto* buf : {&da, &db, &dc})
      if (!*buf && !failure) failure = buf->error();
    bool skipped = false;
    r.check = BenchCheck::kPassed;
    uint64_t seed_a = FreshSeed(), seed_b = seed_a ^ 0x5bd1e9955bd1e995ull;
    for (uint64_t n64 : sizes) {
      if (failure || skipped) break;
      int n = static_cast<int>(n64);
      uint64_t count = n64 * n64;
      Status s = Ok{};
      for (auto [ptr, seed] : {std::pair{da->get(), seed_a}, std::pair{db->get(), seed_b}}) {
        KernelArgs args;
        args.Ptr(ptr).U64(count).U64(seed).U32(OperandTypeCode(p.type));
        if (s) s = ctx.backend.Launch(*fill, GridFor(count), kBlock256, args);
      }
      if (s) s = ctx.backend.Memset32(dc->get(), 0xffffffffu, count * es / 4);  // NaN in every type
      if (!s) {
        failure = s.error();
        break;
      }
      GemmRequest req{p.type, p.tf32, n, n, n, da->get(), db->get(), dc->get()};
      Status g = ctx.backend.Gemm(req);
      if (!g) {
        if (p.tf32 && ctx.backend.Kind() == BackendKind::kHip) {
          r = SkippedResult(r.spec, "not run: " + g.error().message);
          skipped = true;
        } else if (BlasMissing(ctx.backend)) {
          r = SkippedResult(r.spec, "not run: " + g.error().message);
          skipped = true;
        } else {
          failure = g.error();
        }
        break;
      }
      if (auto w = ctx.backend.Gemm(req); !w) {
        failure = w.error();
        break;
      }
      auto ms = BestTime(ctx.backend, reps, [&] { return ctx.backend.Gemm(req); });
      if (!ms) {
        failure = ms.error();
        break;
      }
      double best = *ms;
      double flops = 2.0 * static_cast<double>(n) * n * n;
      r.points.push_back({static_cast<double>(n), best > 0 ? flops / (best * 1e9) : 0});
      auto check = CheckSamples(ctx.backend, p, n, dc->get(), seed_a, seed_b, samples, seed_a + n64);
      if (!check) {
        failure = check.error();
        break;
      }
      if (!check->passed && r.check == BenchCheck::kPassed) {
        char line[200];
        if (check->non_finite)
          std::snprintf(line, sizeof line, "at %d^3: %zu of %zu sampled entries are NaN or infinite", n,
                        check->non_finite, check->samples);
        else
          std::snprintf(line, sizeof line,
                        "at %d^3: relative error %.2e over the tolerance %.2e (%zu entries)", n,
                        check->relative_error, check->tolerance, check->samples);
        r.check = BenchCheck::kFailed;
        r.check_detail = line;
      }
      if (n64 == max_n)
        ReadTelemetryUnderLoad(ctx, id, [&]() -> Status {
          for (int i = 0; i < 3; ++i)
            if (auto q = ctx.backend.Gemm(req); !q) return q;
          return Ok{};
        });
    }
    if (failure) {
      BenchResult e = ErrorResult(r.spec, *failure);
      e.points = r.points;
      r = e;
    } else if (!skipped) {
      r.best = BestOf(r.points, true);
      r.note = "best of " + std::to_string(reps) + " back-to-back timed runs per size after 2 untimed; " +
               std::to_string(samples) + " entries of C checked per size (seed 0x" + Hex(seed_a, 16) + ")";
      for (const auto& lib : ctx.backend.Libraries())
        if (lib.role == "blas" && !lib.path.empty()) r.note += "; BLAS " + lib.path + " " + lib.version;
    }
    r.elapsed_ms = MsSince(started);
    ctx.sink.Emit(r);
  }
}

}  // namespace

std::unique_ptr<Benchmark> MakeGemmBenchmark() {
  return std::make_unique<GemmBenchmark>();
}

}  // namespace gpudoctor
