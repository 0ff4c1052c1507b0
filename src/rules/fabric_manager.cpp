// Fabric Manager on NVSwitch systems (issue 29's driver-stack model; see fabric_manager.h). On HGX/DGX
// A100, H100, H200 and B200 boards CUDA fails with error 802 "system not yet initialized" until
// nv-fabricmanager has set up the NVSwitches, and Fabric Manager refuses to start beside a driver of another
// version. The install commands per distribution are data/cuda_drivers.toml [[fabric_manager_install]];
// the architectures that also need the NVLink Subnet Manager are its [[nvlsm_architecture]].
#include "rules/fabric_manager.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kGuide =
    "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html";
constexpr const char* kEnable = "sudo systemctl enable --now nvidia-fabricmanager";

std::string Replaced(std::string text, std::string_view placeholder, const std::string& value) {
  for (size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at))
    text.replace(at, placeholder.size(), value), at += value.size();
  return text;
}

// The loaded driver's version and branch ("570.124.06", "570"); nullopt when unknown.
struct DriverRelease {
  std::string version;
  std::string branch;
};

std::optional<DriverRelease> LoadedDriver(const RuleContext& ctx) {
  const auto& v = ctx.snap.nvidia.driver_version;
  if (!v || v->empty()) return std::nullopt;
  auto parsed = Version::Parse(*v);
  if (!parsed) return std::nullopt;
  return DriverRelease{*v, std::to_string(parsed->major())};
}

std::string SwitchesText(uint32_t n) {
  return std::to_string(n) + (n == 1 ? " NVSwitch" : " NVSwitches");
}

// The distribution's install of Fabric Manager at the driver's version, then the service started.
void AddInstall(const RuleContext& ctx, const std::optional<DriverRelease>& driver, Finding& f) {
  const FabricManagerInstall* how =
      ctx.db.FindFabricManagerInstall(ctx.snap.os.distro_id, ctx.snap.os.distro_id_like);
  if (!driver || !how) {
    f.fix.push_back(FixAction::Manual(
        "install the NVIDIA Fabric Manager package of exactly the loaded driver's version (nvidia-smi shows "
        "it) for your distribution"));
  } else {
    for (const std::string& line : how->lines) {
      const std::string filled =
          Replaced(Replaced(line, "BRANCH", driver->branch), "VERSION", driver->version);
      f.fix.push_back(filled.starts_with("sudo ") ? FixAction::Bash(filled) : FixAction::Manual(filled));
    }
    RestsOn(f, how->provenance);
  }
  f.fix.push_back(FixAction::Bash(kEnable));
  f.fix.push_back(FixAction::Manual(
      "check with: systemctl status nvidia-fabricmanager; nvidia-smi -q | grep -A2 Fabric"));
}

void FabricManagerMissing(const RuleContext& ctx, const FabricManagerInfo& fm,
                          const std::optional<DriverRelease>& driver, std::vector<Finding>& out) {
  Finding f = MakeFinding("runtime.fabric_manager_missing", Layer::kRuntime, Severity::kError, "",
                          "This machine has " + SwitchesText(fm.nvswitches) +
                              " but no NVIDIA Fabric Manager: CUDA fails with error 802 (system not yet "
                              "initialized) until it runs");
  f.evidence.push_back(
      "required nv-fabricmanager on a machine with " + SwitchesText(fm.nvswitches) +
      " (NVIDIA PCI functions of class 0x0680), found no /usr/bin/nv-fabricmanager, no "
      "nvidia-fabricmanager.service" +
      (fm.version_source.empty() ? std::string() : " and no package in " + fm.version_source));
  if (driver)
    f.evidence.push_back("Fabric Manager must be exactly the driver's version: " + driver->version + " (" +
                         ctx.snap.nvidia.driver_version_source + ")");
  f.fix_summary = driver ? "install Fabric Manager " + driver->version + " and start it"
                         : "install Fabric Manager of the driver's version and start it";
  AddInstall(ctx, driver, f);
  f.link = kGuide;
  out.push_back(std::move(f));
}

void WrongVersion(const RuleContext& ctx, const FabricManagerInfo& fm, const DriverRelease& driver,
                  std::vector<Finding>& out) {
  Finding f = MakeFinding("runtime.fabric_manager_version", Layer::kRuntime, Severity::kError, "",
                          "NVIDIA Fabric Manager is " + fm.version + " but the driver is " + driver.version +
                              ": Fabric Manager refuses to start and CUDA fails with error 802");
  f.evidence.push_back("required Fabric Manager " + driver.version + " (the driver's, " +
                       ctx.snap.nvidia.driver_version_source + "), found " + fm.package + " " + fm.version +
                       " (" + fm.version_source + ")");
  f.evidence.push_back(
      "Fabric Manager checks the loaded driver's version when it starts and exits on any other; a driver "
      "update without Fabric Manager's (or the other way round) leaves them apart");
  f.fix_summary = "install Fabric Manager " + driver.version + ", the driver's version, and restart it";
  AddInstall(ctx, driver, f);
  f.fix.insert(f.fix.end() - 1, FixAction::Bash("sudo systemctl restart nvidia-fabricmanager"));
  f.link = kGuide;
  out.push_back(std::move(f));
}

void Disabled(const FabricManagerInfo& fm, std::vector<Finding>& out) {
  Finding f =
      MakeFinding("runtime.fabric_manager_disabled", Layer::kRuntime, Severity::kWarning, "",
                  "NVIDIA Fabric Manager is installed but not enabled: after the next boot CUDA fails "
                  "with error 802 until someone starts it");
  f.evidence.push_back(
      "required a link to nvidia-fabricmanager.service in "
      "/etc/systemd/system/multi-user.target.wants, found " +
      (fm.unit.empty() ? std::string("no unit file (") + fm.binary + " alone)"
                       : fm.unit + " not linked there"));
  f.fix_summary = "enable Fabric Manager so it starts at every boot, and start it now";
  f.fix.push_back(FixAction::Bash(kEnable));
  f.link = kGuide;
  out.push_back(std::move(f));
}

// The first NVIDIA GPU whose architecture needs the NVLink Subnet Manager, with that row.
const NvlsmArchitecture* NvlsmNeeded(const RuleContext& ctx) {
  for (const GpuView& g : ctx.gpus) {
    if (g.vendor != GpuVendor::kNvidia || !g.cc) continue;
    const CudaArch* arch = ctx.db.FindCudaArch(*g.cc);
    if (!arch) continue;
    for (const NvlsmArchitecture& n : ctx.db.nvlsm_architectures)
      if (n.architecture == arch->architecture) return &n;
  }
  return nullptr;
}

void NvlsmMissing(const RuleContext& ctx, const FabricManagerInfo& fm, std::vector<Finding>& out) {
  const NvlsmArchitecture* need = NvlsmNeeded(ctx);
  // Only the dpkg database says what is installed; on RPM systems it stays unknown, never "missing".
  if (need == nullptr || fm.version_source.empty() || !fm.nvlsm_version.empty()) return;
  Finding f = MakeFinding("runtime.nvlsm_missing", Layer::kRuntime, Severity::kError, "",
                          need->architecture + " NVSwitch systems need the NVLink Subnet Manager (" +
                              need->package + ") beside Fabric Manager, and it is not installed");
  f.evidence.push_back("required the " + need->package + " package for " + need->architecture +
                       " GPUs with " + SwitchesText(fm.nvswitches) + ", found none in " + fm.version_source);
  f.fix_summary = "install the NVLink Subnet Manager, then restart Fabric Manager";
  f.fix.push_back(FixAction::Bash("sudo apt install " + need->package));
  f.fix.push_back(FixAction::Bash("sudo systemctl restart nvidia-fabricmanager"));
  Cite(f, need->provenance);
  out.push_back(std::move(f));
}

}  // namespace

void NvidiaFabricManager(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform != Platform::kLinux || ctx.snap.os.container || ctx.snap.os.wsl) return;
  const auto& fm = ctx.snap.nvidia.fabric_manager;
  if (!fm || fm->nvswitches == 0) return;
  const auto driver = LoadedDriver(ctx);
  const bool installed = !fm->binary.empty() || !fm->unit.empty() || !fm->package.empty();
  if (!installed) return FabricManagerMissing(ctx, *fm, driver, out);
  if (driver && !fm->version.empty() && fm->version != driver->version) WrongVersion(ctx, *fm, *driver, out);
  if (!fm->enabled) Disabled(*fm, out);
  NvlsmMissing(ctx, *fm, out);
}

}  // namespace gpudoctor
