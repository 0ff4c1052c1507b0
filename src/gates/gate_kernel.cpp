// The kernel gate: the embedded source compiles for this GPU, launches, and computes the right answer
// (a STREAM-style triad c = a + s*b, every element checked, plus a checksum), and its bandwidth is measured.
// The planted faults kernel-hang, wrong-result and worker-crash strike here.
#include <algorithm>
#include <cmath>
#include <csignal>
#include <vector>

#include "core/strings.h"
#include "gates/gate_context.h"
#include "gates/kernels.h"

namespace gpudoctor {
namespace {

// Inputs whose triad is exact in fp32 (small integers and halves), so any difference is an error, not
// rounding: a[i] = i mod 1024, b[i] = (i mod 7) / 2, s = 2.
float TriadA(uint64_t i) {
  return static_cast<float>(i % 1024);
}
float TriadB(uint64_t i) {
  return static_cast<float>(i % 7) * 0.5f;
}
constexpr float kTriadScalar = 2.0f;

// The planted hang: gd_spin on a flag that stays 0, then a wait that never ends. The parent's timeout
// kills this process.
Status PlantHang(GateContext& ctx, ModuleId module) {
  auto spin = ctx.backend.GetFunction(module, kSpinKernel);
  if (!spin) return spin.error();
  auto flag = AllocateBuffer(ctx.backend, 4);
  if (!flag) return flag.error();
  if (auto s = ctx.backend.Memset32(flag->get(), 0, 1); !s) return s;
  std::fprintf(ctx.log, "gpudoctor worker: planted fault kernel-hang: launching %s, which never ends\n",
               kSpinKernel);
  std::fflush(ctx.log);
  if (auto s = ctx.backend.Launch(*spin, Dim3{1, 1, 1}, Dim3{1, 1, 1}, KernelArgs().Ptr(flag->get())); !s)
    return s;
  return ctx.backend.Synchronize();
}

// The triad's output against the exact values it must have.
struct TriadCheck {
  uint64_t bad = 0, first_bad = 0;
  double checksum = 0, expected_sum = 0;
};

TriadCheck CheckTriad(const std::vector<float>& c) {
  TriadCheck out;
  for (uint64_t i = 0; i < c.size(); ++i) {
    float want = TriadA(i) + kTriadScalar * TriadB(i);
    out.checksum += c[i];
    out.expected_sum += want;
    if (!(c[i] == want)) {
      if (!out.bad) out.first_bad = i;
      ++out.bad;
    }
  }
  return out;
}

// The best of five timed launches (the triad rewrites the same output), in milliseconds.
Result<float> BestOfFive(Backend& backend, FunctionId triad, Dim3 grid, const KernelArgs& args, EventId start,
                         EventId stop) {
  float best_ms = 0;
  for (int rep = 0; rep < 5; ++rep) {
    Status t = backend.RecordEvent(start);
    if (t) t = backend.Launch(triad, grid, kBlock256, args);
    if (t) t = backend.RecordEvent(stop);
    if (!t) return t.error();
    auto ms = backend.ElapsedMs(start, stop);
    if (!ms) return ms.error();
    if (rep == 0 || *ms < best_ms) best_ms = *ms;
  }
  return best_ms;
}

// The verdict on the triad's output `c` (every element must match bit for bit): the figures and details,
// and on a mismatch the count and the first wrong element.
GateResult JudgeTriad(const std::vector<float>& c, double best_ms, double compile_ms) {
  const uint64_t n = c.size();
  TriadCheck check = CheckTriad(c);
  GateResult r;
  r.gate = "kernel";
  double gbps = best_ms > 0 ? 3.0 * 4.0 * static_cast<double>(n) / (best_ms * 1e6) : 0;
  r.figures.push_back({"triad bandwidth", gbps, "GB/s"});
  r.figures.push_back({"compile", compile_ms, "ms"});
  r.details.push_back("triad c = a + 2*b over " + std::to_string(n) +
                      " floats; exact inputs, so every element must match bit for bit; checksum " +
                      std::to_string(check.checksum) + " (expected " + std::to_string(check.expected_sum) +
                      ")");
  if (check.bad) {
    r.status = GateStatus::kFail;
    r.summary = "wrong result: " + std::to_string(check.bad) + " of " + std::to_string(n) +
                " elements differ; first at " + std::to_string(check.first_bad) + " (got " +
                std::to_string(c[check.first_bad]) + ", expected " +
                std::to_string(TriadA(check.first_bad) + kTriadScalar * TriadB(check.first_bad)) + ")";
    r.hint =
        "the GPU computes wrong results: check for overclocking or overheating, update the driver, run "
        "--level long";
    return r;
  }
  r.status = GateStatus::kPass;
  char line[160];
  std::snprintf(line, sizeof line, "compiled in %.0f ms; triad over %s right, checksum matches; %.0f GB/s",
                compile_ms, FormatBytes(n * 4 * 3).c_str(), gbps);
  r.summary = line;
  return r;
}

}  // namespace

GateResult RunKernelGate(GateContext& ctx) {
  if (ctx.options.inject == InjectedFault::kWorkerCrash) {
    std::fprintf(ctx.log, "gpudoctor worker: planted fault worker-crash: raising SIGSEGV\n");
    std::fflush(ctx.log);
    std::raise(SIGSEGV);
  }
  if (auto s = OpenGateDevice(ctx); !s) return FailedGate("kernel", s.error());
  std::vector<std::string> defines;
  if (ctx.options.inject == InjectedFault::kWrongResult) defines.push_back(kPlantWrongDefine);
  auto t0 = std::chrono::steady_clock::now();
  auto module = ctx.backend.CompileModule(GateKernelSource(), kKernelProgramName, defines);
  if (!module) return FailedGate("kernel", module.error());
  double compile_ms = MsSince(t0);
  auto triad = ctx.backend.GetFunction(*module, kTriadKernel);
  if (!triad) return FailedGate("kernel", triad.error());

  uint64_t n = ctx.options.level == VerifyLevel::kQuick ? (1ull << 24) : (1ull << 26);
  auto mem = ctx.backend.MemoryInfo();
  if (!mem) return FailedGate("kernel", mem.error());
  n = std::min<uint64_t>(n, mem->free_bytes / 4 / 3 / 2);
  if (n < 1024) return FailedGate("kernel", EnvError("too little free device memory for the kernel test"));
  std::vector<float> a(n), b(n), c(n, std::nanf(""));
  for (uint64_t i = 0; i < n; ++i) {
    a[i] = TriadA(i);
    b[i] = TriadB(i);
  }
  auto da = AllocateBuffer(ctx.backend, n * 4), db = AllocateBuffer(ctx.backend, n * 4),
       dc = AllocateBuffer(ctx.backend, n * 4);
  for (auto* buf : {&da, &db, &dc})
    if (!*buf) return FailedGate("kernel", buf->error());
  Status s = ctx.backend.CopyToDevice(da->get(), a.data(), n * 4);
  if (s) s = ctx.backend.CopyToDevice(db->get(), b.data(), n * 4);
  if (s) s = ctx.backend.Memset32(dc->get(), 0xffffffffu, n);  // NaN: an element never written cannot pass
  if (!s) return FailedGate("kernel", s.error());

  KernelArgs args;
  args.Ptr(da->get()).Ptr(db->get()).Ptr(dc->get()).F32(kTriadScalar).U64(n);
  auto start = ctx.backend.CreateEvent(), stop = ctx.backend.CreateEvent();
  if (!start) return FailedGate("kernel", start.error());
  if (!stop) return FailedGate("kernel", stop.error());
  // One launch to check, then timed launches (best of 5: the triad rewrites the same output).
  if (auto l = ctx.backend.Launch(*triad, GridFor(n), kBlock256, args); !l)
    return FailedGate("kernel", l.error());
  if (auto y = ctx.backend.Synchronize(); !y)
    return FailedGate("kernel", y.error().With("the triad kernel failed"));
  auto best_ms = BestOfFive(ctx.backend, *triad, GridFor(n), args, *start, *stop);
  if (!best_ms) return FailedGate("kernel", best_ms.error());
  if (auto cp = ctx.backend.CopyToHost(c.data(), dc->get(), n * 4); !cp)
    return FailedGate("kernel", cp.error());

  GateResult r = JudgeTriad(c, *best_ms, compile_ms);
  if (r.status == GateStatus::kPass && ctx.options.inject == InjectedFault::kKernelHang)
    if (auto h = PlantHang(ctx, *module); !h) return FailedGate("kernel", h.error());
  return r;
}

}  // namespace gpudoctor
