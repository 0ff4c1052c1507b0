// Whether Linux runs in a virtual machine, from what the guest can read: the CPU's `hypervisor` flag (set by
// every hypervisor that announces itself through CPUID) and the firmware's DMI system vendor and product name
// (/sys/class/dmi/id/sys_vendor, product_name), which name the hypervisor or the cloud.
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
