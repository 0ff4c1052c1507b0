// Whether the OS runs in a virtual machine, from what the guest can read: the CPU's `hypervisor` flag (set by
// every hypervisor that announces itself through CPUID; Linux's /proc/cpuinfo) and the firmware's DMI
// (SMBIOS) system vendor and product name, which name the hypervisor or the cloud: Linux reads them from
// /sys/class/dmi/id/sys_vendor and product_name, Windows from the registry's
// HKLM\HARDWARE\DESCRIPTION\System\BIOS SystemManufacturer and SystemProductName. Windows does not
// pass the flag: a Windows host with Hyper-V or virtualization-based security runs on the hypervisor too.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct VirtualMachineEvidence {
  bool cpu_hypervisor_flag = false;  // "hypervisor" in /proc/cpuinfo's flags
  std::string dmi_sys_vendor;        // "QEMU", "VMware, Inc.", "Amazon EC2", "" when not read
  std::string dmi_product_name;      // "Standard PC (Q35 + ICH9, 2009)", "VirtualBox", "g5.xlarge", ""
  std::string flag_where = "/proc/cpuinfo";  // where the flag was read, for the evidence line
  std::string dmi_where = "DMI";             // where the names were read ("SMBIOS (registry ...)")
};

struct VirtualMachineVerdict {
  std::optional<std::string> name;  // "KVM/QEMU", "VMware", ..., "an unnamed hypervisor"; nullopt: not a VM
  std::vector<std::string> evidence;
};

// The verdict from the evidence alone. A DMI product that only a hypervisor reports ("VirtualBox", "VMware
// Virtual Platform", "Google Compute Engine") is a VM even without the flag; a cloud vendor that also sells
// bare metal ("Amazon EC2" on a *.metal instance) is a VM only with the flag.
VirtualMachineVerdict ClassifyVirtualMachine(const VirtualMachineEvidence& evidence);

// Whether /proc/cpuinfo's flags lines hold the `hypervisor` flag.
bool CpuInfoHasHypervisorFlag(std::string_view cpuinfo);

}  // namespace gpudoctor
