// The knowledge stage after probing: families, names and architectures the
// machine could not report itself, and never a change to what it did report.
#include "probe/common/knowledge_enrich.h"

#include <gtest/gtest.h>

#include "knowledge/knowledge_loader.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using testing_rules::Db;

Snapshot OneGpu(GpuVendor vendor, std::string arch) {
  Snapshot s;
  Gpu g;
  g.pci_address = "0000:03:00.0";
  g.vendor = vendor;
  g.architecture = std::move(arch);
  s.gpus.push_back(g);
  return s;
}

TEST(KnowledgeEnrich, AmdFamiliesFromTheTargetTable) {
  struct Case {
    const char* gfx;
    const char* family;
  };
  for (auto c :
       {Case{"gfx1100", "RDNA3"}, Case{"gfx1103", "RDNA3"}, Case{"gfx1150", "RDNA3.5"},
        Case{"gfx1151", "RDNA3.5"}, Case{"gfx1200", "RDNA4"}, Case{"gfx1201", "RDNA4"},
        Case{"gfx1030", "RDNA2"}, Case{"gfx1036", "RDNA2"}, Case{"gfx1010", "RDNA1"}, Case{"gfx908", "CDNA1"},
        Case{"gfx90a", "CDNA2"}, Case{"gfx942", "CDNA3"}, Case{"gfx950", "CDNA4"}, Case{"gfx900", "GCN5"},
        Case{"gfx803", "GCN4"}, Case{"gfx1337", ""}, Case{"", ""}}) {
    Snapshot s = OneGpu(GpuVendor::kAmd, c.gfx);
    ApplyKnowledge(Db(), s);
    EXPECT_EQ(s.gpus[0].family, c.family) << c.gfx;
  }
}

TEST(KnowledgeEnrich, NvidiaFamiliesFromComputeCapability) {
  struct Case {
    const char* sm;
    const char* family;
  };
  for (auto c : {Case{"sm_90", "Hopper"}, Case{"sm_89", "Ada Lovelace"}, Case{"sm_80", "Ampere"},
                 Case{"sm_86", "Ampere"}, Case{"sm_75", "Turing"}, Case{"sm_70", "Volta"},
                 Case{"sm_61", "Pascal"}, Case{"sm_52", "Maxwell"}, Case{"sm_100", "Blackwell"},
                 Case{"sm_120", "Blackwell"}, Case{"sm_21", ""}, Case{"sm_", ""}, Case{"gfx90a", ""}}) {
    Snapshot s = OneGpu(GpuVendor::kNvidia, c.sm);
    ApplyKnowledge(Db(), s);
    EXPECT_EQ(s.gpus[0].family, c.family) << c.sm;
  }
}

TEST(KnowledgeEnrich, NvidiaWithoutNvmlGetsItsArchitectureFromThePciId) {
  // A GTX 1650 Mobile bound to nouveau: no NVML, so only the id tells the compute capability.
  Snapshot s = OneGpu(GpuVendor::kNvidia, "");
  PciDevice d;
  d.address = "0000:03:00.0";
  d.vendor_id = 0x10de;
  d.device_id = 0x1f99;
  s.pci_devices.push_back(d);
  ApplyKnowledge(Db(), s);
  EXPECT_EQ(s.gpus[0].architecture, "sm_75");
  EXPECT_EQ(s.gpus[0].family, "Turing");
  EXPECT_NE(s.gpus[0].name.find("1650"), std::string::npos);
  EXPECT_EQ(s.pci_devices[0].name_source, "gpudoctor");
}

TEST(KnowledgeEnrich, NamesFromTheMachineAreKept) {
  Snapshot s = OneGpu(GpuVendor::kAmd, "gfx1100");
  s.gpus[0].name = "Radeon RX 7900 XTX (from amdgpu.ids)";
  PciDevice d;
  d.address = "0000:03:00.0";
  d.vendor_id = 0x1002;
  d.device_id = 0x744c;
  d.revision = 0xc8;
  d.name = "from amdgpu.ids";
  d.name_source = "amdgpu.ids";
  s.pci_devices.push_back(d);
  ApplyKnowledge(Db(), s);
  EXPECT_EQ(s.gpus[0].name, "Radeon RX 7900 XTX (from amdgpu.ids)");
  EXPECT_EQ(s.pci_devices[0].name_source, "amdgpu.ids");
}

TEST(KnowledgeEnrich, AmdNameByRevision) {
  Snapshot s = OneGpu(GpuVendor::kAmd, "gfx1100");
  PciDevice d;
  d.address = "0000:03:00.0";
  d.vendor_id = 0x1002;
  d.device_id = 0x744c;
  d.revision = 0xcc;
  s.pci_devices.push_back(d);
  ApplyKnowledge(Db(), s);
  EXPECT_EQ(s.pci_devices[0].name, "Radeon RX 7900 XT");
  EXPECT_EQ(s.gpus[0].name, "Radeon RX 7900 XT");
}

}  // namespace
}  // namespace gpudoctor
