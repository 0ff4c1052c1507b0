// Linux PCI probe: walks /sys/bus/pci/devices, keeps display and accelerator functions, and reads
// for each its ids, driver, NUMA node, PCIe link, DRM card and memory, name and iGPU/dGPU verdict.
#include "probe/linux/pci_probe.h"

#include <algorithm>
#include <map>

#include "core/pci_address.h"
#include "core/strings.h"
#include "probe/linux/integrated_gpu.h"
#include "probe/linux/pci_name_files.h"
#include "probe/linux/pci_sysfs_parse.h"
#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {
namespace {

constexpr const char* kPciDevicesDir = "/sys/bus/pci/devices";
constexpr const char* kDrmClassDir = "/sys/class/drm";

// "card0" but not "card0-DP-1" (a connector) nor "renderD128".
bool IsDrmCardName(std::string_view name) {
  if (!StartsWith(name, "card") || name.size() == 4) return false;
  return ParseU64(name.substr(4)).has_value() && name.find_first_of(" \t+-") == std::string_view::npos;
}

std::optional<uint32_t> ReadHexAttribute(const SysfsReader& r, const std::string& path, uint32_t max_value,
                                         bool required) {
  auto text = required ? r.Required(path) : r.Optional(path);
  if (!text) return std::nullopt;
  auto v = ParsePciHexAttribute(*text, max_value);
  if (!v.ok()) {
    r.Warn(path, v.error().message);
    return std::nullopt;
  }
  return *v;
}

// For attributes whose parser says "no value" (Unknown, -1) apart from "garbage".
template <typename T, typename Parser>
std::optional<T> ReadOptionalAttribute(const SysfsReader& r, const std::string& path, Parser parse) {
  auto text = r.Optional(path);
  if (!text) return std::nullopt;
  auto v = parse(*text);
  if (!v.ok()) {
    r.Warn(path, v.error().message);
    return std::nullopt;
  }
  return v.value();
}

// Which DRM card belongs to which PCI address, from /sys/class/drm/cardN/device (a symbolic link to
// the PCI device) or, when that link cannot be read, the card's uevent PCI_SLOT_NAME.
std::map<std::string, std::string> DrmCardsByAddress(const SysfsReader& r) {
  std::map<std::string, std::string> cards;
  auto names = r.List(kDrmClassDir);
  if (!names) return cards;
  for (const auto& name : *names) {
    if (!IsDrmCardName(name)) continue;
    std::string device = JoinPath(JoinPath(kDrmClassDir, name), "device");
    std::string address;
    if (auto target = r.fs().ReadLink(device); target.ok()) {
      address = NormalizePciAddress(BaseName(*target));
    } else if (auto uevent = r.Optional(JoinPath(device, "uevent"))) {
      for (auto line : SplitLines(*uevent))
        if (StartsWith(line, "PCI_SLOT_NAME=")) address = NormalizePciAddress(line.substr(14));
    }
    if (!address.empty() && !cards.count(address)) cards[address] = name;
  }
  return cards;
}

// The device folder's own drm/cardN entry (present on every kernel that exposes DRM).
std::optional<std::string> DrmCardInDeviceFolder(const FileSystem& fs, const std::string& device_dir) {
  auto names = fs.ListDir(JoinPath(device_dir, "drm"));
  if (!names.ok()) return std::nullopt;
  for (const auto& name : *names)
    if (IsDrmCardName(name)) return name;
  return std::nullopt;
}

// The bound driver: the name of the `driver` link's target, else the DRIVER= line
// of the device's uevent file (the same fact, readable where links are not:
// Windows builds reading a recorded tree, copies made without links).
std::string ReadDriver(const SysfsReader& r, const std::string& device_dir) {
  std::string link = JoinPath(device_dir, "driver");
  auto target = r.fs().ReadLink(link);
  if (target.ok()) return std::string(BaseName(*target));
  if (auto uevent = r.Optional(JoinPath(device_dir, "uevent"))) {
    for (auto line : SplitLines(*uevent))
      if (StartsWith(line, "DRIVER=")) return std::string(Trim(line.substr(7)));
    return {};
  }
  if (r.fs().Stat(link).ok()) r.Warn(link, "not a symbolic link to a driver");
  return {};
}

void ReadLinkState(const SysfsReader& r, const std::string& dir, PcieLink& link) {
  link.current_speed_gts =
      ReadOptionalAttribute<double>(r, JoinPath(dir, "current_link_speed"), ParseLinkSpeedGts);
  link.max_speed_gts = ReadOptionalAttribute<double>(r, JoinPath(dir, "max_link_speed"), ParseLinkSpeedGts);
  link.current_width =
      ReadOptionalAttribute<uint32_t>(r, JoinPath(dir, "current_link_width"), ParseLinkWidth);
  link.max_width = ReadOptionalAttribute<uint32_t>(r, JoinPath(dir, "max_link_width"), ParseLinkWidth);
}

// Usable Gbit/s of one link: 8b/10b encoding up to 5 GT/s, 128b/130b from 8 GT/s (PCIe 3.0 and later).
double LinkGbps(double speed_gts, uint32_t width) {
  return speed_gts * width * (speed_gts < 8.0 ? 0.8 : 128.0 / 130.0);
}

// The device's sysfs path (/sys/bus/pci/devices/X links to ../../../devices/pci0000:00/<port>/.../X) names
// the ports between it and the root complex; the slowest of their links, when slower than the device's own,
// is what its transfers get.
void ReadNarrowestUpstreamLink(const SysfsReader& r, const std::string& dir, const std::string& address,
                               PcieLink& link) {
  if (!link.current_speed_gts || !link.current_width) return;
  auto target = r.fs().ReadLink(dir);
  if (!target.ok()) return;
  double narrowest = LinkGbps(*link.current_speed_gts, *link.current_width);
  for (std::string_view part : Split(*target, '/')) {
    if (!ParsePciAddress(part) || NormalizePciAddress(part) == NormalizePciAddress(address)) continue;
    PcieLink port;
    ReadLinkState(r, JoinPath(kPciDevicesDir, std::string(part)), port);
    if (!port.current_speed_gts || !port.current_width || *port.current_width == 0) continue;
    const double gbps = LinkGbps(*port.current_speed_gts, *port.current_width);
    if (gbps >= narrowest) continue;
    narrowest = gbps;
    link.narrowest_port = std::string(part);
    link.narrowest_speed_gts = port.current_speed_gts;
    link.narrowest_width = port.current_width;
  }
}

void ReadDrmMemory(const SysfsReader& r, const std::string& dir, PciDevice& d) {
  d.drm_vram_total_bytes = r.Decimal(JoinPath(dir, "mem_info_vram_total"), false);
  d.drm_vram_used_bytes = r.Decimal(JoinPath(dir, "mem_info_vram_used"), false);
  d.drm_gtt_total_bytes = r.Decimal(JoinPath(dir, "mem_info_gtt_total"), false);
  // gpu_busy_percent fails to read on some APUs and suspended GPUs: only garbage is worth a warning.
  std::string busy_path = JoinPath(dir, "gpu_busy_percent");
  if (auto busy = r.fs().ReadFile(busy_path, 64); busy.ok()) {
    auto v = ParseU64(*busy);
    if (v && *v <= 100)
      d.gpu_busy_percent = static_cast<uint32_t>(*v);
    else
      r.Warn(busy_path, "not a percentage (" + QuoteForWarning(*busy) + ")");
  }
}

// Reads one display/accelerator function whose class is already known.
PciDevice ReadPciDevice(const SysfsReader& r, GpuNameResolver& names,
                        const std::map<std::string, std::string>& cards_by_address,
                        const std::string& address, uint32_t class_code) {
  const std::string dir = JoinPath(kPciDevicesDir, address);
  PciDevice d;
  d.address = address;
  d.class_code = class_code;
  d.vendor_id = ReadHexAttribute(r, JoinPath(dir, "vendor"), 0xffff, true).value_or(0);
  d.device_id = ReadHexAttribute(r, JoinPath(dir, "device"), 0xffff, true).value_or(0);
  d.subsystem_vendor_id = ReadHexAttribute(r, JoinPath(dir, "subsystem_vendor"), 0xffff, false);
  d.subsystem_device_id = ReadHexAttribute(r, JoinPath(dir, "subsystem_device"), 0xffff, false);
  d.revision = ReadHexAttribute(r, JoinPath(dir, "revision"), 0xff, false);
  d.driver = ReadDriver(r, dir);
  d.numa_node = ReadOptionalAttribute<int32_t>(r, JoinPath(dir, "numa_node"), ParseNumaNode);
  ReadLinkState(r, dir, d.link);
  ReadNarrowestUpstreamLink(r, dir, address, d.link);

  d.drm_card = DrmCardInDeviceFolder(r.fs(), dir);
  if (!d.drm_card) {
    auto it = cards_by_address.find(NormalizePciAddress(address));
    if (it != cards_by_address.end()) d.drm_card = it->second;
  }
  ReadDrmMemory(r, dir, d);

  GpuNameAnswer name =
      names.Resolve(d.vendor_id, d.device_id, d.revision, d.subsystem_vendor_id, d.subsystem_device_id);
  d.name = name.name;
  d.name_source = name.source;
  d.vendor_name = std::string(ShortGpuVendorName(d.vendor_id));
  if (d.vendor_name.empty()) d.vendor_name = name.vendor_name;
  if (d.vendor_name.empty()) d.vendor_name = "0x" + Hex(d.vendor_id, 4);

  IntegratedEvidence evidence;
  evidence.vendor_id = d.vendor_id;
  evidence.device_id = d.device_id;
  evidence.pci_address = d.address;
  evidence.vram_total_bytes = d.drm_vram_total_bytes;
  evidence.gtt_total_bytes = d.drm_gtt_total_bytes;
  evidence.has_vram_vendor = r.fs().Exists(JoinPath(dir, "mem_info_vram_vendor"));
  evidence.has_board_info = r.fs().Exists(JoinPath(dir, "board_info"));
  IntegratedVerdict verdict = ClassifyIntegrated(evidence);
  d.integrated = verdict.integrated;
  d.integrated_reason = verdict.reason;
  return d;
}

}  // namespace

void ProbePciDevices(const ProbeContext& ctx, Snapshot& snapshot) {
  SysfsReader r(ctx.fs, snapshot.warnings);
  auto entries = r.List(kPciDevicesDir);
  if (!entries) {
    snapshot.looked_at.push_back(std::string(kPciDevicesDir) + " (absent: no PCI bus information)");
    return;
  }
  GpuNameResolver names(r, snapshot.looked_at);
  std::map<std::string, std::string> cards_by_address;
  bool cards_read = false;
  std::vector<PciDevice> found;
  for (const auto& entry : *entries) {
    if (!ParsePciAddress(entry)) {
      r.Warn(JoinPath(kPciDevicesDir, entry), "not a PCI address");
      continue;
    }
    auto class_code = ReadHexAttribute(r, JoinPath(JoinPath(kPciDevicesDir, entry), "class"), 0xffffff, true);
    if (!class_code || !IsGpuPciClass(*class_code)) continue;
    if (!cards_read) {
      cards_by_address = DrmCardsByAddress(r);
      cards_read = true;
    }
    found.push_back(ReadPciDevice(r, names, cards_by_address, entry, *class_code));
  }
  std::sort(found.begin(), found.end(),
            [](const PciDevice& a, const PciDevice& b) { return PciAddressTextLess(a.address, b.address); });
  snapshot.looked_at.push_back(std::string(kPciDevicesDir) + " (" + std::to_string(found.size()) +
                               (found.size() == 1 ? " display device)" : " display devices)"));
  for (auto& d : found) snapshot.pci_devices.push_back(std::move(d));
}

}  // namespace gpudoctor
