// The GEMM gates (fp32, fp32 with TF32, fp16, bf16): random inputs, the vendor BLAS on the GPU, sampled
// entries checked against an fp64 CPU reference (gemm_check.h), and the rate measured with device events.
#include <algorithm>
#include <cmath>

#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/gemm_check.h"

namespace gpudoctor {
namespace {

// The square size for a level, shrunk until A, B and C fit in a sixteenth of the free memory.
int GemmSize(VerifyLevel level, GemmType type, uint64_t free_bytes) {
  int n = level == VerifyLevel::kQuick ? 2048 : level == VerifyLevel::kStandard ? 4096 : 8192;
  while (n > 64 && 3ull * n * n * ElementBytes(type) > free_bytes / 16) n /= 2;
  return n;
}

// The gate's result from its check and its rate.
GateResult GemmResult(const std::string& name, GemmType type, int n, uint64_t seed, const GemmCheck& check,
                      double tflops, std::vector<BackendLibrary> libraries) {
  GateResult r;
  r.gate = name;
  r.libraries = std::move(libraries);
  r.figures.push_back({"rate", tflops, "TFLOP/s"});
  r.figures.push_back({"relative error", check.relative_error, ""});
  char line[256];
  std::snprintf(
      line, sizeof line,
      "%dx%dx%d, inputs uniform in [-1,1) rounded to %s (seed 0x%s); %zu entries of C checked against "
      "fp64; relative Frobenius error %.2e, tolerance %.2e",
      n, n, n, ToString(type), Hex(seed, 16).c_str(), check.samples, check.relative_error, check.tolerance);
  r.details.push_back(line);
  for (const auto& lib : r.libraries)
    if (lib.role == "blas" && !lib.path.empty()) r.details.push_back("BLAS: " + lib.path + " " + lib.version);
  if (!check.passed) {
    r.status = GateStatus::kFail;
    if (check.non_finite) {
      std::snprintf(line, sizeof line,
                    "%zu of %zu checked entries are NaN or infinite (never written, or overflow)",
                    check.non_finite, check.samples);
    } else {
      std::snprintf(line, sizeof line, "wrong result: relative error %.2e is over the tolerance %.2e",
                    check.relative_error, check.tolerance);
    }
    r.summary = line;
    r.hint =
        "the GPU's matrix units compute wrong results: update the driver and BLAS library, check cooling";
    return r;
  }
  r.status = GateStatus::kPass;
  std::snprintf(line, sizeof line, "%.1f TFLOP/s at %d^3; error %.1e <= %.0e", tflops, n,
                check.relative_error, check.tolerance);
  r.summary = line;
  return r;
}

}  // namespace

GateResult RunGemmGate(GateContext& ctx, GemmType type, bool tf32) {
  std::string name = std::string("gemm_") + (tf32 ? "tf32" : ToString(type));
  const char* gate = name.c_str();
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate(gate, s.error());
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate(gate, mem.error());
  int n = GemmSize(ctx.options.level, type, mem->free_bytes);
  size_t count = static_cast<size_t>(n) * n;
  size_t es = ElementBytes(type);
  uint64_t seed = FreshSeed();
  GemmOperand a = RandomOperand(type, count, seed);
  GemmOperand b = RandomOperand(type, count, seed ^ 0x5bd1e995u);
  auto da = AllocateBuffer(ctx.backend, count * es), db = AllocateBuffer(ctx.backend, count * es),
       dc = AllocateBuffer(ctx.backend, count * es);
  for (auto* buf : {&da, &db, &dc})
    if (!*buf) return FailedGate(gate, buf->error());
  Status s = ctx.backend.CopyToDevice(da->get(), a.bytes.data(), a.bytes.size());
  if (s) s = ctx.backend.CopyToDevice(db->get(), b.bytes.data(), b.bytes.size());
  if (s) s = ctx.backend.Memset32(dc->get(), 0xffffffffu, count * es / 4);  // NaN in every type
  if (!s) return FailedGate(gate, s.error());

  GemmRequest req{type, tf32, n, n, n, da->get(), db->get(), dc->get()};
  // The first call loads the BLAS library and picks its kernels: kept out of the timing.
  if (auto g = ctx.backend.Gemm(req); !g) {
    GateResult r = FailedGate(gate, g.error());
    if (tf32 && ctx.backend.Kind() == BackendKind::kHip) {
      r.status = GateStatus::kSkip;
      r.summary = "not run: " + g.error().message;
    }
    r.libraries = ctx.backend.Libraries();
    return r;
  }
  if (auto y = ctx.backend.Synchronize(); !y) return FailedGate(gate, y.error());
  auto start = ctx.backend.CreateEvent(), stop = ctx.backend.CreateEvent();
  if (!start) return FailedGate(gate, start.error());
  if (!stop) return FailedGate(gate, stop.error());
  int reps = ctx.options.level == VerifyLevel::kQuick ? 3 : 10;
  Status t = ctx.backend.RecordEvent(*start);
  for (int i = 0; t && i < reps; ++i) t = ctx.backend.Gemm(req);
  if (t) t = ctx.backend.RecordEvent(*stop);
  if (!t) return FailedGate(gate, t.error());
  auto ms = ctx.backend.ElapsedMs(*start, *stop);
  if (!ms) return FailedGate(gate, ms.error());
  std::vector<uint8_t> c(count * es);
  if (auto cp = ctx.backend.CopyToHost(c.data(), dc->get(), c.size()); !cp)
    return FailedGate(gate, cp.error());

  size_t samples = ctx.options.level == VerifyLevel::kQuick ? 1024 : 4096;
  GemmCheck check = CheckGemm(type, tf32, n, n, n, a.values, b.values, c, samples, seed + 1);
  double tflops = *ms > 0 ? 2.0 * n * static_cast<double>(n) * n * reps / (*ms * 1e9) : 0;

  return GemmResult(name, type, n, seed, check, tflops, ctx.backend.Libraries());
}

}  // namespace gpudoctor
