// The strings Windows keeps about a display adapter, parsed: PnP hardware ids, the Enum key's
// LocationInformation, the display driver's version and the vendor release it stands for, and the
// product name of the OS itself. Pure functions (tested on Linux, fuzzed: fuzz/windows_ids_fuzz.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

// "PCI\VEN_1002&DEV_73DF&SUBSYS_2409148C&REV_C1" (any case, parts after DEV optional) -> ids.
struct PnpHardwareId {
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::optional<uint32_t> subsystem_vendor_id;  // SUBSYS_ddddvvvv: the low 16 bits
  std::optional<uint32_t> subsystem_device_id;  // ... the high 16 bits
  std::optional<uint32_t> revision;
};
std::optional<PnpHardwareId> ParsePnpHardwareId(std::string_view text);

// The PCI location of an Enum key's LocationInformation: the indirect form Windows 10 and 11 store
// ("@System32\drivers\pci.sys,#65536;PCI bus %1, device %2, function %3;(3,0,0)") or a plain,
// possibly translated one ("PCI bus 3, device 0, function 0", "PCI-bus 3, apparaat 0, functie 0",
// "PCI segment 1 bus 2, device 3, function 4"). -> "0000:03:00.0"; nullopt when it is no PCI location.
std::optional<std::string> PciAddressFromLocationInformation(std::string_view text);

// NVIDIA's Windows driver version "32.0.15.6094" -> the release users know, "560.94": the last five
// digits of the third and fourth parts (the fourth read as four digits). nullopt for other shapes.
std::optional<std::string> NvidiaReleaseFromDriverVersion(std::string_view driver_version);

// AMD's RadeonSoftwareVersion registry value ("24.3.1", "25.20.01.17") -> "Adrenalin 24.3.1"; other
// non-empty values ("24.Q4") -> "AMD Software 24.Q4"; nullopt for an empty value.
std::optional<std::string> AmdReleaseLabel(std::string_view radeon_software_version);

// Windows 11 kept the registry's ProductName of Windows 10 ("Windows 10 Pro"): the name from the build.
// 22631, "Windows 10 Pro" -> "Windows 11 Pro"; 19045, "Windows 10 Home" -> unchanged.
std::string WindowsProductName(uint32_t build, std::string_view registry_product_name);

inline constexpr uint32_t kWindows11FirstBuild = 22000;
inline constexpr uint32_t kWindows11_22H2Build = 22621;

}  // namespace gpudoctor
