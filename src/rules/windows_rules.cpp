// Native Windows: which way to a GPU PyTorch fits this GPU here, and what stands in its way. AMD's
// own Windows wheels (RDNA3, RDNA4, Strix Halo) need Windows 11 22H2+, Python 3.12 and a recent
// Adrenalin; other AMD GPUs go through TheRock's per-family builds or ZLUDA, with ROCm on WSL2 and
// DirectML (inference only) as the other doors; HIP SDKs are checked against the GPU; NVIDIA's
// driver release (32.0.15.6094 = 560.94) against the CUDA wheels. Fixes are PowerShell and cmd
// lines; HSA_OVERRIDE_GFX_VERSION is never one of them (the Windows runtime ignores it).
#include <algorithm>

#include "core/os.h"
#include "core/strings.h"
#include "rules/rule_context.h"

namespace gpudoctor {
namespace {

// AMD's Windows PyTorch (ROCm 7.2) needs Windows 11 22H2 or newer: the ROCm 7.2 Windows requirements
// list only Windows 11 22H2+ (data/rocm_releases.toml, hip_sdk_windows 7.2), and AMD's install page
// names Windows 11.
constexpr uint32_t kAmdWheelsMinBuild = 22621;
constexpr const char* kAmdWheelsOsSource =
    "https://rocm.docs.amd.com/projects/install-on-windows/en/docs-7.2/reference/system-requirements.html";
// HIP 7's Windows runtime does not enumerate RDNA2 GPUs that HIP 6 sees.
constexpr const char* kHip7Rdna2Source = "https://github.com/ROCm/hip/issues/3899";
// ollama's detectOldAMDDriverWindows: amdhip64_6.dll without amdhip64_7.dll means an AMD driver too old.
constexpr const char* kOldDriverSource = "https://github.com/ollama/ollama/blob/main/discover/amd.go";
constexpr const char* kAdrenalinDownload = "https://www.amd.com/en/support/download/drivers.html";
constexpr const char* kVenv = "venv-rocm";

// The Python versions that can run a pip install here: the interpreters found and the environments.
std::vector<std::string> PythonVersions(const RuleContext& ctx) {
  std::vector<std::string> out;
  auto add = [&](const std::string& v) {
    if (!v.empty() && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  for (const auto& p : ctx.snap.windows.python_installs) add(p.version);
  for (const auto& e : ctx.snap.python_envs) add(e.python_version);
  std::sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    auto va = Version::Parse(a), vb = Version::Parse(b);
    return va && vb ? *va < *vb : a < b;
  });
  return out;
}

// The first "Adrenalin X.Y.Z" in a route's driver text ("Adrenalin 25.11.1 or newer (26.x)").
std::optional<Version> MinAdrenalin(const TorchRoute& route) {
  size_t pos = route.driver.find("Adrenalin ");
  if (pos == std::string::npos) return std::nullopt;
  std::string rest = route.driver.substr(pos + 10);
  return Version::Parse(rest.substr(0, rest.find(' ')));
}

const WindowsAdapter* AdapterOf(const RuleContext& ctx, const GpuView& g) {
  for (const auto& a : ctx.snap.windows.adapters) {
    if (!a.pci_address.empty() && a.pci_address == g.gpu->pci_address) return &a;
  }
  for (const auto& a : ctx.snap.windows.adapters) {
    if (g.pci && a.vendor_id == g.pci->vendor_id && a.device_id == g.pci->device_id && !a.software) return &a;
  }
  return nullptr;
}

// "Adrenalin 25.12.1" -> 25.12.1.
std::optional<Version> AdrenalinVersion(const WindowsAdapter* a) {
  if (!a || !StartsWith(a->release, "Adrenalin ")) return std::nullopt;
  return Version::Parse(a->release.substr(10));
}

bool HasRuntime(const RuleContext& ctx, const std::string& kind, const std::string& file) {
  return std::any_of(ctx.snap.runtimes.begin(), ctx.snap.runtimes.end(), [&](const RuntimeInstall& r) {
    return r.kind == kind && EndsWith(ToLower(r.path), file);
  });
}

// HIP 7's Windows runtime (amdhip64_7.dll) does not enumerate RDNA2 GPUs that HIP 6 sees (kHip7Rdna2Source).
bool IsRdna2(const GpuView& g) {
  return g.target && ToString(g.target->family) == std::string("RDNA2");
}

// An installed AMD Windows torch whose driver floor this GPU's driver does not reach. On Windows every
// "+rocm..." torch is AMD's (pytorch.org builds ROCm for Linux only): "+rocmsdk<date>" comes from the
// ROCm 7.2 route, "+rocm7.14.0" / "+rocm10.x" from the multi-arch one. Below the floor, or with no
// amdhip64_7.dll where the release is unknown, the wheels' HIP 7 runtime finds no usable driver.
struct DriverBelowWheels {
  const TorchRoute* route = nullptr;
  Version floor;
  std::string found;  // "Adrenalin 25.9.1", or why the driver counts as older
};

std::optional<DriverBelowWheels> BelowInstalledFloor(const RuleContext& ctx, const GpuView& g) {
  if (!ctx.torch || !StartsWith(ctx.torch->variant, "rocm")) return std::nullopt;
  const TorchRoute* route = ctx.db.FindRoute(
      StartsWith(ctx.torch->variant, "rocmsdk") ? "amd-windows-rocm7.2" : "amd-windows-wheels");
  if (!route) return std::nullopt;
  auto floor = MinAdrenalin(*route);
  if (!floor) return std::nullopt;
  const WindowsAdapter* a = AdapterOf(ctx, g);
  if (auto have = AdrenalinVersion(a)) {
    if (*have >= *floor) return std::nullopt;
    return DriverBelowWheels{route, *floor, a->release};
  }
  const bool rdna2 = IsRdna2(g);
  if (rdna2 || HasRuntime(ctx, "hip-runtime", "amdhip64_7.dll")) return std::nullopt;
  return DriverBelowWheels{route, *floor,
                           "a driver without amdhip64_7.dll (no Adrenalin release recorded), so older than "
                           "ROCm 7"};
}

// A pip line of a route ("py -3.12 -m pip install ...") run with the venv's own interpreter instead.
ShellCommands InVenv(const ShellCommands& route) {
  auto rest = [](const std::string& cmd) -> std::string {
    size_t pos = cmd.find(" -m pip ");
    return pos == std::string::npos ? std::string() : cmd.substr(pos + 8);
  };
  ShellCommands out;
  if (std::string r = rest(route.powershell); !r.empty())
    out.powershell = "& \"$env:USERPROFILE\\" + std::string(kVenv) + "\\Scripts\\python.exe\" -m pip " + r;
  if (std::string r = rest(route.cmd); !r.empty())
    out.cmd = "\"%USERPROFILE%\\" + std::string(kVenv) + "\\Scripts\\python.exe\" -m pip " + r;
  return out;
}

// Steps: install Python `version` when missing, make the venv with it, install the route there.
void AddVenvInstall(const RuleContext& ctx, const std::string& version, const ShellCommands& route,
                    Finding& f) {
  auto have = PythonVersions(ctx);
  if (std::find(have.begin(), have.end(), version) == have.end())
    f.fix.push_back(FixAction::PerShell({"", "winget install -e --id Python.Python." + version,
                                         "winget install -e --id Python.Python." + version}));
  f.fix.push_back(FixAction::PerShell({"", "py -" + version + " -m venv \"$env:USERPROFILE\\" + kVenv + "\"",
                                       "py -" + version + " -m venv \"%USERPROFILE%\\" + kVenv + "\""}));
  f.fix.push_back(FixAction::PerShell(InVenv(route)));
}

std::string WindowsName(const RuleContext& ctx) {
  return ctx.snap.os.distro_name.empty() ? "an unknown Windows" : ctx.snap.os.distro_name;
}

// The other doors for an AMD GPU, as evidence lines: WSL2 (when its ROCm lists the GPU), ZLUDA,
// DirectML, each with what it needs.
void Alternatives(const RuleContext& ctx, const GpuView& g, Finding& f) {
  const WindowsInfo& w = ctx.snap.windows;
  bool wsl_gpu = std::any_of(ctx.db.rocm_wsl.begin(), ctx.db.rocm_wsl.end(),
                             [&](const RocmWslNote& n) { return Contains(n.gfx, g.gfx); });
  if (const TorchRoute* wsl = ctx.db.FindRoute("rocm-wsl2"); wsl && wsl_gpu) {
    std::string state = !w.wsl_installed ? "WSL is not installed"
                        : w.wsl_distros.empty()
                            ? "WSL is installed without a distribution"
                            : "WSL distributions: " + [&] {
                                std::string s;
                                for (const auto& d : w.wsl_distros)
                                  s += (s.empty() ? "" : ", ") + d.name +
                                       (d.version ? " (WSL " + std::to_string(*d.version) + ")" : "");
                                return s;
                              }();
    if (w.virtualization_firmware_enabled && !*w.virtualization_firmware_enabled &&
        !(w.hypervisor_present && *w.hypervisor_present))
      state += "; virtualization is off in the firmware (WSL2 needs it on)";
    f.evidence.push_back("alternative: " + wsl->name + " — " + wsl->driver + "; " + state);
  } else {
    f.evidence.push_back("ROCm on WSL2 does not list " + g.gfx + " (data/rocm_releases.toml rocm_wsl)");
  }
  if (const TorchRoute* zluda = ctx.db.FindRoute("zluda"); zluda && Contains(zluda->gfx, g.gfx))
    f.evidence.push_back("alternative: " + zluda->name + " — " + zluda->driver);
  if (const TorchRoute* dml = ctx.db.FindRoute("directml"))
    f.evidence.push_back("for inference only: " + dml->name +
                         " (an old torch, device torch_directml.device())");
  f.evidence.push_back("HSA_OVERRIDE_GFX_VERSION cannot help here: the Windows HIP runtime ignores it");
}

// The Python the wheels need against the ones installed: the newest installed that the wheels are built
// for, else 3.12 (every AMD Windows build has it); `ok` when one installed fits.
std::string WheelPython(const RuleContext& ctx, const TorchRoute& route, std::vector<std::string>& evidence,
                        bool& ok) {
  auto versions = PythonVersions(ctx);
  std::string python;
  for (auto it = versions.rbegin(); it != versions.rend() && python.empty(); ++it)
    if (Contains(route.python, *it)) python = *it;
  if (python.empty())
    python = route.python.empty() || Contains(route.python, "3.12") ? "3.12" : route.python.front();
  ok = std::any_of(versions.begin(), versions.end(),
                   [&](const std::string& v) { return Contains(route.python, v); });
  evidence.push_back("required Python " + JoinList(route.python) + ", found " +
                     (versions.empty() ? std::string("no Python") : "Python " + JoinList(versions)));
  return python;
}

void AmdWheels(const RuleContext& ctx, const GpuView& g, const RouteChoice& choice,
               std::vector<Finding>& out) {
  const TorchRoute& route = *choice.route;
  std::vector<std::string> missing;  // short names for the title
  std::vector<std::string> evidence;
  // Windows.
  const auto build = ctx.snap.os.windows_build;
  bool os_ok = build && *build >= kAmdWheelsMinBuild;
  evidence.push_back("required Windows 11 22H2 or newer (build " + std::to_string(kAmdWheelsMinBuild) +
                     "+), found " + WindowsName(ctx));
  if (!os_ok) missing.push_back("Windows 11 22H2+");
  // Python.
  bool python_ok = false;
  const std::string python = WheelPython(ctx, route, evidence, python_ok);
  if (!python_ok) missing.push_back("Python " + python);
  // Driver.
  const WindowsAdapter* adapter = AdapterOf(ctx, g);
  auto min = MinAdrenalin(route);
  auto have = AdrenalinVersion(adapter);
  bool driver_ok = true;
  if (min) {
    std::string found = adapter && !adapter->release.empty() ? adapter->release
                        : adapter && !adapter->driver_version.empty()
                            ? "driver " + adapter->driver_version + " (no RadeonSoftwareVersion recorded)"
                            : "no driver version";
    evidence.push_back("required Adrenalin " + min->ToString() + " or newer, found " + found);
    if (have && *have < *min) {
      driver_ok = false;
      missing.push_back("Adrenalin " + min->ToString() + "+");
    }
  }
  if (HasRuntime(ctx, "hip-runtime", "amdhip64_6.dll") && !HasRuntime(ctx, "hip-runtime", "amdhip64_7.dll"))
    evidence.push_back(
        "the driver's HIP runtime is amdhip64_6.dll only: it predates ROCm 7 (update Adrenalin first; the "
        "HIP SDK is only for building HIP code)");
  // AMD's Windows wheels carry "+rocmsdk20260116" (ROCm 7.2) or "+rocm7.14.0" / "+rocm10.0.0" (multi-arch).
  const bool installed = ctx.torch && StartsWith(ctx.torch->variant, "rocm");
  // Installed wheels on a driver below their floor are windows.amd_driver_below_wheels's error; said once.
  if (installed && BelowInstalledFloor(ctx, g)) {
    if (os_ok && python_ok) return;
    driver_ok = true;
    std::erase_if(missing, [](const std::string& m) { return StartsWith(m, "Adrenalin "); });
  }
  const bool ready = os_ok && python_ok && driver_ok;
  Finding f = MakeFinding(
      ready ? "windows.amd_wheels_ready" : "windows.amd_wheels_blocked", Layer::kHardware,
      ready ? (installed ? Severity::kOk : Severity::kInfo) : Severity::kWarning, g.label,
      ready
          ? (installed ? "AMD's Windows PyTorch is installed and this machine meets its requirements"
                       : "AMD's Windows PyTorch wheels fit " + g.gfx + " and this machine meets their needs")
          : "AMD's Windows PyTorch wheels for " + g.gfx + " need " + JoinList(missing));
  f.evidence = std::move(evidence);
  if (!ready) Alternatives(ctx, g, f);
  Cite(f, route.provenance);
  if (!os_ok) {
    f.fix.push_back(
        FixAction::Manual("upgrade to Windows 11 22H2 or newer (Settings > Windows Update), or use "
                          "one of the alternatives above"));
    f.link = kAmdWheelsOsSource;
  }
  if (!driver_ok)
    f.fix.push_back(
        FixAction::Manual("install AMD Software: Adrenalin Edition " + min->ToString() +
                          " or newer (https://www.amd.com/en/support/download/drivers.html), then reboot"));
  if (!installed) {
    f.fix_summary = ready
                        ? "install them into a fresh Python " + python + " venv"
                        : "meet the requirements, then install the wheels into a Python " + python + " venv";
    AddVenvInstall(ctx, python, choice.install, f);
    f.fix.push_back(
        FixAction::Manual("if `import torch` fails with WinError 126 (libomp140.x86_64.dll), install the "
                          "latest Visual C++ Redistributable (x64)"));
  } else if (!ready) {
    f.fix_summary = "meet the requirements the installed wheels need";
  }
  out.push_back(std::move(f));
}

// AMD GPUs outside AMD's own wheels: TheRock's builds for the GPU's family, ZLUDA, WSL2, DirectML.
void AmdOtherRoutes(const RuleContext& ctx, const GpuView& g, const std::vector<RouteChoice>& routes,
                    std::vector<Finding>& out) {
  auto therock = std::find_if(routes.begin(), routes.end(),
                              [](const RouteChoice& c) { return StartsWith(c.route->id, "therock"); });
  std::string family;  // the first family that builds it ("gfx103X-all")
  for (const TheRockFamily* fam : ctx.db.FindTheRockFamilies(g.gfx))
    if (family.empty()) family = fam->name;
  bool release_ready = false;
  for (const auto& s : ctx.db.therock_status)
    if (PlatformFromName(s.platform) == Platform::kWindows && Contains(s.release_ready, g.gfx))
      release_ready = true;
  Finding f = MakeFinding(
      "windows.amd_therock", Layer::kHardware, Severity::kInfo, g.label,
      "AMD's Windows wheels do not cover " + g.gfx +
          (therock != routes.end() ? ": TheRock's " + (family.empty() ? g.gfx : family) + " builds do"
                                   : ": no maintained PyTorch build for it on Windows"));
  if (const TorchRoute* amd = ctx.db.FindRoute("amd-windows-wheels"))
    f.evidence.push_back("required " + g.gfx + " in AMD's Windows wheels (" + JoinList(amd->gfx) +
                         "), found it missing");
  if (therock != routes.end()) {
    f.evidence.push_back("TheRock builds " + g.gfx + " in " + (family.empty() ? "its family" : family) +
                         " for Windows (" + (release_ready ? "release-ready" : "build-only, untested") +
                         "; nightly packages)");
    std::string python;
    auto versions = PythonVersions(ctx);
    for (auto it = versions.rbegin(); it != versions.rend() && python.empty(); ++it)
      if (Contains(therock->route->python, *it)) python = *it;
    if (python.empty()) python = "3.12";
    f.fix_summary = "install TheRock's torch for " + g.gfx + " into a Python " + python + " venv";
    AddVenvInstall(ctx, python, therock->install, f);
    Cite(f, therock->route->provenance);
  }
  Alternatives(ctx, g, f);
  out.push_back(std::move(f));
}

// An installed HIP SDK against the GPU's target (data/rocm_releases.toml hip_sdk_windows).
void HipSdks(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  for (const auto& r : ctx.snap.runtimes) {
    if (r.kind != "hip-sdk") continue;
    auto v = Version::Parse(r.version);
    if (!v) continue;
    const HipSdkWindows* sdk = nullptr;
    for (const auto& s : ctx.db.hip_sdks_windows) {
      if (s.version.major() == v->major() && s.version.minor() <= v->minor() &&
          (!sdk || s.version > sdk->version))
        sdk = &s;
    }
    const bool rdna2 = IsRdna2(g);
    const bool hip7_rdna2 = v->major() >= 7 && rdna2;
    bool listed = sdk && (Contains(sdk->gfx_sdk, g.gfx) || Contains(sdk->gfx_runtime, g.gfx));
    if (listed && !hip7_rdna2) continue;
    if (!sdk && !hip7_rdna2) continue;
    Finding f = MakeFinding("windows.hip_sdk_gpu", Layer::kRuntime, Severity::kWarning, r.path,
                            "HIP SDK " + r.version + " does not support " + g.gfx +
                                (hip7_rdna2 ? ": ROCm 7's Windows runtime does not see RDNA2 GPUs" : ""));
    if (sdk) {
      f.evidence.push_back("required " + g.gfx + " in HIP SDK " + sdk->version.ToString() +
                           "'s GPU list, found " +
                           (Contains(sdk->gfx_unsupported, g.gfx) ? "it listed as unsupported"
                                                                  : "only " + JoinList(sdk->gfx_sdk)));
      Cite(f, sdk->provenance);
    }
    if (hip7_rdna2) {
      f.evidence.push_back(
          "amdhip64_7.dll answers hipGetDeviceCount with no device on RDNA2 while amdhip64_6.dll sees it");
      f.link = kHip7Rdna2Source;
    }
    f.fix_summary = "use a HIP SDK 6.x for tools that need one (ZLUDA, hipcc); PyTorch brings its own ROCm";
    f.fix.push_back(
        FixAction::Manual("install the HIP SDK 6.4 (https://www.amd.com/en/developer/resources/rocm-hub/"
                          "hip-sdk.html) and point HIP_PATH at it"));
    out.push_back(std::move(f));
  }
}

void NvidiaDriver(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const WindowsAdapter* a = AdapterOf(ctx, g);
  if (!ctx.nvidia_driver) return;
  // Below the floor of the installed torch's CUDA, runtime.cuda_driver_too_old is the error that says it;
  // the driver is never an [ok] line then.
  if (ctx.torch && ctx.torch->cuda) {
    auto floors = ctx.db.CudaDriverFloor(*ctx.torch->cuda);
    if (floors && floors->minor_compat && *ctx.nvidia_driver < floors->minor_compat->windows_driver) return;
  }
  const std::string release = ctx.nvidia_driver->ToString();
  std::optional<Version> cuda12, cuda13;
  for (const auto& c : ctx.db.cuda_minor_compat) {
    if (c.cuda.major() == 12 && c.cuda.minor() == 0) cuda12 = c.windows_driver;
    if (c.cuda.major() == 13 && c.cuda.minor() == 0) cuda13 = c.windows_driver;
  }
  Severity sev = cuda12 && *ctx.nvidia_driver < *cuda12 ? Severity::kWarning : Severity::kOk;
  Finding f =
      MakeFinding("windows.nvidia_driver", Layer::kRuntime, sev, g.label,
                  "NVIDIA driver " + release +
                      (a && !a->driver_version.empty() ? " (Windows driver " + a->driver_version + ")" : ""));
  if (cuda12)
    f.evidence.push_back("CUDA 12 wheels (cu12x) need " + cuda12->ToString() +
                         "+: " + (*ctx.nvidia_driver >= *cuda12 ? "met" : "not met"));
  if (cuda13)
    f.evidence.push_back(
        "CUDA 13 wheels (cu13x) need " + cuda13->ToString() +
        "+: " + (*ctx.nvidia_driver >= *cuda13 ? "met" : "not met, so pip installs get a cu12x build"));
  if (a && !a->driver_version.empty() && !a->release.empty())
    f.evidence.push_back("Windows driver " + a->driver_version + " is " + a->release +
                         " (its last five digits)");
  if (sev != Severity::kOk) {
    f.fix_summary = "update the NVIDIA driver";
    f.fix.push_back(
        FixAction::Manual("install the newest Game Ready or Studio driver from "
                          "https://www.nvidia.com/Download/index.aspx (or the NVIDIA app), then reboot"));
  }
  f.link = "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html";
  out.push_back(std::move(f));
}

// The vendor's display driver must own the GPU: without it Windows runs the Microsoft Basic Display
// Adapter, which has no compute at all. Returns false when it does not.
bool VendorDriver(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const WindowsAdapter* a = AdapterOf(ctx, g);
  const bool amd = g.vendor == GpuVendor::kAmd;
  const std::string want = amd ? "amdkmdag" : "nvlddmkm";
  if (!a || a->driver_service.empty() || ToLower(a->driver_service) == ToLower(want) ||
      ToLower(a->driver_service).rfind("amdkmd", 0) == 0)
    return true;
  Finding f = MakeFinding("windows.display_driver_missing", Layer::kRuntime, Severity::kError, g.label,
                          std::string("Windows runs this GPU without ") + (amd ? "AMD's" : "NVIDIA's") +
                              " driver: no compute API can reach it");
  f.evidence.push_back("required the " + want + " service, found " + a->driver_service +
                       (a->driver_provider.empty() ? "" : " (" + a->driver_provider + ")"));
  f.fix_summary = std::string("install ") + (amd ? "AMD Software: Adrenalin Edition" : "NVIDIA's driver") +
                  ", then reboot";
  f.fix.push_back(
      FixAction::Manual(amd ? "download Adrenalin from https://www.amd.com/en/support/download/drivers.html"
                            : "download the driver from https://www.nvidia.com/Download/index.aspx"));
  f.link = amd ? "https://www.amd.com/en/support/download/drivers.html"
               : "https://www.nvidia.com/Download/index.aspx";
  out.push_back(std::move(f));
  return false;
}

// The installed AMD torch cannot start on this driver: an error of the driver layer, never an [ok] line.
Finding DriverBelowWheelsFinding(const RuleContext& ctx, const GpuView& g, const DriverBelowWheels& below,
                                 const std::string& driver, const std::vector<std::string>& hip) {
  const PythonEnv& env = *ctx.torch->env;
  const std::string torch = "torch " + env.torch->version;
  Finding f = MakeFinding("windows.amd_driver_below_wheels", Layer::kRuntime, Severity::kError, g.label,
                          driver + " is older than the Adrenalin " + below.floor.ToString() + " that " +
                              torch + " needs: it cannot use the GPU");
  f.evidence.push_back("required Adrenalin " + below.floor.ToString() + " or newer for " + below.route->name +
                       ", found " + below.found);
  f.evidence.push_back(torch + " in " + env.path);
  f.evidence.push_back(hip.empty() ? "no amdhip64*.dll in System32: this driver brings no HIP runtime"
                                   : "HIP runtime from the driver: " + JoinList(hip) +
                                         (HasRuntime(ctx, "hip-runtime", "amdhip64_7.dll")
                                              ? ""
                                              : " (the wheels load amdhip64_7.dll)"));
  f.fix_summary = "update Adrenalin to " + below.floor.ToString() +
                  " or newer, reboot, then check that torch sees the GPU";
  f.fix.push_back(FixAction::Manual("install AMD Software: Adrenalin Edition " + below.floor.ToString() +
                                    " or newer (" + std::string(kAdrenalinDownload) + "), then reboot"));
  if (!env.interpreter.empty()) {
    const std::string check = " -c \"import torch; print(torch.cuda.is_available())\"";
    f.fix.push_back(FixAction::PerShell(
        {"", "& \"" + env.interpreter + "\"" + check, "\"" + env.interpreter + "\"" + check}));
  }
  Cite(f, below.route->provenance);
  return f;
}

// AMD's driver and the HIP runtime it puts in System32 (what HIP programs such as ZLUDA load).
void AmdDriver(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const WindowsAdapter* a = AdapterOf(ctx, g);
  if (!a || a->driver_version.empty()) return;
  std::vector<std::string> hip;
  for (const auto& r : ctx.snap.runtimes) {
    if (r.kind != "hip-runtime") continue;
    size_t cut = r.path.find_last_of("\\/");
    hip.push_back(r.path.substr(cut == std::string::npos ? 0 : cut + 1) +
                  (r.version.empty() ? "" : " " + r.version));
  }
  // The HIP 7 runtime comes with the driver, not with the HIP SDK: without it, HIP 7 programs (AMD's
  // PyTorch, ZLUDA's HIP 7 builds) stop at "amdhip64_7.dll was not found". (RDNA2 is left alone: HIP 7's
  // Windows runtime does not see it, see HipSdks.)
  const bool rdna2 = IsRdna2(g);
  const bool old_driver = !rdna2 && !HasRuntime(ctx, "hip-runtime", "amdhip64_7.dll");
  const std::string name =
      "AMD display driver " + a->driver_version + (a->release.empty() ? "" : " (" + a->release + ")");
  if (auto below = BelowInstalledFloor(ctx, g)) {
    out.push_back(DriverBelowWheelsFinding(ctx, g, *below, name, hip));
    return;
  }
  Finding f =
      MakeFinding("windows.amd_driver", Layer::kRuntime, old_driver ? Severity::kInfo : Severity::kOk,
                  g.label, old_driver ? name + " predates ROCm 7: it brings no amdhip64_7.dll" : name);
  if (!a->release.empty()) f.evidence.push_back(a->release + " (" + a->release_source + ")");
  f.evidence.push_back(hip.empty() ? "no amdhip64*.dll in System32: this driver brings no HIP runtime"
                                   : "HIP runtime from the driver: " + JoinList(hip));
  if (!a->driver_date.empty()) f.evidence.push_back("driver date " + a->driver_date);
  if (old_driver) {
    f.fix_summary =
        "update Adrenalin first: amdhip64_7.dll, which HIP 7 programs load, ships with the driver; "
        "the HIP SDK is only needed to build HIP code";
    f.fix.push_back(FixAction::Manual("install the latest AMD Software: Adrenalin Edition (" +
                                      std::string(kAdrenalinDownload) + "), then reboot"));
    f.link = kOldDriverSource;
  }
  out.push_back(std::move(f));
}

void NoPython(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!PythonVersions(ctx).empty() || ctx.gpus.empty()) return;
  Finding f = MakeFinding("windows.no_python", Layer::kFramework, Severity::kInfo, "",
                          "No Python found: PyTorch needs one");
  f.evidence.push_back(
      "looked at the py launcher's registrations (PEP 514), python.org, Store and conda folders");
  f.fix_summary = "install Python 3.12 (it fits every Windows route)";
  f.fix.push_back(FixAction::PerShell(
      {"", "winget install -e --id Python.Python.3.12", "winget install -e --id Python.Python.3.12"}));
  f.link = "https://docs.python.org/3/using/windows.html";
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> WindowsRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  if (ctx.platform != Platform::kWindows) return out;
  for (const auto& g : ctx.gpus) {
    // An iGPU beside a dGPU of the same vendor is no compute target of its own.
    bool secondary = g.integrated && ctx.gpus.front().vendor == g.vendor && !ctx.gpus.front().integrated;
    if (secondary) continue;
    if (!VendorDriver(ctx, g, out)) continue;
    if (g.vendor == GpuVendor::kAmd) AmdDriver(ctx, g, out);
    if (g.vendor == GpuVendor::kAmd && !g.gfx.empty()) {
      auto routes = RoutesFor(ctx, g);
      auto amd = std::find_if(routes.begin(), routes.end(),
                              [](const RouteChoice& c) { return c.route->id == "amd-windows-wheels"; });
      if (amd != routes.end()) {
        AmdWheels(ctx, g, *amd, out);
      } else if (!ctx.db.FindNativeWrongPitfall(g.gfx)) {  // else hardware.gpu_wrong_results says it
        AmdOtherRoutes(ctx, g, routes, out);
      }
      HipSdks(ctx, g, out);
    } else if (g.vendor == GpuVendor::kNvidia) {
      NvidiaDriver(ctx, g, out);
    }
  }
  NoPython(ctx, out);
  return out;
}

}  // namespace gpudoctor
