// Renders Snapshot::windows for people: a key-value block for the system and one table row per
// display adapter (DXGI and the registry together). Missing values read "n/a".
#include "report/info_text_windows.h"

#include "core/strings.h"
#include "core/text_table.h"
#include "report/text_parts.h"
#include "snapshot/pci_id.h"

namespace gpudoctor {
namespace {

std::string Bytes(const std::optional<uint64_t>& v) {
  return v ? FormatBytes(*v) : "n/a";
}

std::string YesNo(const std::optional<bool>& v) {
  if (!v) return "n/a";
  return *v ? "yes" : "no";
}

std::string Virtualization(const WindowsInfo& w) {
  if (w.hypervisor_present && *w.hypervisor_present) return "on (a hypervisor is running: WSL2 can start)";
  if (w.virtualization_firmware_enabled && *w.virtualization_firmware_enabled)
    return "enabled in the firmware, no hypervisor running yet";
  if (w.virtualization_firmware_enabled) return "off in the firmware (WSL2 needs it)";
  return "n/a";
}

std::string Wsl(const WindowsInfo& w) {
  if (!w.wsl_installed) return "not installed";
  if (w.wsl_distros.empty()) return "installed, no distribution";
  std::string out = "installed:";
  for (size_t i = 0; i < w.wsl_distros.size(); ++i) {
    const auto& d = w.wsl_distros[i];
    out += (i ? ", " : " ") + d.name;
    std::string extra = d.version ? "WSL " + std::to_string(*d.version) : "";
    if (d.is_default) extra += (extra.empty() ? "" : ", ") + std::string("default");
    if (!extra.empty()) out += " (" + extra + ")";
  }
  return out;
}

std::string SystemSection(const Snapshot& s, const TextStyle& style) {
  const WindowsInfo& w = s.windows;
  KeyValueBlock kv;
  kv.Add("Version", OrNa(s.os.distro_name));
  kv.Add("Windows 11 22H2+", YesNo(w.windows11_22h2_or_newer));
  kv.Add("DXGI", OrNa(w.dxgi_status));
  kv.Add("Virtualization", Virtualization(w));
  kv.Add("WSL", Wsl(w));
  if (w.python_installs.empty()) {
    kv.Add("Python", "none found");
  } else {
    for (size_t i = 0; i < w.python_installs.size(); ++i) {
      const auto& p = w.python_installs[i];
      kv.Add(i == 0 ? "Python" : "", OrNa(p.version) + " " + p.kind + " " + p.prefix + " (" + p.source + ")");
    }
  }
  return Heading("Windows", style) + kv.Render();
}

std::string AdapterSection(const Snapshot& s, const TextStyle& style) {
  const WindowsInfo& w = s.windows;
  if (w.adapters.empty()) return Heading("Display adapters: none found", style);
  TextTable t({"#", "PCI", "ID", "Name", "Driver", "Version", "Release", "Dedicated", "Shared", "From"});
  size_t i = 0;
  for (const auto& a : w.adapters) {
    std::string name = OrNa(a.description);
    if (a.software) name += " (software)";
    t.AddRow({std::to_string(i++), a.pci_address.empty() ? "n/a" : a.pci_address,
              PciIdPair(a.vendor_id, a.device_id), name, OrNa(a.driver_service), OrNa(a.driver_version),
              OrNa(a.release), Bytes(a.dedicated_video_memory_bytes), Bytes(a.shared_system_memory_bytes),
              a.sources});
  }
  return Heading("Display adapters (" + std::to_string(w.adapters.size()) + ")", style) + t.Render();
}

}  // namespace

std::string RenderWindowsSections(const Snapshot& s, const TextStyle& style) {
  if (s.os.family != OsFamily::kWindows) return {};
  return SystemSection(s, style) + "\n" + AdapterSection(s, style);
}

}  // namespace gpudoctor
