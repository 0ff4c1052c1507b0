// Fabric Manager's files (see fabric_manager.h). Where the packages put them: nv-fabricmanager in /usr/bin,
// nvidia-fabricmanager.service in /lib/systemd/system (Debian, Ubuntu), /usr/lib/systemd/system (RHEL) or
// /etc/systemd/system (a local install); `systemctl enable` links it into multi-user.target.wants. The
// version comes from the dpkg database; RHEL's rpm database is not text, so there it stays unknown.
#include "probe/linux/fabric_manager.h"

#include <algorithm>
#include <array>

#include "core/strings.h"
#include "probe/linux/dpkg_status.h"
#include "probe/linux/pci_sysfs_parse.h"
#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {
namespace {

constexpr const char* kNvSwitchPciDir = "/sys/bus/pci/devices";
constexpr const char* kBinary = "/usr/bin/nv-fabricmanager";
constexpr const char* kUnitName = "nvidia-fabricmanager.service";
constexpr std::array<const char*, 3> kUnitFolders = {"/lib/systemd/system", "/usr/lib/systemd/system",
                                                     "/etc/systemd/system"};
constexpr const char* kWantsFolder = "/etc/systemd/system/multi-user.target.wants";
constexpr const char* kDpkgStatus = "/var/lib/dpkg/status";
constexpr size_t kMaxDpkgStatusBytes = 64u << 20;  // a few MiB on a server with thousands of packages

std::optional<uint32_t> HexFile(const SysfsReader& r, const std::string& path, uint32_t max_value) {
  auto text = r.Optional(path);
  if (!text) return std::nullopt;
  auto v = ParsePciHexAttribute(*text, max_value);
  if (!v.ok()) return std::nullopt;  // the PCI probe already warns about the GPUs' own files
  return *v;
}

uint32_t CountNvSwitches(const ProbeContext& ctx, Snapshot& snap) {
  SysfsReader r(ctx.fs, snap.warnings);
  auto entries = ctx.fs.ListDir(kNvSwitchPciDir);
  if (!entries.ok()) return 0;
  uint32_t count = 0;
  for (const std::string& e : *entries) {
    const std::string dir = JoinPath(kNvSwitchPciDir, e);
    auto class_code = HexFile(r, JoinPath(dir, "class"), 0xffffff);
    if (!class_code || (*class_code >> 8) != 0x0680) continue;
    auto vendor = HexFile(r, JoinPath(dir, "vendor"), 0xffff);
    if (vendor && IsNvSwitchPciFunction(*vendor, *class_code)) ++count;
  }
  return count;
}

void ReadDpkgVersions(const ProbeContext& ctx, Snapshot& snap, FabricManagerInfo& fm) {
  snap.looked_at.push_back(kDpkgStatus);
  if (!ctx.fs.Exists(kDpkgStatus)) return;  // not a Debian-like system: unknown
  auto text = ctx.fs.ReadFile(kDpkgStatus, kMaxDpkgStatusBytes);
  if (!text.ok()) {
    snap.warnings.push_back(std::string(kDpkgStatus) + ": " + text.error().message);
    return;
  }
  fm.version_source = kDpkgStatus;
  for (const DpkgPackage& p : InstalledDpkgPackages(*text)) {
    if (IsFabricManagerPackage(p.name) && fm.package.empty()) {
      fm.package = p.name;
      fm.version = DebianUpstreamVersion(p.version);
    } else if (p.name == "nvlsm") {
      fm.nvlsm_version = DebianUpstreamVersion(p.version);
    }
  }
}

}  // namespace

bool IsNvSwitchPciFunction(uint32_t vendor_id, uint32_t class_code) {
  return vendor_id == 0x10de && (class_code >> 8) == 0x0680;
}

bool IsFabricManagerPackage(std::string_view name) {
  constexpr std::string_view kName = "nvidia-fabricmanager";
  if (name == kName) return true;
  if (!StartsWith(name, kName) || name.size() <= kName.size() + 1 || name[kName.size()] != '-') return false;
  const std::string_view branch = name.substr(kName.size() + 1);
  return std::all_of(branch.begin(), branch.end(), [](char c) { return c >= '0' && c <= '9'; });
}

void ProbeFabricManager(const ProbeContext& ctx, Snapshot& snap) {
  if (snap.os.wsl) return;
  const bool nvidia = std::any_of(snap.pci_devices.begin(), snap.pci_devices.end(),
                                  [](const PciDevice& d) { return d.vendor_id == 0x10de; });
  if (!nvidia) return;
  const uint32_t switches = CountNvSwitches(ctx, snap);
  if (switches == 0) return;
  snap.looked_at.push_back(std::string(kNvSwitchPciDir) + " (" + std::to_string(switches) + " NVSwitch" +
                           (switches == 1 ? ")" : "es)"));
  FabricManagerInfo fm;
  fm.nvswitches = switches;
  snap.looked_at.push_back(kBinary);
  if (ctx.fs.Exists(kBinary)) fm.binary = kBinary;
  for (const char* folder : kUnitFolders) {
    const std::string unit = JoinPath(folder, kUnitName);
    snap.looked_at.push_back(unit);
    if (ctx.fs.Exists(unit)) {
      fm.unit = unit;
      break;
    }
  }
  // The enablement link itself (read, not followed), or a copy of the unit there.
  const std::string wanted = JoinPath(kWantsFolder, kUnitName);
  snap.looked_at.push_back(wanted);
  fm.enabled = ctx.fs.ReadLink(wanted).ok() || ctx.fs.Exists(wanted);
  ReadDpkgVersions(ctx, snap, fm);
  snap.nvidia.fabric_manager = std::move(fm);
}

}  // namespace gpudoctor
