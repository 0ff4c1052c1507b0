// Tests of the merged GPU list (PCI + KFD + NVML by PCI address), the knowledge stage after it, and the PCI
// address helpers it relies on.
#include "probe/common/gpu_merge.h"

#include <gtest/gtest.h>

#include "core/pci_address.h"
#include "knowledge/knowledge_loader.h"
#include "probe/common/knowledge_enrich.h"

namespace gpudoctor {
namespace {

// Merge, then the knowledge stage that names and classifies (as ProbeMachine does).
std::vector<Gpu> MergeAndApply(Snapshot s) {
  static const KnowledgeDb db = LoadEmbeddedKnowledge().value();
  s.gpus = MergeGpus(s);
  ApplyKnowledge(db, s);
  return s.gpus;
}

PciDevice Pci(std::string address, uint32_t vendor, uint32_t device, std::string name = {}) {
  PciDevice d;
  d.address = std::move(address);
  d.vendor_id = vendor;
  d.device_id = device;
  d.class_code = 0x030000;
  d.name = std::move(name);
  d.driver = vendor == 0x1002 ? "amdgpu" : vendor == 0x10de ? "nvidia" : "";
  return d;
}

KfdNode Kfd(uint32_t id, std::string address, std::string gfx, uint32_t cus, uint64_t vram) {
  KfdNode n;
  n.node_id = id;
  n.pci_address = std::move(address);
  n.gfx_target = std::move(gfx);
  n.compute_units = cus;
  n.vram_bytes = vram;
  n.vendor_id = 0x1002;
  n.cpu_cores_count = 0;
  return n;
}

NvidiaDevice Nvml(uint32_t index, std::string address, uint32_t major, uint32_t minor, uint64_t mem,
                  std::string name) {
  NvidiaDevice d;
  d.index = index;
  d.pci_address = std::move(address);
  d.cc_major = major;
  d.cc_minor = minor;
  d.memory_total_bytes = mem;
  d.name = std::move(name);
  return d;
}

TEST(GpuMerge, AmdPciDeviceIsEnrichedByItsKfdNode) {
  Snapshot s;
  s.pci_devices.push_back(Pci("0000:86:00.0", 0x1002, 0x744c, "Radeon RX 7900 XTX"));
  s.pci_devices.back().integrated = false;
  s.pci_devices.back().drm_vram_total_bytes = 1;  // KFD's number wins
  s.amd.kfd_nodes.push_back(Kfd(1, "0000:86:00.0", "gfx1100", 96, 25753026560ull));
  auto gpus = MergeAndApply(s);
  ASSERT_EQ(gpus.size(), 1u);
  const Gpu& g = gpus[0];
  EXPECT_EQ(g.pci_address, "0000:86:00.0");
  EXPECT_EQ(g.vendor, GpuVendor::kAmd);
  EXPECT_EQ(g.name, "Radeon RX 7900 XTX");
  EXPECT_EQ(g.architecture, "gfx1100");
  EXPECT_EQ(g.family, "RDNA3");
  EXPECT_EQ(g.compute_units, 96u);
  EXPECT_EQ(g.vram_bytes, 25753026560ull);
  EXPECT_EQ(g.kfd_node, 1u);
  EXPECT_EQ(g.integrated, false);
  EXPECT_EQ(g.driver, "amdgpu");
  EXPECT_FALSE(g.nvml_index.has_value());
}

TEST(GpuMerge, AmdWithoutKfdKeepsDrmVramAndApuFromKfdCores) {
  Snapshot s;
  s.pci_devices.push_back(Pci("0000:03:00.0", 0x1002, 0x73df, "Radeon RX 6700 XT"));
  s.pci_devices.back().drm_vram_total_bytes = 12ull << 30;
  s.pci_devices.push_back(Pci("0000:c5:00.0", 0x1002, 0x9999));
  KfdNode apu = Kfd(1, "0000:c5:00.0", "gfx1151", 40, 512ull << 20);
  apu.cpu_cores_count = 16;
  s.amd.kfd_nodes.push_back(apu);
  auto gpus = MergeAndApply(s);
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].vram_bytes, 12ull << 30);
  // No KFD node: the architecture comes from the knowledge base by PCI id.
  EXPECT_EQ(gpus[0].architecture, "gfx1031");
  EXPECT_FALSE(gpus[0].kfd_node.has_value());
  EXPECT_EQ(gpus[1].integrated, true);
  EXPECT_EQ(gpus[1].family, "RDNA3.5");
}

TEST(GpuMerge, NvidiaPciDeviceIsEnrichedByNvmlWithItsLongAddress) {
  Snapshot s;
  s.pci_devices.push_back(Pci("0000:17:00.0", 0x10de, 0x9999));  // no name from PCI
  s.nvidia.devices.push_back(Nvml(0, "00000000:17:00.0", 8, 9, 25757220864ull, "NVIDIA GeForce RTX 4090"));
  auto gpus = MergeAndApply(s);
  ASSERT_EQ(gpus.size(), 1u);
  const Gpu& g = gpus[0];
  EXPECT_EQ(g.vendor, GpuVendor::kNvidia);
  EXPECT_EQ(g.architecture, "sm_89");
  EXPECT_EQ(g.family, "Ada Lovelace");
  EXPECT_EQ(g.vram_bytes, 25757220864ull);
  EXPECT_EQ(g.nvml_index, 0u);
  EXPECT_EQ(g.name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(g.driver, "nvidia");
}

TEST(GpuMerge, UnmatchedKfdAndNvmlDevicesStillBecomeGpusInAddressOrder) {
  Snapshot s;
  s.pci_devices.push_back(Pci("0000:c1:00.0", 0x10de, 0x2330, "H100 SXM5 80GB"));
  s.pci_devices.push_back(Pci("0000:00:02.0", 0x8086, 0x4680, "UHD Graphics 770"));
  s.pci_devices.push_back(Pci("0000:02:00.0", 0x1a03, 0x2000, "ASPEED Graphics"));  // a BMC: not a GPU
  KfdNode lone = Kfd(2, "0001:05:00.0", "gfx942", 304, 206158430208ull);
  lone.device_id = 0x74a1;
  s.amd.kfd_nodes.push_back(lone);
  KfdNode partition = lone;  // a second partition on the same address
  partition.node_id = 3;
  s.amd.kfd_nodes.push_back(partition);
  s.nvidia.devices.push_back(Nvml(1, "00000000:3B:00.0", 9, 0, 150754820096ull, "NVIDIA H200"));
  s.nvidia.devices.push_back(Nvml(0, "00000000:C1:00.0", 9, 0, 85520809984ull, "NVIDIA H100 80GB HBM3"));
  auto gpus = MergeAndApply(s);
  ASSERT_EQ(gpus.size(), 4u);
  EXPECT_EQ(gpus[0].pci_address, "0000:00:02.0");
  EXPECT_EQ(gpus[0].vendor, GpuVendor::kIntel);
  EXPECT_EQ(gpus[1].pci_address, "0000:3b:00.0");
  EXPECT_EQ(gpus[1].name, "NVIDIA H200");
  EXPECT_EQ(gpus[1].architecture, "sm_90");
  EXPECT_EQ(gpus[1].family, "Hopper");
  EXPECT_EQ(gpus[1].nvml_index, 1u);
  EXPECT_EQ(gpus[2].pci_address, "0000:c1:00.0");
  EXPECT_EQ(gpus[2].name, "NVIDIA H100 80GB HBM3");  // the driver's name beats the id tables
  EXPECT_EQ(gpus[2].nvml_index, 0u);
  EXPECT_EQ(gpus[2].vram_bytes, 85520809984ull);
  EXPECT_EQ(gpus[3].pci_address, "0001:05:00.0");
  EXPECT_EQ(gpus[3].vendor, GpuVendor::kAmd);
  EXPECT_EQ(gpus[3].name, "Instinct MI300X");
  EXPECT_EQ(gpus[3].family, "CDNA3");
  EXPECT_EQ(gpus[3].kfd_node, 2u);
  EXPECT_EQ(gpus[3].compute_units, 304u);
}

TEST(GpuMerge, EmptySnapshotGivesNoGpus) {
  EXPECT_TRUE(MergeGpus(Snapshot{}).empty());
}

TEST(GpuMerge, ArchitectureNames) {
  EXPECT_EQ(NvidiaArchitectureName(9, 0), "sm_90");
  EXPECT_EQ(NvidiaArchitectureName(12, 0), "sm_120");
}

TEST(PciAddress, NormalizeParseAndOrder) {
  struct Case {
    const char* in;
    const char* out;
  };
  for (auto c : {Case{"00000000:17:00.0", "0000:17:00.0"}, Case{"0000:03:00.0", "0000:03:00.0"},
                 Case{"0000:C1:00.0", "0000:c1:00.0"}, Case{"03:00.1", "0000:03:00.1"},
                 Case{" 0001:05:1f.7\n", "0001:05:1f.7"}, Case{"10000:e1:00.0", "10000:e1:00.0"},
                 Case{"0000:03:20.0", "0000:03:20.0"},  // device 0x20 is out of range: left as text
                 Case{"0000:03:00.8", "0000:03:00.8"}, Case{"GARBAGE", "garbage"}, Case{"", ""}}) {
    EXPECT_EQ(NormalizePciAddress(c.in), c.out) << c.in;
  }
  EXPECT_FALSE(ParsePciAddress("0000:03:20.0").has_value());
  EXPECT_FALSE(ParsePciAddress("0000:100:00.0").has_value());
  EXPECT_FALSE(ParsePciAddress("0000:03:00").has_value());
  EXPECT_EQ(FormatPciAddress(PciAddressFromKfdLocation(0, 34304)), "0000:86:00.0");
  EXPECT_EQ(FormatPciAddress(PciAddressFromKfdLocation(1, (0x41 << 8) | (3 << 3) | 1)), "0001:41:03.1");
  EXPECT_TRUE(PciAddressTextLess("0000:03:00.0", "0000:17:00.0"));
  EXPECT_TRUE(PciAddressTextLess("0000:ff:00.0", "0001:00:00.0"));
  EXPECT_TRUE(PciAddressTextLess("0000:ff:00.0", "10000:00:00.0"));  // numeric, not textual
  EXPECT_TRUE(PciAddressTextLess("0000:ff:00.0", ""));
  EXPECT_FALSE(PciAddressTextLess("", "0000:ff:00.0"));
}

// The NVIDIA form and the canonical check are the general parser's, so the probes, telemetry, the device
// choice and the worker cannot disagree on which text is an address.
TEST(PciAddress, NvidiaBusIdAndCanonicalFormAgreeWithTheParser) {
  for (const char* text : {"00000000:17:00.0", "17:00.1", " 0001:C1:1F.7\n", "0000:03:20.0", "bus 3", ""}) {
    auto parsed = ParsePciAddress(text);
    EXPECT_EQ(NormalizeNvidiaBusId(text), parsed ? FormatPciAddress(*parsed) : "") << text;
  }
  EXPECT_TRUE(IsCanonicalPciAddress("0000:17:00.0"));
  EXPECT_TRUE(IsCanonicalPciAddress("10000:01:00.0"))
      << "a domain wider than four digits, as Format writes it";
  EXPECT_FALSE(IsCanonicalPciAddress("00000000:17:00.0"));
  EXPECT_FALSE(IsCanonicalPciAddress("0000:17:00.0 "));
  EXPECT_FALSE(IsCanonicalPciAddress("0000:C1:00.0"));
  EXPECT_FALSE(IsCanonicalPciAddress("17:00.0"));
}

}  // namespace
}  // namespace gpudoctor
