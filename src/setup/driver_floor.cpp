// The NVIDIA driver floor of a plan's CUDA wheel (see driver_floor.h).
#include "setup/driver_floor.h"

#include "knowledge/wheel_variant.h"

namespace gpudoctor {
namespace {

const char kDriverWhere[] = "the distribution's NVIDIA driver packages, or https://www.nvidia.com/drivers";

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

std::string InstallDriverLine(const std::string& needs) {
  return "install an NVIDIA driver " + needs + " or newer (" + kDriverWhere + "), then reboot";
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
  m.lines = {InstallDriverLine(floor->ToString())};
  return m;
}

// The driver cannot load the planned wheel: its upgrade comes first, with the wheel it does load.
ManualStep TooOldStep(const RuleContext& ctx, const PackageStep& step, const GpuView& gpu,
                      const DriverFloorCheck& c) {
  ManualStep m;
  m.finding = "setup.driver_floor";
  m.title = "The NVIDIA driver " + c.installed + " is older than the " + step.variant + " wheel needs (" +
            c.needs + " or newer on " + c.os + ")";
  m.summary =
      "upgrade the driver before installing: the CUDA " + c.cuda + " wheel would not load on this one";
  m.lines = {InstallDriverLine(c.needs)};
  if (gpu.cc) {
    const TorchWheel* fits =
        BestCudaWheel(ctx.db, *gpu.cc, ctx.nvidia_driver, std::nullopt, ctx.platform == Platform::kWindows);
    if (fits)
      m.lines.push_back("or, keeping this driver: torch " + fits->torch.ToString() + " from " +
                        fits->index_url + " (" + fits->variant + "), the newest recorded wheel it loads");
  }
  return m;
}

}  // namespace

DriverFloorOutcome CheckDriverFloor(const RuleContext& ctx, const PackageStep& step,
                                    const TorchWheel* pinned) {
  DriverFloorOutcome out;
  if (ctx.gpus.empty() || ctx.gpus.front().vendor != GpuVendor::kNvidia) return out;
  const GpuView& gpu = ctx.gpus.front();
  const std::optional<Version> cuda =
      pinned && pinned->cuda ? pinned->cuda : CudaOfWheelVariant(step.variant);
  if (!cuda) return out;
  const Version* floor = FloorOf(ctx, *cuda);
  if (!floor) return out;
  const auto floors = ctx.db.CudaDriverFloor(*cuda);

  DriverFloorCheck c;
  c.cuda = cuda->ToString();
  c.needs = floor->ToString();
  c.os = ctx.platform == Platform::kWindows ? "Windows" : "Linux";
  c.source = FirstSource(floors->minor_compat->provenance);
  const std::string wheel = "the " + step.variant + " wheel (CUDA " + c.cuda + ")";
  const std::string floor_text = c.needs + " or newer on " + c.os;
  if (!ctx.nvidia_driver) {
    c.note = "no NVIDIA driver version is known here: " + wheel + " needs " + floor_text +
             " (nvidia-smi shows the installed one)";
  } else if (*ctx.nvidia_driver < *floor) {
    c.verdict = DriverFloorCheck::Verdict::kTooOld;
    c.installed = ctx.nvidia_driver->ToString();
    c.note = "driver " + c.installed + " cannot load " + wheel + ", which needs " + floor_text +
             ": the driver upgrade comes first";
    out.upgrade = TooOldStep(ctx, step, gpu, c);
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
