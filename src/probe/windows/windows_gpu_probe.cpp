// Display adapters on Windows, from two sources that fill each other's gaps. The PnP registry knows
// every installed display device (Enum\PCI\<hardware id>\<instance>: ClassGUID, Driver, Service,
// LocationInformation) and its driver key (Control\Class\{4d36e968-...}\NNNN: DriverDesc,
// DriverVersion, DriverDate, ProviderName, MatchingDeviceId, HardwareInformation.qwMemorySize,
// RadeonSoftwareVersion), but also keeps devices long removed. DXGI lists only adapters present now,
// with their memory sizes, but no driver details and no PCI location. So: registry devices matched
// to DXGI adapters by PCI ids; without DXGI (wine answers DXGI_ERROR_UNSUPPORTED) the registry alone,
// and the snapshot says so.
#include "probe/windows/windows_gpu_probe.h"

#include <algorithm>

#include "core/strings.h"
#include "probe/windows/windows_ids.h"
#include "probe/windows/windows_registry_paths.h"

namespace gpudoctor {
namespace {

constexpr uint64_t kMiB = 1ull << 20;

struct RegistryDevice {
  PnpHardwareId ids;
  std::string class_key;    // "0000"
  std::string pci_address;  // "" when LocationInformation said nothing usable
  std::string service;
  bool matched = false;
};

std::string AdapterRegistryText(const WindowsSystemSource& w, const std::string& path, const char* name) {
  auto v = w.ReadRegistry(RegistryRoot::kLocalMachine, path, name);
  if (!v) return {};
  return std::string(Trim(v->AsText().value_or("")));
}

std::vector<RegistryDevice> EnumDisplayDevices(const WindowsSystemSource& w, Snapshot& snap) {
  std::vector<RegistryDevice> out;
  snap.looked_at.push_back(std::string("HKLM\\") + kRegEnumPci + " (display-class instances)");
  auto devices = w.RegistrySubkeys(RegistryRoot::kLocalMachine, kRegEnumPci);
  if (!devices.ok()) return out;
  for (const auto& name : *devices) {
    auto ids = ParsePnpHardwareId(name);
    if (!ids) continue;
    std::string device_key = std::string(kRegEnumPci) + "\\" + name;
    auto instances = w.RegistrySubkeys(RegistryRoot::kLocalMachine, device_key);
    if (!instances.ok()) continue;
    for (const auto& instance : *instances) {
      std::string key = device_key + "\\" + instance;
      if (ToLower(AdapterRegistryText(w, key, "ClassGUID")) != kDisplayClassGuid) continue;
      RegistryDevice d;
      d.ids = *ids;
      std::string driver = AdapterRegistryText(w, key, "Driver");
      size_t slash = driver.find_last_of('\\');
      if (slash != std::string::npos && ToLower(driver.substr(0, slash)) == kDisplayClassGuid)
        d.class_key = driver.substr(slash + 1);
      d.pci_address =
          PciAddressFromLocationInformation(AdapterRegistryText(w, key, "LocationInformation")).value_or("");
      d.service = AdapterRegistryText(w, key, "Service");
      out.push_back(std::move(d));
    }
  }
  return out;
}

// Driver keys no Enum instance points at (the Enum key unreadable or not recorded): ids from
// MatchingDeviceId.
void AddUnlinkedDriverKeys(const WindowsSystemSource& w, std::vector<RegistryDevice>& devices) {
  auto keys = w.RegistrySubkeys(RegistryRoot::kLocalMachine, kRegDisplayClass);
  if (!keys.ok()) return;
  for (const auto& k : *keys) {
    if (k.size() != 4 || !ParseU64(k)) continue;  // "Properties", "Configuration"
    bool linked = std::any_of(devices.begin(), devices.end(),
                              [&](const RegistryDevice& d) { return d.class_key == k; });
    if (linked) continue;
    auto ids = ParsePnpHardwareId(
        AdapterRegistryText(w, std::string(kRegDisplayClass) + "\\" + k, "MatchingDeviceId"));
    if (!ids) continue;
    RegistryDevice d;
    d.ids = *ids;
    d.class_key = k;
    devices.push_back(std::move(d));
  }
}

void FillFromDriverKey(const WindowsSystemSource& w, const RegistryDevice& d, WindowsAdapter& a) {
  a.class_key = d.class_key;
  a.pci_address = d.pci_address;
  a.driver_service = d.service;
  a.vendor_id = d.ids.vendor_id;
  a.device_id = d.ids.device_id;
  a.subsystem_vendor_id = d.ids.subsystem_vendor_id;
  a.subsystem_device_id = d.ids.subsystem_device_id;
  a.revision = d.ids.revision;
  if (d.class_key.empty()) return;
  const std::string key = std::string(kRegDisplayClass) + "\\" + d.class_key;
  a.driver_description = AdapterRegistryText(w, key, "DriverDesc");
  a.driver_version = AdapterRegistryText(w, key, "DriverVersion");
  a.driver_date = AdapterRegistryText(w, key, "DriverDate");
  a.driver_provider = AdapterRegistryText(w, key, "ProviderName");
  for (const char* name : {"HardwareInformation.qwMemorySize", "HardwareInformation.MemorySize"}) {
    auto v = w.ReadRegistry(RegistryRoot::kLocalMachine, key, name);
    if (auto n = v ? v->AsNumber() : std::nullopt; n && *n > 0) {
      a.registry_memory_bytes = *n;
      break;
    }
  }
  // A MatchingDeviceId may carry the revision the Enum key name lacked.
  if (!a.revision) {
    if (auto m = ParsePnpHardwareId(AdapterRegistryText(w, key, "MatchingDeviceId")))
      a.revision = m->revision;
  }
  if (a.vendor_id == 0x1002) {
    if (auto label = AmdReleaseLabel(AdapterRegistryText(w, key, "RadeonSoftwareVersion"))) {
      a.release = *label;
      a.release_source = "registry RadeonSoftwareVersion";
    }
  } else if (a.vendor_id == 0x10de) {
    if (auto release = NvidiaReleaseFromDriverVersion(a.driver_version)) {
      a.release = "NVIDIA " + *release;
      a.release_source = "from DriverVersion " + a.driver_version;
    }
  }
}

std::string Luid(uint64_t luid) {
  return "0x" + Hex(luid >> 32, 8) + ":0x" + Hex(luid & 0xffffffffu, 8);
}

void FillFromDxgi(const DxgiAdapterDesc& d, WindowsAdapter& a) {
  a.description = d.description;
  a.vendor_id = d.vendor_id;
  a.device_id = d.device_id;
  if (d.subsys_id != 0 && !a.subsystem_vendor_id) {
    a.subsystem_vendor_id = d.subsys_id & 0xffffu;
    a.subsystem_device_id = d.subsys_id >> 16;
  }
  if (!a.revision && d.revision != 0) a.revision = d.revision;
  a.dedicated_video_memory_bytes = d.dedicated_video_memory;
  a.dedicated_system_memory_bytes = d.dedicated_system_memory;
  a.shared_system_memory_bytes = d.shared_system_memory;
  a.luid = Luid(d.luid);
  a.software = (d.flags & kDxgiAdapterFlagSoftware) != 0;
  // An iGPU has little or no memory of its own and shares system memory; a dGPU owns gigabytes.
  // (Strix Halo's firmware may reserve tens of GB: the knowledge base still calls it integrated.)
  if (!a.software && d.dedicated_video_memory <= 512 * kMiB &&
      d.shared_system_memory > d.dedicated_video_memory) {
    a.integrated = true;
    a.integrated_reason = "DXGI: " + FormatBytes(d.dedicated_video_memory) + " dedicated, " +
                          FormatBytes(d.shared_system_memory) + " shared system memory";
  }
}

bool SameIds(const RegistryDevice& r, const DxgiAdapterDesc& d) {
  if (r.ids.vendor_id != d.vendor_id || r.ids.device_id != d.device_id) return false;
  if (r.ids.subsystem_vendor_id && d.subsys_id != 0 &&
      ((*r.ids.subsystem_device_id << 16) | *r.ids.subsystem_vendor_id) != d.subsys_id)
    return false;
  if (r.ids.revision && d.revision != 0 && *r.ids.revision != d.revision) return false;
  return true;
}

const char* VendorName(uint32_t vendor_id) {
  switch (vendor_id) {
    case 0x1002:
      return "AMD";
    case 0x10de:
      return "NVIDIA";
    case 0x8086:
      return "Intel";
    case 0x1414:
      return "Microsoft";
    default:
      return "";
  }
}

PciDevice PciFromAdapter(const WindowsAdapter& a, size_t index) {
  PciDevice p;
  p.address = !a.pci_address.empty() ? a.pci_address
              : !a.class_key.empty() ? "windows:" + a.class_key
                                     : "dxgi:" + std::to_string(index);
  p.vendor_id = a.vendor_id;
  p.device_id = a.device_id;
  p.subsystem_vendor_id = a.subsystem_vendor_id;
  p.subsystem_device_id = a.subsystem_device_id;
  p.revision = a.revision;
  p.class_code = 0x030000;  // the display class; Windows does not say VGA or 3D
  p.driver = a.driver_service;
  p.vendor_name = VendorName(a.vendor_id);
  p.integrated = a.integrated;
  p.integrated_reason = a.integrated_reason;
  return p;
}

}  // namespace

void ProbeWindowsAdapters(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.windows) return;
  const WindowsSystemSource& w = *ctx.windows;
  std::vector<RegistryDevice> devices = EnumDisplayDevices(w, snap);
  snap.looked_at.push_back(std::string("HKLM\\") + kRegDisplayClass);
  AddUnlinkedDriverKeys(w, devices);

  snap.looked_at.push_back("DXGI adapters (CreateDXGIFactory1)");
  DxgiAdapters dxgi = w.Adapters();
  std::vector<WindowsAdapter>& out = snap.windows.adapters;
  size_t hardware = 0;
  for (const auto& d : dxgi.adapters) {
    if (d.flags & kDxgiAdapterFlagRemote) continue;
    WindowsAdapter a;
    a.sources = "dxgi";
    if (!(d.flags & kDxgiAdapterFlagSoftware)) {
      ++hardware;
      auto it = std::find_if(devices.begin(), devices.end(),
                             [&](const RegistryDevice& r) { return !r.matched && SameIds(r, d); });
      if (it != devices.end()) {
        it->matched = true;
        FillFromDriverKey(w, *it, a);
        a.sources = "dxgi+registry";
      }
    }
    FillFromDxgi(d, a);
    out.push_back(std::move(a));
  }
  if (dxgi.available) {
    snap.windows.dxgi_status = "ok: " + std::to_string(hardware) + " hardware adapter(s)";
    if (!dxgi.error.empty()) snap.windows.dxgi_status += " (" + dxgi.error + ")";
  } else {
    snap.windows.dxgi_status =
        "unavailable: " + (dxgi.error.empty() ? std::string("no answer") : dxgi.error) +
        "; adapters from the registry alone";
  }
  // Registry devices DXGI did not list: without DXGI they are all there is; with it they are not
  // present now (removed cards keep their keys), so they are only named as looked at — except one
  // Windows drives with its Microsoft Basic Display Adapter (service BasicDisplay): that card is
  // there, without its vendor's driver.
  for (const auto& r : devices) {
    if (r.matched) continue;
    WindowsAdapter a;
    FillFromDriverKey(w, r, a);
    if (dxgi.available && ToLower(r.service) != "basicdisplay") {
      snap.looked_at.push_back("display driver key " + r.class_key + " (" + a.driver_description +
                               "): no DXGI adapter, so not present now");
      continue;
    }
    a.description = a.driver_description;
    a.sources = "registry";
    out.push_back(std::move(a));
  }
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].software || out[i].vendor_id == 0) continue;
    snap.pci_devices.push_back(PciFromAdapter(out[i], i));
  }
}

void ApplyWindowsAdapters(Snapshot& snap) {
  for (size_t i = 0; i < snap.windows.adapters.size(); ++i) {
    const WindowsAdapter& a = snap.windows.adapters[i];
    if (a.software || a.vendor_id == 0) continue;
    std::string address = PciFromAdapter(a, i).address;
    for (Gpu& g : snap.gpus) {
      if (g.pci_address != address) continue;
      if (g.name.empty()) g.name = !a.description.empty() ? a.description : a.driver_description;
      if (!g.vram_bytes) {
        if (a.dedicated_video_memory_bytes && *a.dedicated_video_memory_bytes > 0) {
          g.vram_bytes = a.dedicated_video_memory_bytes;
        } else if (a.registry_memory_bytes) {
          g.vram_bytes = a.registry_memory_bytes;
        }
      }
      if (!g.integrated && a.integrated) g.integrated = a.integrated;
    }
    if (a.vendor_id == 0x10de && !snap.nvidia.driver_version && !a.release.empty()) {
      snap.nvidia.driver_version = a.release.substr(a.release.find(' ') + 1);
      snap.nvidia.driver_version_source = "registry DriverVersion " + a.driver_version;
    }
  }
}

}  // namespace gpudoctor
