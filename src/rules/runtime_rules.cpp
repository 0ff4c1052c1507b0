// Layer 2, driver and runtime: the right kernel driver bound, /dev/kfd and the render nodes usable,
// the system ROCm (one tree, supporting this gfx), HSA_OVERRIDE_GFX_VERSION when needed and only then,
// and an NVIDIA driver new enough for the CUDA the framework was built with.
#include <algorithm>
#include <cctype>
#include <set>

#include "core/strings.h"
#include "rules/amdgpu_driver_stack.h"
#include "rules/fabric_manager.h"
#include "rules/framework_parts.h"
#include "rules/nvidia_driver_install.h"
#include "rules/nvidia_driver_stack.h"
#include "rules/rule_context.h"

namespace gpudoctor {
namespace {

// Whether the user may run sudo: root, or a member of the group a distribution gives sudo to (Debian and
// Ubuntu: sudo, and admin on old Ubuntu; Fedora, Arch, openSUSE: wheel). An unknown user or unknown groups
// count as able (the usual case on a desktop, and the command then stays the one to run).
bool CanAdminister(const UserInfo& user) {
  if (user.is_admin || user.name.empty() || user.group_names.empty()) return true;
  for (const auto& g : user.group_names)
    if (g == "sudo" || g == "wheel" || g == "admin") return true;
  return false;
}

constexpr const char* kAmdgpuInstall =
    "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/quick-start.html";

// "6.2.0-66" -> 6.2.0.
std::optional<Version> RocmVersion(const std::string& text) {
  return Version::Parse(std::string_view(text).substr(0, text.find('-')));
}

// The driver install of this machine (nvidia_driver_install.h: the same steps setup names), then the reboot.
void AddNvidiaDriverInstall(const RuleContext& ctx, Finding& f) {
  NvidiaDriverInstallSteps how = NvidiaDriverInstallFor(ctx);
  if (how.last) f.fix_summary += " " + how.where;
  f.fix.insert(f.fix.end(), how.actions.begin(), how.actions.end());
  f.fix.push_back(FixAction::Manual("reboot, then check with: nvidia-smi"));
  if (how.last) {
    Cite(f, how.last->branch->provenance);
  } else {
    f.link = how.link;
  }
}

void KernelDrivers(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux) return;
  size_t ok = 0;
  std::set<std::string> ok_drivers;
  for (const auto& g : ctx.gpus) {
    if (!g.pci) continue;
    const std::string& drv = g.pci->driver;
    const bool amd = g.vendor == GpuVendor::kAmd;
    const std::string want = amd ? "amdgpu" : "nvidia";
    if (drv == want) {
      ++ok;
      ok_drivers.insert(drv);
      continue;
    }
    std::string found = drv.empty() ? "no driver" : drv;
    Finding f;
    if (drv == "nouveau") {
      f = MakeFinding("runtime.driver_nouveau", Layer::kRuntime, Severity::kError, g.label,
                      "The open-source nouveau driver is bound: CUDA needs NVIDIA's driver");
      f.fix_summary = "install NVIDIA's driver (it blacklists nouveau), then reboot";
      AddNvidiaDriverInstall(ctx, f);
    } else if (drv == "radeon" && g.target && g.target->kfd_version == 0) {
      // Southern Islands and the Sea Islands chips KFD has no device for: amdgpu brings no ROCm either.
      f = MakeFinding("runtime.driver_radeon", Layer::kRuntime, Severity::kInfo, g.label,
                      "The legacy radeon driver is bound; amdgpu would not bring ROCm to " + g.gfx +
                          " either (KFD has no support for it)");
      f.link = "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdkfd/kfd_device.c";
    } else if (drv == "radeon") {
      f = MakeFinding("runtime.driver_radeon", Layer::kRuntime, Severity::kError, g.label,
                      "The legacy radeon driver is bound: ROCm needs amdgpu");
      f.fix_summary =
          "let amdgpu take the GPU (kernel parameters for Southern Islands / Sea Islands), then reboot";
      f.fix.push_back(FixAction::Manual(
          "add to the kernel command line: radeon.si_support=0 radeon.cik_support=0 amdgpu.si_support=1 "
          "amdgpu.cik_support=1"));
      f.link = "https://wiki.archlinux.org/title/AMDGPU";
    } else if (drv == "vfio-pci") {
      f = MakeFinding("runtime.driver_vfio", Layer::kRuntime, Severity::kWarning, g.label,
                      "The GPU is bound to vfio-pci (reserved for a virtual machine): this OS cannot use it");
      f.fix_summary =
          "remove the GPU's id from vfio-pci.ids (kernel command line or /etc/modprobe.d), then reboot";
      f.fix.push_back(FixAction::Bash("grep -rn vfio /etc/modprobe.d /proc/cmdline"));
      f.link = "https://docs.kernel.org/driver-api/vfio.html";
    } else if (auto why = amd ? AmdgpuModuleNotLoaded(ctx, g.label) : NvidiaModuleNotLoaded(ctx, g.label)) {
      f = std::move(*why);
    } else {
      f = MakeFinding("runtime.driver_missing", Layer::kRuntime, Severity::kError, g.label,
                      "No " + want + " driver is bound to the GPU");
      if (amd) {
        f.fix_summary = "load amdgpu and look for its errors";
        f.fix.push_back(FixAction::Bash("sudo modprobe amdgpu && sudo dmesg | grep -i amdgpu | tail -n 20"));
        f.link = kAmdgpuInstall;
      } else {
        f.fix_summary = "install NVIDIA's driver";
        AddNvidiaDriverInstall(ctx, f);
      }
    }
    f.evidence.insert(f.evidence.begin(),
                      "required " + want + ", found " + found + " bound to " + g.pci->address);
    out.push_back(std::move(f));
  }
  if (ok > 0) {
    std::string names;
    for (const auto& d : ok_drivers) names += (names.empty() ? "" : ", ") + d;
    Finding f = MakeFinding("runtime.driver_ok", Layer::kRuntime, Severity::kOk, "",
                            names + " bound to " + std::to_string(ok) + " GPU(s)");
    f.evidence.push_back("required the vendor's kernel driver, found " + names);
    out.push_back(std::move(f));
  }
}

// The device nodes this user may not open: the error, with the command that adds the user to the groups
// (or, for a user who cannot administer the machine, what to ask an administrator for).
void DeniedNodes(const RuleContext& ctx, const std::vector<const DeviceNodeAccess*>& denied,
                 std::vector<Finding>& out) {
  Finding f = MakeFinding("runtime.device_access", Layer::kRuntime, Severity::kError, denied.front()->path,
                          "This user cannot open the GPU device nodes: ROCm will see no GPU");
  for (const auto* n : denied)
    f.evidence.push_back("required read-write " + n->path + ", found: " + n->reason);
  // The command names the user the probe saw (`$USER` would add whoever runs it: an administrator acting
  // for them adds themselves); a user outside the administrators' groups cannot run it at all.
  const UserInfo& user = ctx.snap.user;
  const std::string name = user.name.empty() ? std::string("$USER") : user.name;
  const std::string command = "sudo usermod -aG render,video " + name;
  if (CanAdminister(user)) {
    f.fix_summary = "join the render and video groups, then log out and back in";
    f.fix.push_back(FixAction::Bash(command));
  } else {
    f.evidence.push_back("user " + name +
                         " is in none of the administrators' groups (sudo, wheel, admin): an administrator "
                         "must add them");
    f.fix_summary = "an administrator adds " + name + " to the render and video groups; then " + name +
                    " logs out and back in";
    f.fix.push_back(FixAction::Manual("ask an administrator of this machine to run, for " + name + ":"));
    f.fix.push_back(FixAction::Bash(command));
  }
  f.fix.push_back(FixAction::Manual("log out and back in (or reboot) so the new groups apply"));
  f.link = "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/prerequisites.html";
  out.push_back(std::move(f));
}

void ComputeNodes(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux || !ctx.HasVendor(GpuVendor::kAmd)) return;
  bool amdgpu_bound = std::any_of(ctx.gpus.begin(), ctx.gpus.end(), [](const GpuView& g) {
    return g.vendor == GpuVendor::kAmd && g.pci && g.pci->driver == "amdgpu";
  });
  if (!amdgpu_bound) return;
  const DeviceNodeAccess* kfd = nullptr;
  std::vector<const DeviceNodeAccess*> denied;
  for (const auto& n : ctx.snap.amd.device_nodes) {
    if (n.path == "/dev/kfd") kfd = &n;
    if (n.exists && n.accessible && !*n.accessible) denied.push_back(&n);
  }
  // A target KFD has no device for (Southern Islands, Bonaire, Kabini, Stoney: no kfd_version in
  // gfx_targets.toml): no /dev/kfd is expected, and no module option brings ROCm to it.
  const GpuView* without_kfd = nullptr;
  bool all_without_kfd = true;
  for (const auto& g : ctx.gpus) {
    if (g.vendor != GpuVendor::kAmd || !g.pci || g.pci->driver != "amdgpu") continue;
    if (g.target && g.target->kfd_version == 0) {
      if (!without_kfd) without_kfd = &g;
    } else {
      all_without_kfd = false;
    }
  }
  if ((!kfd || !kfd->exists) && without_kfd && all_without_kfd) {
    Finding f = MakeFinding("runtime.kfd_missing", Layer::kRuntime, Severity::kInfo, without_kfd->label,
                            "The amdgpu compute interface (KFD) has no support for " + without_kfd->gfx +
                                ": no ROCm release can use this GPU");
    f.evidence.push_back("required a GPU that KFD drives, found " + without_kfd->gfx +
                         ", which KFD's device table (kfd_device.c) does not list");
    f.link = "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdkfd/kfd_device.c";
    out.push_back(std::move(f));
    return;
  }
  if ((!kfd || !kfd->exists) && ctx.snap.os.container) return;  // the container's doing: container_rules.cpp
  if (!kfd || !kfd->exists) {
    Finding f = MakeFinding("runtime.kfd_missing", Layer::kRuntime, Severity::kError, "/dev/kfd",
                            "/dev/kfd is missing: ROCm cannot reach the GPU");
    f.evidence.push_back(
        std::string("required /dev/kfd (the amdgpu compute interface), found ") +
        (ctx.snap.amd.kfd_topology_present ? "a KFD topology but no device node" : "neither"));
    f.fix_summary = "check that amdgpu loaded with compute (KFD) support";
    f.fix.push_back(FixAction::Bash("sudo dmesg | grep -i kfd"));
    f.link = kAmdgpuInstall;
    out.push_back(std::move(f));
    return;
  }
  if (!denied.empty()) {
    DeniedNodes(ctx, denied, out);
    return;
  }
  // Not seen is not ok: a node whose access could not be told (a recorded tree without the user's groups, a
  // mode that was not read) is "not checked".
  if (!kfd->accessible) {
    Finding f = MakeFinding("runtime.device_access_ok", Layer::kRuntime, Severity::kInfo, "/dev/kfd",
                            "Not checked: whether this user can open /dev/kfd and the render nodes");
    f.evidence.push_back("/dev/kfd exists; whether it opens read-write for this user: " + kfd->reason);
    f.fix_summary = "see that the user is in the group that owns the nodes (render, video)";
    f.fix.push_back(FixAction::Bash("ls -l /dev/kfd /dev/dri/renderD*; id"));
    out.push_back(std::move(f));
    return;
  }
  Finding f = MakeFinding("runtime.device_access_ok", Layer::kRuntime, Severity::kOk, "/dev/kfd",
                          "/dev/kfd and the render nodes are usable");
  f.evidence.push_back("/dev/kfd: " + kfd->reason);
  out.push_back(std::move(f));
}

void SystemRocm(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform == Platform::kWindows || !ctx.HasVendor(GpuVendor::kAmd)) return;
  std::vector<const RuntimeInstall*> trees;
  for (const auto& r : ctx.snap.runtimes)
    if (r.kind == "rocm") trees.push_back(&r);
  if (trees.empty()) {
    bool wheel = ctx.torch && ctx.torch->build == TorchBuild::kRocm;
    Finding f = MakeFinding(
        "runtime.rocm_not_installed", Layer::kRuntime, wheel ? Severity::kOk : Severity::kInfo, "",
        wheel ? "No system ROCm; the installed PyTorch brings its own ROCm libraries"
              : "No system ROCm installed: not needed for PyTorch wheels, which bring their own");
    f.evidence.push_back("looked for /opt/rocm*, found none");
    f.link = kAmdgpuInstall;
    out.push_back(std::move(f));
    return;
  }
  // Distinct versions (the /opt/rocm link and the folder it names are one install).
  std::vector<std::pair<Version, const RuntimeInstall*>> versions;
  for (const auto* t : trees) {
    auto v = RocmVersion(t->version);
    if (!v) continue;
    bool seen = std::any_of(versions.begin(), versions.end(), [&](const auto& p) { return p.first == *v; });
    if (!seen) versions.emplace_back(*v, t);
  }
  if (versions.size() > 1) {
    Finding f =
        MakeFinding("runtime.rocm_mixed", Layer::kRuntime, Severity::kWarning, "",
                    "Several ROCm versions are installed: programs may load libraries from two of them");
    for (const auto& [v, t] : versions) f.evidence.push_back("found ROCm " + v.ToString() + " at " + t->path);
    f.fix_summary = "keep one ROCm, or point ROCM_PATH and LD_LIBRARY_PATH at the same one";
    f.fix.push_back(FixAction::SetEnv("ROCM_PATH", versions.back().second->path));
    f.link = "https://github.com/ROCm/TheRock/issues/3225";
    out.push_back(std::move(f));
  }
  const GpuView* g = nullptr;
  for (const auto& v : ctx.gpus)
    if (v.vendor == GpuVendor::kAmd && !g) g = &v;
  for (const auto& [v, t] : versions) {
    const RocmRelease* rel = ctx.db.FindRocmRelease(v);
    if (!rel || !g || g->gfx.empty()) continue;
    std::string series = rel->series.ToString();
    if (Contains(rel->gfx, g->gfx)) {
      bool deprecated = Contains(rel->deprecated_gfx, g->gfx);
      Finding f = MakeFinding(
          "runtime.rocm_supports_gpu", Layer::kRuntime, deprecated ? Severity::kInfo : Severity::kOk, t->path,
          "ROCm " + v.ToString() +
              (deprecated ? " lists " + g->gfx + " as deprecated" : " supports " + g->gfx + " officially"));
      f.evidence.push_back("required " + g->gfx + " in ROCm " + series + "'s GPU list, found it");
      Cite(f, rel->provenance);
      out.push_back(std::move(f));
    } else {
      Finding f = MakeFinding("runtime.rocm_gpu_unlisted", Layer::kRuntime, Severity::kInfo, t->path,
                              "ROCm " + v.ToString() + " does not list " + g->gfx +
                                  ": it runs only through a sibling target or a community build");
      f.evidence.push_back("required " + g->gfx + " in ROCm " + series + "'s GPU list, found only " + [&] {
        std::string s;
        for (const auto& x : rel->gfx) s += (s.empty() ? "" : " ") + x;
        return s;
      }());
      Cite(f, rel->provenance);
      out.push_back(std::move(f));
    }
  }
}

void KernelVersion(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux) return;
  const std::string& release = ctx.snap.os.kernel_release;
  size_t end = 0;
  while (end < release.size() &&
         (std::isdigit(static_cast<unsigned char>(release[end])) || release[end] == '.'))
    ++end;
  auto kernel = Version::Parse(std::string_view(release).substr(0, end));
  if (!kernel) return;
  for (const KernelFloor& floor : ctx.db.kernel_floors) {  // data/rocm_releases.toml [[kernel_floor]]
    auto it = std::find_if(ctx.gpus.begin(), ctx.gpus.end(), [&](const GpuView& g) {
      return std::find(floor.gfx.begin(), floor.gfx.end(), g.gfx) != floor.gfx.end();
    });
    if (it == ctx.gpus.end() || *kernel >= floor.min_kernel) continue;
    const std::string min = floor.min_kernel.ToString();
    Finding f = MakeFinding(
        "runtime.kernel_too_old", Layer::kRuntime, Severity::kWarning, it->label,
        "Kernel " + release + " is older than the " + min + " " + it->gfx + " needs for stable compute");
    f.evidence.push_back("required Linux >= " + min + ", found " + release);
    f.evidence.push_back(floor.why);
    f.fix_summary =
        "install kernel " + min +
        " or newer (or a distribution kernel with the fix backported); until then HSA_ENABLE_SDMA=0 "
        "avoids some hangs";
    f.fix.push_back(FixAction::Manual("install a Linux kernel >= " + min + ", then reboot"));
    f.fix.push_back(FixAction::SetEnv("HSA_ENABLE_SDMA", "0"));
    Cite(f, floor.provenance);
    out.push_back(std::move(f));
  }
}

// Whether `driver` lies beyond the last branch of the machine's GPU (a Pascal card and a driver 590): no
// driver that GPU can run reaches it, so advice must never ask for it.
// Whether `driver` lies past the GPU's last branch (a Windows 581.xx is still R580: cuda_drivers.toml
// [[nvidia_windows_branch]]).
bool BeyondLastBranch(const RuleContext& ctx, const std::optional<LastBranch>& last, const Version& driver) {
  return last && ctx.db.DriverBranchNumber(driver, ctx.platform == Platform::kWindows) > last->number;
}

// The other way out of a driver too old for the wheel: keep the driver and install the wheel built for
// it (the same torch series when one fits the GPU and the driver, else the newest that does). `only_way`:
// no driver update can help (the GPU's last branch does not reach the wheel's CUDA).
void AddWheelForInstalledDriver(const RuleContext& ctx, Finding& f, bool only_way = false) {
  auto gpu = std::find_if(ctx.gpus.begin(), ctx.gpus.end(),
                          [](const GpuView& g) { return g.vendor == GpuVendor::kNvidia && g.cc; });
  const TorchRoute* route = ctx.db.FindRoute("pytorch-cuda");
  if (gpu == ctx.gpus.end() || !route) return;
  const bool windows = ctx.platform == Platform::kWindows;
  const TorchWheel* wheel = BestCudaWheel(ctx.db, *gpu->cc, ctx.nvidia_driver, ctx.torch->version, windows);
  if (!wheel) wheel = BestCudaWheel(ctx.db, *gpu->cc, ctx.nvidia_driver, std::nullopt, windows);
  if (!wheel) return;
  f.evidence.push_back(std::string(only_way ? "keep driver " : "or keep driver ") +
                       ctx.nvidia_driver->ToString() + ": PyTorch " + wheel->torch.ToString() + " " +
                       wheel->variant + " (CUDA " + wheel->cuda->ToString() + ") runs on it and carries " +
                       SmName(*gpu->cc) + " code");
  f.fix_summary += (only_way ? ": PyTorch " : ", or keep the driver and install PyTorch ") +
                   wheel->torch.ToString() + " " + wheel->variant;
  f.fix.push_back(FixAction::Manual(std::string(only_way ? "keeping the driver" : "or, keeping the driver") +
                                    ", replace PyTorch with the " + wheel->variant + " build made for it:"));
  RouteChoice choice;
  choice.route = route;
  choice.wheel = wheel;
  choice.variant = wheel->variant;
  choice.install = FillPlaceholders(route->install, wheel->variant, "", "", "");
  AddReinstall(ctx, choice, f);
}

// A driver of a branch newer than the last one for the GPU's architecture (Pascal on 590): the driver
// does not support the GPU.
void NvidiaDriverBranchForGpu(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.nvidia_driver) return;
  auto last = LastBranchOf(ctx);
  if (!last || !BeyondLastBranch(ctx, last, *ctx.nvidia_driver)) return;
  const std::string driver = ctx.nvidia_driver->ToString();
  Finding f =
      MakeFinding("runtime.driver_branch_drops_gpu", Layer::kRuntime, Severity::kError, last->gpu->label,
                  "NVIDIA driver " + driver + " does not support " + last->architecture +
                      " GPUs: " + last->branch->branch + " is the last branch for them");
  f.evidence.push_back("required a driver of branch " + last->branch->branch + " or older for " +
                       last->architecture + " (compute capability " + last->gpu->cc->ToString() +
                       "), found " + driver);
  f.fix_summary = "install the newest " + last->branch->branch + " driver (" + std::to_string(last->number) +
                  ".xx); stay on that branch";
  for (FixAction& a : BranchDriverInstall(ctx, *last)) f.fix.push_back(std::move(a));
  f.fix.push_back(FixAction::Manual("reboot, then check with: nvidia-smi"));
  Cite(f, last->branch->provenance);
  out.push_back(std::move(f));
}

// The -open packaging of the installed branch, for the user's distribution: Debian's comes from NVIDIA's
// repository (its own packages are too old), every other from data/cuda_drivers.toml's open_lines.
void AddOpenModulesInstall(const RuleContext& ctx, const NvidiaOpenModulesOnly& only, Finding& f) {
  if (ctx.snap.os.distro_id == "debian") {
    for (FixAction& a : DebianNvidiaRepoOpen(ctx, only)) f.fix.push_back(std::move(a));
  } else {
    const std::string branch = ctx.nvidia_driver ? std::to_string(ctx.nvidia_driver->major()) : "<branch>";
    for (FixAction& a : OpenModulesInstall(ctx, branch)) f.fix.push_back(std::move(a));
  }
  f.fix.push_back(
      FixAction::Manual("reboot, then check: /proc/driver/nvidia/version says \"Open Kernel Module\""));
}

// A GPU only the open kernel modules drive (Blackwell) under the proprietary module: it fails to
// initialize ("RmInitAdapter failed", nvidia-smi finds no device) whatever the driver version.
void NvidiaOpenModules(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux || ctx.snap.nvidia.kernel_module != NvidiaKernelModule::kProprietary)
    return;
  auto open = OpenModulesOnlyGpu(ctx);
  if (!open) return;
  const GpuView& g = *open->gpu;
  const std::string& arch = open->only->architecture;
  const std::string driver = ctx.snap.nvidia.driver_version.value_or("of unknown version");
  // One finding: the module is the machine's, not the GPU's.
  Finding f = MakeFinding("runtime.nvidia_needs_open_modules", Layer::kRuntime, Severity::kError, g.label,
                          arch +
                              " GPUs need NVIDIA's open kernel modules; the proprietary "
                              "module is loaded and cannot drive this GPU");
  f.evidence.push_back("required the open kernel module flavour for " + arch + " (compute capability " +
                       g.cc->ToString() + "), found the proprietary one: " +
                       "/proc/driver/nvidia/version names an \"NVIDIA UNIX <arch> Kernel Module\" " + driver +
                       ", not an \"Open Kernel Module\"");
  f.evidence.push_back("the kernel log says why: sudo dmesg | grep -i \"open kernel modules\"");
  f.fix_summary =
      "replace the proprietary kernel modules with the open ones of the same driver branch, then reboot";
  AddOpenModulesInstall(ctx, *open->only, f);
  Cite(f, open->only->provenance);
  out.push_back(std::move(f));
}

void NvidiaDriverForCuda(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.HasVendor(GpuVendor::kNvidia) || !ctx.torch || !ctx.torch->cuda || !ctx.nvidia_driver) return;
  const Version& cuda = *ctx.torch->cuda;
  auto floors = ctx.db.CudaDriverFloor(cuda);
  if (!floors || !floors->minor_compat) return;
  const bool windows = ctx.platform == Platform::kWindows;
  const Version& floor = windows ? floors->minor_compat->windows_driver : floors->minor_compat->linux_driver;
  const std::string driver = ctx.nvidia_driver->ToString();
  std::optional<Version> toolkit;
  if (floors->toolkit) toolkit = windows ? floors->toolkit->windows_driver : floors->toolkit->linux_driver;
  const std::string subject = ctx.torch->env->torch->version;
  if (*ctx.nvidia_driver < floor) {
    Finding f = MakeFinding("runtime.cuda_driver_too_old", Layer::kRuntime, Severity::kError, subject,
                            "NVIDIA driver " + driver + " is too old for the CUDA " + cuda.ToString() +
                                " PyTorch was built with");
    f.evidence.push_back("required driver >= " + floor.ToString() + " for any CUDA " +
                         std::to_string(cuda.major()) + ".x runtime, found " + driver);
    auto last = LastBranchOf(ctx);
    if (BeyondLastBranch(ctx, last, floor)) {
      // Issue 13: never "update to X within R580" with X above 580; the older wheel is the way out.
      f.evidence.push_back("no driver of " + last->branch->branch + ", the last branch for " +
                           last->architecture + ", reaches " + floor.ToString());
      f.fix_summary =
          "keep an " + last->branch->branch + " driver and install a PyTorch built for an older CUDA";
      AddWheelForInstalledDriver(ctx, f, /*only_way=*/true);
      Cite(f, last->branch->provenance);
      out.push_back(std::move(f));
      return;
    }
    // The toolkit's own driver when the GPU's branch reaches it, else the floor (minor-version
    // compatibility).
    std::optional<Version> target = toolkit;
    if (target && BeyondLastBranch(ctx, last, *target)) target = floor;
    f.fix_summary =
        "update the NVIDIA driver" + (target ? " to " + target->ToString() + " or newer" : std::string());
    AddNvidiaDriverInstall(ctx, f);
    Cite(f, floors->minor_compat->provenance);
    AddWheelForInstalledDriver(ctx, f);
    out.push_back(std::move(f));
    return;
  }
  auto supported = ctx.snap.nvidia.cuda_driver_version;
  uint32_t wanted = cuda.major() * 1000 + cuda.minor() * 10;
  if (supported && *supported < wanted) {
    std::string max = std::to_string(*supported / 1000) + "." + std::to_string((*supported % 1000) / 10);
    Finding f =
        MakeFinding("runtime.cuda_driver_older_than_wheel", Layer::kRuntime, Severity::kWarning, subject,
                    "Driver " + driver + " supports CUDA " + max + "; PyTorch was built with CUDA " +
                        cuda.ToString() + " and runs only through minor-version compatibility");
    f.evidence.push_back("required CUDA " + cuda.ToString() + " support (driver " +
                         (toolkit ? toolkit->ToString() : "of that toolkit") + "), found CUDA " + max);
    auto last = LastBranchOf(ctx);
    if (toolkit && BeyondLastBranch(ctx, last, *toolkit)) {
      // The GPU's last branch never supports this CUDA fully: stay on it, and for full support use a wheel
      // of an older CUDA.
      f.evidence.push_back("no driver of " + last->branch->branch + ", the last branch for " +
                           last->architecture + ", reaches " + toolkit->ToString());
      f.fix_summary = "stay on " + last->branch->branch +
                      "; for PTX and the newer features use a PyTorch built for CUDA " + max + " or older";
      AddWheelForInstalledDriver(ctx, f, /*only_way=*/true);
      Cite(f, last->branch->provenance);
      out.push_back(std::move(f));
      return;
    }
    f.fix_summary = "update the driver so PTX and newer features of CUDA " + cuda.ToString() + " work";
    AddNvidiaDriverInstall(ctx, f);
    Cite(f, floors->toolkit ? floors->toolkit->provenance : floors->minor_compat->provenance);
    out.push_back(std::move(f));
    return;
  }
  Finding f = MakeFinding("runtime.cuda_driver_ok", Layer::kRuntime, Severity::kOk, subject,
                          "NVIDIA driver " + driver + " runs CUDA " + cuda.ToString());
  f.evidence.push_back("required driver >= " + floor.ToString() +
                       (toolkit ? " (toolkit's own: " + toolkit->ToString() + ")" : "") + ", found " +
                       driver);
  Cite(f, floors->minor_compat->provenance);
  out.push_back(std::move(f));
}

}  // namespace

void OverrideRules(const RuleContext& ctx, std::vector<Finding>& out);   // runtime_override.cpp
void ContainerRules(const RuleContext& ctx, std::vector<Finding>& out);  // container_rules.cpp

std::vector<Finding> RuntimeRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  KernelDrivers(ctx, out);
  ComputeNodes(ctx, out);
  ContainerRules(ctx, out);
  KernelVersion(ctx, out);
  SystemRocm(ctx, out);
  OverrideRules(ctx, out);
  NvidiaLibraryMismatch(ctx, out);
  NvidiaCdiSpecStale(ctx, out);
  NvidiaFabricManager(ctx, out);
  NvidiaDriverBranchForGpu(ctx, out);
  NvidiaOpenModules(ctx, out);
  NvidiaDriverForCuda(ctx, out);
  return out;
}

}  // namespace gpudoctor
