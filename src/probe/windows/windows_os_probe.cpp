// Windows' own facts: RtlGetVersion's build with the registry's CurrentVersion values (ProductName
// still says "Windows 10" on Windows 11, so the name comes from the build), the processor name,
// memory and core counts, the profile folder's free space, the firmware's virtualization switch,
// and the WSL distributions registered for this user.
#include "probe/windows/windows_os_probe.h"

#include "core/strings.h"
#include "probe/common/virtual_machine.h"
#include "probe/windows/windows_ids.h"
#include "probe/windows/windows_registry_paths.h"

namespace gpudoctor {
namespace {

std::string RegistryText(const WindowsSystemSource& w, RegistryRoot root, const char* path,
                         const char* name) {
  auto v = w.ReadRegistry(root, path, name);
  if (!v) return {};
  return std::string(Trim(v->AsText().value_or("")));
}

std::optional<uint64_t> RegistryNumber(const WindowsSystemSource& w, RegistryRoot root,
                                       const std::string& path, const char* name) {
  auto v = w.ReadRegistry(root, path, name);
  return v ? v->AsNumber() : std::nullopt;
}

void ProbeVersion(const ProbeContext& ctx, const WindowsSystemFacts& facts, Snapshot& snap) {
  const WindowsSystemSource& w = *ctx.windows;
  WindowsInfo& info = snap.windows;
  snap.looked_at.push_back(std::string("HKLM\\") + kRegCurrentVersion);
  info.product_name = RegistryText(w, RegistryRoot::kLocalMachine, kRegCurrentVersion, "ProductName");
  info.edition_id = RegistryText(w, RegistryRoot::kLocalMachine, kRegCurrentVersion, "EditionID");
  info.display_version = RegistryText(w, RegistryRoot::kLocalMachine, kRegCurrentVersion, "DisplayVersion");
  if (info.display_version.empty())
    info.display_version = RegistryText(w, RegistryRoot::kLocalMachine, kRegCurrentVersion, "ReleaseId");
  if (auto ubr = RegistryNumber(w, RegistryRoot::kLocalMachine, kRegCurrentVersion, "UBR");
      ubr && *ubr <= 0xFFFFFFFFu)
    info.ubr = static_cast<uint32_t>(*ubr);
  std::optional<uint32_t> build;
  if (facts.version && facts.version->build > 0) build = facts.version->build;
  if (!build) {
    if (auto b = ParseU64(RegistryText(w, RegistryRoot::kLocalMachine, kRegCurrentVersion, "CurrentBuild"));
        b && *b < 1000000)
      build = static_cast<uint32_t>(*b);
  }
  snap.os.family = OsFamily::kWindows;
  snap.os.distro_id = "windows";
  snap.os.windows_build = build;
  if (!build) {
    snap.warnings.push_back(
        "Windows build unknown: neither RtlGetVersion nor the registry's CurrentBuild was read");
    snap.os.distro_name = info.product_name.empty() ? "Windows" : info.product_name;
    return;
  }
  info.windows11 = *build >= kWindows11FirstBuild;
  info.windows11_22h2_or_newer = *build >= kWindows11_22H2Build;
  std::string name = WindowsProductName(*build, info.product_name);
  if (!info.display_version.empty()) name += " " + info.display_version;
  name += " (build " + std::to_string(*build) + (info.ubr ? "." + std::to_string(*info.ubr) : "") + ")";
  snap.os.distro_name = name;
  snap.os.distro_version = info.display_version;
  if (facts.version) {
    snap.os.kernel_version_text = "Windows NT " + std::to_string(facts.version->major) + "." +
                                  std::to_string(facts.version->minor) + "." + std::to_string(*build);
  }
}

void Machine(const ProbeContext& ctx, const WindowsSystemFacts& facts, Snapshot& snap) {
  const WindowsSystemSource& w = *ctx.windows;
  snap.host_name = RegistryText(w, RegistryRoot::kLocalMachine, kRegComputerName, "ComputerName");
  snap.cpu.model = RegistryText(w, RegistryRoot::kLocalMachine, kRegProcessor0, "ProcessorNameString");
  snap.cpu.logical_cores = facts.logical_processors;
  snap.cpu.physical_cores = facts.processor_cores;
  snap.cpu.sockets = facts.processor_packages;
  snap.memory.total_bytes = facts.memory_total_bytes;
  snap.memory.available_bytes = facts.memory_available_bytes;
  snap.windows.system_directory = facts.system_directory;
  snap.windows.virtualization_firmware_enabled = facts.virtualization_firmware_enabled;
  snap.windows.hypervisor_present = facts.hypervisor_present;
}

// A Windows guest names its hypervisor in SMBIOS ("QEMU" / "Standard PC (Q35 + ICH9, 2009)", "Microsoft
// Corporation" / "Virtual Machine"). The CPU's hypervisor bit is not evidence here: Windows with Hyper-V or
// virtualization-based security sets it on bare metal too.
void VirtualMachine(const ProbeContext& ctx, Snapshot& snap) {
  const WindowsSystemSource& w = *ctx.windows;
  VirtualMachineEvidence evidence;
  evidence.dmi_sys_vendor = RegistryText(w, RegistryRoot::kLocalMachine, kRegBios, "SystemManufacturer");
  evidence.dmi_product_name = RegistryText(w, RegistryRoot::kLocalMachine, kRegBios, "SystemProductName");
  evidence.dmi_where = std::string("SMBIOS (HKLM\\") + kRegBios + ")";
  VirtualMachineVerdict verdict = ClassifyVirtualMachine(evidence);
  snap.os.virtual_machine = verdict.name;
  snap.os.virtual_machine_evidence = std::move(verdict.evidence);
}

// Free space of the user's profile folder; a recorded machine keeps it in /.gpudoctor/disk
// ("path=", "total_bytes=", "free_bytes=", as on Linux).
void Disk(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.live) {
    std::string file = std::string(kRecordedInputsDir) + "/disk";
    if (!ctx.fs.Exists(file)) return;
    auto text = ctx.fs.ReadFile(file, 4096);
    if (!text.ok()) {
      snap.warnings.push_back(text.error().message);
      return;
    }
    Environment values = ParseEnvironmentFile(*text);
    snap.disk.path = values.Get("path").value_or("");
    snap.disk.total_bytes = ParseU64(values.Get("total_bytes").value_or(""));
    snap.disk.free_bytes = ParseU64(values.Get("free_bytes").value_or(""));
    return;
  }
  std::string folder = ctx.env.Get("USERPROFILE").value_or("");
  if (folder.empty()) folder = ctx.env.Get("SystemDrive").value_or("C:") + "\\";
  snap.looked_at.push_back("free space of " + folder);
  auto space = ctx.fs.Space(folder);
  if (!space.ok()) {
    snap.warnings.push_back("free disk space of " + folder + " unknown: " + space.error().message);
    return;
  }
  snap.disk.path = folder;
  snap.disk.total_bytes = space->capacity_bytes;
  snap.disk.free_bytes = space->available_bytes;
}

// WSL: the Store package's Program Files\WSL\wsl.exe, or any distribution registered under
// HKCU\...\Lxss. (System32\wsl.exe proves nothing: recent Windows ships it as an installer stub.)
void Wsl(const ProbeContext& ctx, Snapshot& snap) {
  const WindowsSystemSource& w = *ctx.windows;
  WindowsInfo& info = snap.windows;
  const std::string exe = "C:\\Program Files\\WSL\\wsl.exe";
  snap.looked_at.push_back(exe);
  if (w.FileInfo(exe)) info.wsl_installed = true;
  snap.looked_at.push_back(std::string("HKCU\\") + kRegLxss);
  auto distros = w.RegistrySubkeys(RegistryRoot::kCurrentUser, kRegLxss);
  if (!distros.ok()) return;
  std::string default_id = RegistryText(w, RegistryRoot::kCurrentUser, kRegLxss, "DefaultDistribution");
  for (const auto& id : *distros) {
    std::string key = std::string(kRegLxss) + "\\" + id;
    std::string name = RegistryText(w, RegistryRoot::kCurrentUser, key.c_str(), "DistributionName");
    if (name.empty()) continue;
    WindowsWslDistro d;
    d.name = name;
    if (auto v = RegistryNumber(w, RegistryRoot::kCurrentUser, key, "Version"); v && *v <= 9)
      d.version = static_cast<uint32_t>(*v);
    d.is_default = ToLower(id) == ToLower(default_id);
    info.wsl_distros.push_back(std::move(d));
  }
  if (!info.wsl_distros.empty()) info.wsl_installed = true;
}

}  // namespace

void ProbeWindowsOs(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.windows) return;
  WindowsSystemFacts facts = ctx.windows->System();
  ProbeVersion(ctx, facts, snap);
  Machine(ctx, facts, snap);
  VirtualMachine(ctx, snap);
  Disk(ctx, snap);
  Wsl(ctx, snap);
}

}  // namespace gpudoctor
