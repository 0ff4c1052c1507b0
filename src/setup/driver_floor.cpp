// The NVIDIA driver floor of a plan's CUDA wheel (see driver_floor.h).
#include "setup/driver_floor.h"

#include "knowledge/wheel_variant.h"
#include "rules/nvidia_driver_install.h"
#include "setup/pip_line.h"

namespace gpudoctor {
namespace {

// The oldest driver that loads a CUDA `cuda` runtime on this OS, nullptr when none is recorded.
const Version* FloorOf(const RuleContext& ctx, const Version& cuda) {
  const auto floors = ctx.db.CudaDriverFloor(cuda);
  if (!floors || !floors->minor_compat) return nullptr;
  return ctx.platform == Platform::kWindows ? &floors->minor_compat->windows_driver
                                            : &floors->minor_compat->linux_driver;
}

bool RunsOn(const TorchWheel& w, const Version& cc) {
  const CcSupport s = WheelSupportsCc(w, cc);
  return s == CcSupport::kExactCubin || s == CcSupport::kCompatibleCubin;
}

// The newest CUDA build of `pinned`'s torch release for a GPU of `cc` that `driver` cannot load.
const TorchWheel* NewerBuildOutOfReach(const RuleContext& ctx, const TorchWheel& pinned, const Version& cc,
                                       const Version& driver) {
  const TorchWheel* best = nullptr;
  for (const TorchWheel& w : ctx.db.torch_wheels) {
    if (!w.cuda || w.torch != pinned.torch || *w.cuda <= *pinned.cuda || !RunsOn(w, cc)) continue;
    const Version* floor = FloorOf(ctx, *w.cuda);
    if (floor && driver < *floor && (!best || *w.cuda > *best->cuda)) best = &w;
  }
  return best;
}

// The driver install: what to reach, then the steps check's own driver fixes give on this machine
// (rules/nvidia_driver_install.h: the distribution's [[nvidia_driver_install]] row, or a GPU's last branch,
// Debian's open-modules route, NVIDIA's page on Windows).
std::vector<std::string> DriverInstallLines(const RuleContext& ctx, const std::string& needs) {
  const NvidiaDriverInstallSteps how = NvidiaDriverInstallFor(ctx);
  std::string head = "install an NVIDIA driver " + needs + " or newer, then reboot";
  if (!how.where.empty()) head += "; " + how.where;
  if (!how.link.empty()) head += " (" + how.link + ")";
  std::vector<std::string> lines{head + ":"};
  for (std::string& l : ActionLines(how.actions)) lines.push_back(std::move(l));
  return lines;
}

// The wheel loads, but check fell back to an older torch release for this driver: the newest release
// for this GPU needs a newer one. Recommended, not required: the planned wheel works now.
std::optional<ManualStep> HeldBackStep(const RuleContext& ctx, const TorchWheel& pinned, const Version& cc,
                                       const DriverFloorCheck& c) {
  const bool windows = ctx.platform == Platform::kWindows;
  const TorchWheel* newest = BestCudaWheel(ctx.db, cc, std::nullopt, std::nullopt, windows);
  if (!newest || !newest->cuda || newest->torch <= pinned.torch) return std::nullopt;
  const Version* floor = FloorOf(ctx, *newest->cuda);
  if (!floor || *ctx.nvidia_driver >= *floor) return std::nullopt;
  ManualStep m;
  m.finding = "setup.driver_floor";
  m.title = "Recommended: NVIDIA driver " + floor->ToString() + " or newer (" + c.os + ") for torch " +
            newest->torch.ToString() + " on this GPU; driver " + c.installed + " loads torch " +
            pinned.torch.ToString() + " at most";
  m.summary =
      "the plan installs torch " + pinned.torch.ToString() + " (" + pinned.variant +
      "), the newest release this driver runs; after a driver upgrade, `gpudoctor setup` plans torch " +
      newest->torch.ToString() + " (" + newest->variant + ")";
  m.lines = DriverInstallLines(ctx, floor->ToString());
  return m;
}

// The driver cannot load the planned wheel: its upgrade comes first, with the wheel it does load.
ManualStep TooOldStep(const RuleContext& ctx, const std::string& wheel, const GpuView& gpu,
                      const DriverFloorCheck& c) {
  ManualStep m;
  m.finding = "setup.driver_floor";
  m.title = "The NVIDIA driver " + c.installed + " is older than " + wheel + " needs (" + c.needs +
            " or newer on " + c.os + ")";
  m.summary =
      "upgrade the driver before installing: the CUDA " + c.cuda + " wheel would not load on this one";
  m.lines = DriverInstallLines(ctx, c.needs);
  if (gpu.cc) {
    const TorchWheel* fits =
        BestCudaWheel(ctx.db, *gpu.cc, ctx.nvidia_driver, std::nullopt, ctx.platform == Platform::kWindows);
    if (fits)
      m.lines.push_back("or, keeping this driver: torch " + fits->torch.ToString() + " from " +
                        fits->index_url + " (" + fits->variant + "), the newest recorded wheel it loads");
  }
  return m;
}

// The CUDA runtime a step's wheel bundles, and the plan's name for that wheel.
struct PlannedCuda {
  Version cuda;
  std::string wheel;  // "the cu126 wheel", "PyPI's torch 2.14 wheel (cu130 on Linux)"
};

bool FromPypi(const PackageStep& step) {
  return step.variant.empty() && step.index_url.empty() && step.find_links.empty();
}

// The PyPI build of the torch release the step asks for ("torch==2.7.1", "torch==2.7.*"), else of the
// newest release recorded: what pip takes from PyPI.
const TorchPypiDefault* PypiBuild(const RuleContext& ctx, const PackageStep& step) {
  for (const std::string& r : step.requirements) {
    if (RequirementName(r) != "torch") continue;
    const size_t eq = r.find("==");
    if (eq == std::string::npos) break;
    const std::optional<Version> v = Version::ParseLeading(r.substr(eq + 2));
    return v ? ctx.db.FindTorchPypiDefault(*v) : nullptr;
  }
  const TorchPypiDefault* newest = nullptr;
  for (const TorchPypiDefault& d : ctx.db.torch_pypi_defaults)
    if (!newest || d.torch > newest->torch) newest = &d;
  return newest;
}

std::optional<PlannedCuda> PlannedCudaOf(const RuleContext& ctx, const PackageStep& step,
                                         const TorchWheel* pinned) {
  const std::string indexed = "the " + step.variant + " wheel";
  if (pinned && pinned->cuda) return PlannedCuda{*pinned->cuda, indexed};
  if (const std::optional<Version> cuda = CudaOfWheelVariant(step.variant))
    return PlannedCuda{*cuda, indexed};
  if (!FromPypi(step) || ctx.platform == Platform::kWindows) return std::nullopt;
  const TorchPypiDefault* d = PypiBuild(ctx, step);
  if (!d) return std::nullopt;
  return PlannedCuda{d->cuda, "PyPI's torch " + d->torch.ToString() + " wheel (" + d->variant + " on Linux)"};
}

}  // namespace

DriverFloorOutcome CheckDriverFloor(const RuleContext& ctx, const PackageStep& step,
                                    const TorchWheel* pinned) {
  DriverFloorOutcome out;
  if (ctx.gpus.empty() || ctx.gpus.front().vendor != GpuVendor::kNvidia) return out;
  const GpuView& gpu = ctx.gpus.front();
  if (ctx.platform == Platform::kWindows && FromPypi(step)) {
    out.step_note =
        "PyPI's torch wheels for Windows are CPU-only: this install gives no CUDA on the GPU; "
        "a CUDA build comes from https://download.pytorch.org/whl/cuXYZ";
    return out;
  }
  const std::optional<PlannedCuda> planned = PlannedCudaOf(ctx, step, pinned);
  if (!planned) return out;
  const Version* floor = FloorOf(ctx, planned->cuda);
  if (!floor) return out;
  const auto floors = ctx.db.CudaDriverFloor(planned->cuda);

  DriverFloorCheck c;
  c.cuda = planned->cuda.ToString();
  c.needs = floor->ToString();
  c.os = ctx.platform == Platform::kWindows ? "Windows" : "Linux";
  c.source = FirstSource(floors->minor_compat->provenance);
  const std::string wheel = planned->wheel + " (CUDA " + c.cuda + ")";
  const std::string floor_text = c.needs + " or newer on " + c.os;
  if (!ctx.nvidia_driver) {
    c.note = "no NVIDIA driver version is known here: " + wheel + " needs " + floor_text +
             " (nvidia-smi shows the installed one)";
  } else if (*ctx.nvidia_driver < *floor) {
    c.verdict = DriverFloorCheck::Verdict::kTooOld;
    c.installed = ctx.nvidia_driver->ToString();
    c.note = "driver " + c.installed + " cannot load " + wheel + ", which needs " + floor_text +
             ": the driver upgrade comes first";
    out.upgrade = TooOldStep(ctx, planned->wheel, gpu, c);
  } else {
    c.verdict = DriverFloorCheck::Verdict::kRuns;
    c.installed = ctx.nvidia_driver->ToString();
    c.note = "driver " + c.installed + " loads " + wheel + ", which needs " + floor_text;
    if (pinned && pinned->cuda && gpu.cc) {
      if (const TorchWheel* newer = NewerBuildOutOfReach(ctx, *pinned, *gpu.cc, *ctx.nvidia_driver))
        c.note +=
            "; the " + newer->variant + " build of this release needs " +
            FloorOf(ctx, *newer->cuda)->ToString() +
            " or newer, so the plan takes the newest build this driver loads (a driver upgrade is optional)";
      out.upgrade = HeldBackStep(ctx, *pinned, *gpu.cc, c);
    }
  }
  out.check = std::move(c);
  return out;
}

}  // namespace gpudoctor
