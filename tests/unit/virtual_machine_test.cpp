// The virtual-machine verdict from what a Linux guest reads: the CPU's hypervisor flag and the DMI names.
#include "probe/common/virtual_machine.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

VirtualMachineVerdict Classify(bool flag, const char* vendor, const char* product) {
  return ClassifyVirtualMachine(VirtualMachineEvidence{flag, vendor, product});
}

TEST(VirtualMachine, HypervisorsAreNamedFromTheirDmiNames) {
  EXPECT_EQ(Classify(true, "QEMU", "Standard PC (Q35 + ICH9, 2009)").name, "KVM/QEMU");
  EXPECT_EQ(Classify(true, "VMware, Inc.", "VMware Virtual Platform").name, "VMware");
  EXPECT_EQ(Classify(true, "innotek GmbH", "VirtualBox").name, "VirtualBox");
  EXPECT_EQ(Classify(true, "Microsoft Corporation", "Virtual Machine").name, "Hyper-V");
  EXPECT_EQ(Classify(true, "Xen", "HVM domU").name, "Xen");
  EXPECT_EQ(Classify(true, "Amazon EC2", "g5.xlarge").name, "Amazon EC2");
  EXPECT_EQ(Classify(true, "Google", "Google Compute Engine").name, "Google Compute Engine");
  EXPECT_EQ(Classify(true, "", "").name, "an unnamed hypervisor");
}

TEST(VirtualMachine, AProductOnlyAHypervisorReportsIsEnoughWithoutTheFlag) {
  const VirtualMachineVerdict v = Classify(false, "innotek GmbH", "VirtualBox");
  EXPECT_EQ(v.name, "VirtualBox");
  ASSERT_EQ(v.evidence.size(), 1u);
  EXPECT_NE(v.evidence[0].find("only a hypervisor reports it"), std::string::npos) << v.evidence[0];
}

TEST(VirtualMachine, BareMetalIsNotAVirtualMachine) {
  // Vendors that also make real hardware, and clouds that also rent bare metal, need the CPU flag.
  EXPECT_FALSE(Classify(false, "Microsoft Corporation", "Surface Laptop 5").name);
  EXPECT_FALSE(Classify(false, "Google", "Pixelbook").name);
  EXPECT_FALSE(Classify(false, "Amazon EC2", "m7i.metal-24xl").name);  // bare metal: no flag
  EXPECT_FALSE(Classify(false, "Dell Inc.", "PowerEdge R750xa").name);
  EXPECT_FALSE(Classify(false, "", "").name);
}

// Windows reads the same names from the registry and passes no flag: the names alone decide, and the
// evidence says where they were read.
TEST(VirtualMachine, WindowsEvidenceNamesTheRegistry) {
  VirtualMachineEvidence e{false, "Microsoft Corporation", "Virtual Machine"};
  e.dmi_where = "SMBIOS (HKLM\\HARDWARE\\DESCRIPTION\\System\\BIOS)";
  const VirtualMachineVerdict v = ClassifyVirtualMachine(e);
  EXPECT_EQ(v.name, "Hyper-V");
  ASSERT_EQ(v.evidence.size(), 1u);
  EXPECT_EQ(v.evidence[0].rfind("SMBIOS (HKLM\\HARDWARE", 0), 0u) << v.evidence[0];
  e.dmi_sys_vendor = "Micro-Star International Co., Ltd.";
  e.dmi_product_name = "MS-7D25";
  EXPECT_FALSE(ClassifyVirtualMachine(e).name);
}

TEST(VirtualMachine, TheHypervisorFlagIsReadAsAWholeWord) {
  EXPECT_TRUE(CpuInfoHasHypervisorFlag("processor\t: 0\nflags\t\t: fpu vme rdrand hypervisor lahf_lm\n"));
  EXPECT_TRUE(CpuInfoHasHypervisorFlag("flags\t\t: fpu hypervisor"));
  EXPECT_FALSE(CpuInfoHasHypervisorFlag("flags\t\t: fpu vme rdrand lahf_lm\n"));
  EXPECT_FALSE(CpuInfoHasHypervisorFlag("flags\t\t: fpu not_hypervisor_x\n"));
  EXPECT_FALSE(CpuInfoHasHypervisorFlag("model name\t: hypervisor\n"));  // only the flags line counts
  EXPECT_FALSE(CpuInfoHasHypervisorFlag(""));
}

}  // namespace
}  // namespace gpudoctor
