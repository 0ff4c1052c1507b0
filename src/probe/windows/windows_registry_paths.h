// The registry keys the Windows probes read, in one place (gather records exactly these).
#pragma once

namespace gpudoctor {

// HKLM: version details (ProductName, DisplayVersion, CurrentBuild, UBR, EditionID).
inline constexpr const char* kRegCurrentVersion = "SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion";
// HKLM: the first processor's ProcessorNameString.
inline constexpr const char* kRegProcessor0 = "HARDWARE\\DESCRIPTION\\System\\CentralProcessor\\0";
// HKLM: the firmware's SMBIOS system names (SystemManufacturer, SystemProductName): a hypervisor names
// itself.
inline constexpr const char* kRegBios = "HARDWARE\\DESCRIPTION\\System\\BIOS";
// HKLM: ComputerName.
inline constexpr const char* kRegComputerName =
    "SYSTEM\\CurrentControlSet\\Control\\ComputerName\\ActiveComputerName";
// HKLM: the display adapter setup class; one numbered subkey per installed display driver
// (DriverDesc, DriverVersion, DriverDate, ProviderName, MatchingDeviceId, HardwareInformation.qwMemorySize,
// and AMD's RadeonSoftwareVersion).
inline constexpr const char* kRegDisplayClass =
    "SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}";
inline constexpr const char* kDisplayClassGuid = "{4d36e968-e325-11ce-bfc1-08002be10318}";
// HKLM: PCI devices by hardware id, one subkey per instance (ClassGUID, Driver, Service,
// LocationInformation).
inline constexpr const char* kRegEnumPci = "SYSTEM\\CurrentControlSet\\Enum\\PCI";
// HKCU: WSL distributions (DefaultDistribution; per {GUID}: DistributionName, Version).
inline constexpr const char* kRegLxss = "Software\\Microsoft\\Windows\\CurrentVersion\\Lxss";

}  // namespace gpudoctor
