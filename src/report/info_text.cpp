// Renders a Snapshot as the `gpudoctor info` text: machine, GPUs, vendor
// stacks, runtimes, environment, then anything that could not be read.
#include "report/info_text.h"

#include <cstdio>

#include "core/printable.h"
#include "core/strings.h"
#include "core/text_table.h"
#include "report/info_text_python.h"
#include "report/info_text_windows.h"
#include "report/text_parts.h"
#include "snapshot/pci_id.h"

namespace gpudoctor {
namespace {

template <typename T>
std::string NumOrNa(const std::optional<T>& v) {
  return v ? std::to_string(*v) : "n/a";
}

// 16 GT/s -> "4.0"; PCIe generations by per-lane rate.
std::string PcieGen(double gts) {
  struct Row {
    double gts;
    const char* gen;
  };
  static constexpr Row kRows[] = {{2.5, "1.0"},  {5.0, "2.0"},  {8.0, "3.0"},
                                  {16.0, "4.0"}, {32.0, "5.0"}, {64.0, "6.0"}};
  for (const auto& r : kRows)
    if (gts > r.gts - 0.01 && gts < r.gts + 0.01) return r.gen;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GT/s", gts);
  return buf;
}

std::string LinkText(const PcieLink& l) {
  if (!l.current_speed_gts && !l.max_speed_gts) return "n/a";
  auto one = [](const std::optional<double>& s, const std::optional<uint32_t>& w) {
    std::string t = s ? "PCIe " + PcieGen(*s) : "PCIe ?";
    t += w ? " x" + std::to_string(*w) : " x?";
    return t;
  };
  std::string cur = one(l.current_speed_gts, l.current_width);
  std::string max = one(l.max_speed_gts, l.max_width);
  std::string text = cur == max ? cur : cur + " (max " + max.substr(5) + ")";
  if (!l.narrowest_port.empty())
    text += "; " + one(l.narrowest_speed_gts, l.narrowest_width).substr(5) + " at " + l.narrowest_port +
            " on the way to the CPU";
  return text;
}

const PciDevice* FindPci(const Snapshot& s, const std::string& address) {
  for (const auto& d : s.pci_devices)
    if (d.address == address) return &d;
  return nullptr;
}

std::string MachineSection(const Snapshot& s, const TextStyle& style) {
  KeyValueBlock kv;
  std::string os = OrNa(s.os.distro_name);
  if (!s.os.kernel_release.empty()) os += ", kernel " + s.os.kernel_release;
  kv.Add("Host", OrNa(s.host_name));
  kv.Add("OS", os);
  std::string wsl = s.os.wsl ? "yes" : "no";
  if (!s.os.wsl_evidence.empty()) {
    wsl += " (";
    for (size_t i = 0; i < s.os.wsl_evidence.size(); ++i) wsl += (i ? "; " : "") + s.os.wsl_evidence[i];
    wsl += ")";
  }
  if (s.os.family != OsFamily::kWindows) kv.Add("WSL2", wsl);  // a Windows host's WSL is in its own section
  if (s.os.container) kv.Add("Container", *s.os.container);
  if (s.os.virtual_machine) {
    std::string vm = *s.os.virtual_machine;
    for (size_t i = 0; i < s.os.virtual_machine_evidence.size(); ++i)
      vm += (i ? "; " : " (") + s.os.virtual_machine_evidence[i];
    kv.Add("Virtual machine", s.os.virtual_machine_evidence.empty() ? vm : vm + ")");
  }
  std::string cpu = OrNa(s.cpu.model);
  if (s.cpu.physical_cores || s.cpu.logical_cores) {
    cpu += " (";
    if (s.cpu.physical_cores) cpu += std::to_string(*s.cpu.physical_cores) + " cores";
    if (s.cpu.physical_cores && s.cpu.logical_cores) cpu += ", ";
    if (s.cpu.logical_cores) cpu += std::to_string(*s.cpu.logical_cores) + " threads";
    if (s.cpu.sockets && *s.cpu.sockets > 1) cpu += ", " + std::to_string(*s.cpu.sockets) + " sockets";
    cpu += ")";
  }
  kv.Add("CPU", cpu);
  std::string mem = BytesOrNa(s.memory.total_bytes) + " total";
  if (s.memory.available_bytes) mem += ", " + FormatBytes(*s.memory.available_bytes) + " available";
  kv.Add("Memory", mem);
  std::string disk = BytesOrNa(s.disk.free_bytes) + " free";
  if (s.disk.total_bytes) disk += " of " + FormatBytes(*s.disk.total_bytes);
  if (!s.disk.path.empty()) disk += " (" + s.disk.path + ")";
  kv.Add("Disk", disk);
  return Heading("Machine", style) + kv.Render();
}

std::string GpuSection(const Snapshot& s, const TextStyle& style) {
  if (s.gpus.empty()) {
    std::string out = Heading("GPUs: none found", style);
    if (s.os.wsl) {
      out +=
          "  This is a WSL2 guest: the GPU stays with Windows and its driver, and Linux reaches it through\n"
          "  /dev/dxg, so it is not on this PCI bus. The vendor libraries under /usr/lib/wsl/lib (Runtimes\n"
          "  below) come from the Windows driver.\n";
    }
    out += "  No GPU was found on this machine. Looked at:\n";
    for (const auto& l : s.looked_at) out += "    - " + l + "\n";
    return out;
  }
  TextTable t(
      {"#", "PCI", "ID", "Vendor", "Name", "Arch", "Family", "Type", "VRAM", "CUs/SMs", "Driver", "Link"});
  size_t i = 0;
  for (const auto& g : s.gpus) {
    const PciDevice* pci = FindPci(s, g.pci_address);
    std::string type = g.integrated ? (*g.integrated ? "integrated" : "discrete") : "n/a";
    t.AddRow({std::to_string(i++), OrNa(g.pci_address),
              pci ? PciIdPair(pci->vendor_id, pci->device_id) : "n/a", VendorLabel(g.vendor), OrNa(g.name),
              OrNa(g.architecture), OrNa(g.family), type, BytesOrNa(g.vram_bytes), NumOrNa(g.compute_units),
              g.driver.empty() ? "none" : g.driver, pci ? LinkText(pci->link) : "n/a"});
  }
  return Heading("GPUs (" + std::to_string(s.gpus.size()) + ")", style) + t.Render();
}

std::string AmdSection(const Snapshot& s, const TextStyle& style) {
  if (s.os.family == OsFamily::kWindows)
    return {};  // no KFD or amdgpu there: the Windows sections say what is
  bool any_amd = s.amd.kfd_topology_present || s.amd.amdgpu_module_loaded || !s.amd.kfd_nodes.empty();
  for (const auto& g : s.gpus) any_amd |= (g.vendor == GpuVendor::kAmd);
  if (!any_amd) return {};
  KeyValueBlock kv;
  std::string kfd =
      s.amd.kfd_topology_present ? std::to_string(s.amd.kfd_nodes.size()) + " GPU node(s)" : "absent";
  for (size_t i = 0; i < s.amd.kfd_nodes.size(); ++i) {
    const auto& n = s.amd.kfd_nodes[i];
    kfd += (i ? ", " : ": ") + std::string("node ") + std::to_string(n.node_id) + " " + OrNa(n.gfx_target);
  }
  kv.Add("KFD topology", kfd);
  std::string module = s.amd.amdgpu_module_loaded ? "loaded" : "not loaded";
  if (s.amd.amdgpu_module_version) module += ", version " + *s.amd.amdgpu_module_version + " (DKMS)";
  kv.Add("amdgpu module", module);
  for (const auto& a : s.amd.device_nodes) {
    std::string v = a.exists ? "present" : "missing";
    if (a.exists && a.accessible) v += *a.accessible ? ", accessible" : ", NOT accessible";
    if (!a.reason.empty()) v += " (" + a.reason + ")";
    kv.Add(a.path, v);
  }
  return Heading("AMD", style) + kv.Render();
}

std::string NvidiaSection(const Snapshot& s, const TextStyle& style) {
  bool any = s.nvidia.driver_version.has_value() || !s.nvidia.devices.empty();
  for (const auto& g : s.gpus) any |= (g.vendor == GpuVendor::kNvidia);
  if (!any) return {};
  KeyValueBlock kv;
  std::string drv = s.nvidia.driver_version ? *s.nvidia.driver_version : "not loaded";
  if (!s.nvidia.driver_version_source.empty()) drv += " (" + s.nvidia.driver_version_source + ")";
  kv.Add("Driver", drv);
  if (s.nvidia.cuda_driver_version) {
    uint32_t v = *s.nvidia.cuda_driver_version;
    kv.Add("CUDA driver",
           std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10) + " (highest CUDA it runs)");
  }
  for (const auto& l : s.nvidia.libraries) {
    std::string v(LoadStatusName(l.status));
    if (!l.loaded_path.empty()) v += ": " + l.loaded_path;
    if (!l.detail.empty()) v += " (" + l.detail + ")";
    kv.Add(l.library, v);
  }
  std::string out = Heading("NVIDIA", style) + kv.Render();
  if (!s.nvidia.devices.empty()) {
    TextTable t({"#", "Name", "PCI", "Memory", "CC", "UUID"});
    for (const auto& d : s.nvidia.devices) {
      std::string cc =
          d.cc_major && d.cc_minor ? std::to_string(*d.cc_major) + "." + std::to_string(*d.cc_minor) : "n/a";
      t.AddRow({std::to_string(d.index), OrNa(d.name), OrNa(d.pci_address), BytesOrNa(d.memory_total_bytes),
                cc, OrNa(d.uuid)});
    }
    out += t.Render("  ");
  }
  return out;
}

std::string RuntimeSection(const Snapshot& s, const TextStyle& style) {
  if (s.runtimes.empty())
    return Heading("Runtimes", style) + "  none found (no ROCm, HIP, CUDA toolkit or libcuda)\n";
  TextTable t({"Kind", "Version", "Path"});
  for (const auto& r : s.runtimes) t.AddRow({r.kind, OrNa(r.version), r.path});
  return Heading("Runtimes", style) + t.Render();
}

std::string EnvironmentSection(const Snapshot& s, const TextStyle& style) {
  if (s.environment.empty()) return Heading("Environment", style) + "  no GPU-related variables set\n";
  std::string out = Heading("Environment", style);
  for (const auto& [k, v] : s.environment) out += "  " + Printable(k) + "=" + Printable(v) + "\n";
  return out;
}

}  // namespace

std::string RenderInfoText(const Snapshot& s, const TextStyle& style) {
  std::string out;
  if (!s.live_machine) {
    out += "Not this machine: read from " + Printable(s.sysroot) + "\n\n";
  }
  out += MachineSection(s, style) + "\n";
  out += GpuSection(s, style);
  for (const auto& section :
       {RenderWindowsSections(s, style), AmdSection(s, style), NvidiaSection(s, style),
        RuntimeSection(s, style), EnvironmentSection(s, style), PythonSection(s, style)}) {
    if (!section.empty()) out += "\n" + section;
  }
  if (!s.warnings.empty()) {
    std::string head = "Warnings (" + std::to_string(s.warnings.size()) + ")";
    out += "\n" + (style.color ? "\033[33m" + head + "\033[0m\n" : head + "\n");
    for (const auto& w : s.warnings) out += "  ! " + Printable(w) + "\n";
  }
  return out;
}

}  // namespace gpudoctor
