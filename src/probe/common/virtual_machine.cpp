// The DMI names hypervisors and clouds give their guests, as systemd's virtualization detection
// (src/basic/virt.c, its DMI vendor table) and the hypervisors' own firmware tables record them.
#include "probe/common/virtual_machine.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

struct DmiName {
  const char* field_prefix;  // matched at the start of sys_vendor or product_name, case-insensitively
  const char* name;          // what the user is told
  bool virtual_only;         // only a hypervisor reports it: a VM even without the CPU flag
};

// sys_vendor / product_name prefixes. "Microsoft Corporation" also makes Surface laptops, so only its
// product "Virtual Machine" counts; "Google" also makes Pixelbooks, so only "Google Compute Engine" does.
constexpr DmiName kDmiNames[] = {
    {"QEMU", "KVM/QEMU", true},
    {"KVM", "KVM", true},
    {"Standard PC (", "KVM/QEMU", true},
    {"VMware", "VMware", true},
    {"innotek GmbH", "VirtualBox", true},
    {"VirtualBox", "VirtualBox", true},
    {"Xen", "Xen", true},
    {"HVM domU", "Xen", true},
    {"Virtual Machine", "Hyper-V", true},
    {"Parallels", "Parallels", true},
    {"BHYVE", "bhyve", true},
    {"OpenStack", "OpenStack (KVM)", true},
    {"Google Compute Engine", "Google Compute Engine", true},
    {"Amazon EC2", "Amazon EC2", false},
    {"Alibaba Cloud", "Alibaba Cloud ECS", false},
};

const DmiName* FindDmiName(std::string_view field) {
  const std::string lower = ToLower(Trim(field));
  if (lower.empty()) return nullptr;
  for (const DmiName& n : kDmiNames)
    if (StartsWith(lower, ToLower(n.field_prefix))) return &n;
  return nullptr;
}

}  // namespace

bool CpuInfoHasHypervisorFlag(std::string_view cpuinfo) {
  for (std::string_view line : SplitLines(cpuinfo)) {
    if (!StartsWith(line, "flags")) continue;
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view flags = line.substr(colon + 1);
    for (size_t pos = flags.find("hypervisor"); pos != std::string_view::npos;
         pos = flags.find("hypervisor", pos + 1)) {
      const size_t end = pos + 10;
      const bool starts = pos == 0 || flags[pos - 1] == ' ' || flags[pos - 1] == '\t';
      const bool ends = end == flags.size() || flags[end] == ' ' || flags[end] == '\t' || flags[end] == '\r';
      if (starts && ends) return true;
    }
  }
  return false;
}

VirtualMachineVerdict ClassifyVirtualMachine(const VirtualMachineEvidence& e) {
  VirtualMachineVerdict v;
  const DmiName* by_product = FindDmiName(e.dmi_product_name);
  const DmiName* by_vendor = FindDmiName(e.dmi_sys_vendor);
  const DmiName* named = by_product != nullptr ? by_product : by_vendor;
  std::string dmi = Trim(e.dmi_sys_vendor).empty() && Trim(e.dmi_product_name).empty()
                        ? std::string()
                        : e.dmi_where + ": " + std::string(Trim(e.dmi_sys_vendor)) + " / " +
                              std::string(Trim(e.dmi_product_name));
  if (e.cpu_hypervisor_flag) {
    v.name = named != nullptr ? named->name : "an unnamed hypervisor";
    v.evidence.push_back(e.flag_where + ": the CPU has the hypervisor flag");
    if (!dmi.empty()) v.evidence.push_back(dmi);
  } else if (named != nullptr && named->virtual_only) {
    v.name = named->name;
    v.evidence.push_back(dmi + " (only a hypervisor reports it)");
  }
  return v;
}

}  // namespace gpudoctor
