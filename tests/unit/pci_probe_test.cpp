// Tests of the Linux PCI probe on synthetic sysroots, and of its pure parsers (ids, class, link,
// amdgpu.ids, pci.ids, built-in names, integrated-vs-discrete).
#include "probe/linux/pci_probe.h"

#include <gtest/gtest.h>

#include "probe/linux/integrated_gpu.h"
#include "probe/linux/pci_name_files.h"
#include "probe/linux/pci_sysfs_parse.h"
#include "probe_sysroot_builder.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Contains;
using testing::HasWarning;
using testing::SysrootBuilder;

constexpr const char* kXtx = "/sys/bus/pci/devices/0000:03:00.0";
constexpr const char* kRtx = "/sys/bus/pci/devices/0000:17:00.0";

Snapshot ProbePciSysroot(const SysrootBuilder& root) {
  auto fs = MakeRootedFileSystem(root.root());
  Environment env;
  UserIdentity who;
  ProbeContext ctx{*fs, env, who, false};
  Snapshot snap;
  ProbePciDevices(ctx, snap);
  return snap;
}

// An RX 7900 XTX (revision c8) as amdgpu exposes it.
void WriteXtx(const SysrootBuilder& root, bool with_driver_link = true) {
  std::string d = kXtx;
  root.Write(d + "/class", "0x030000\n");
  root.Write(d + "/vendor", "0x1002\n");
  root.Write(d + "/device", "0x744c\n");
  root.Write(d + "/subsystem_vendor", "0x1da2\n");
  root.Write(d + "/subsystem_device", "0xe471\n");
  root.Write(d + "/revision", "0xc8\n");
  root.Write(d + "/numa_node", "-1\n");
  root.Write(d + "/current_link_speed", "16.0 GT/s PCIe\n");
  root.Write(d + "/current_link_width", "16\n");
  root.Write(d + "/max_link_speed", "32.0 GT/s PCIe\n");
  root.Write(d + "/max_link_width", "16\n");
  root.Write(d + "/mem_info_vram_total", "25753026560\n");
  root.Write(d + "/mem_info_vram_used", "1073741824\n");
  root.Write(d + "/mem_info_gtt_total", "33554432000\n");
  root.Write(d + "/mem_info_vram_vendor", "samsung\n");
  root.Write(d + "/gpu_busy_percent", "7\n");
  root.Mkdir(d + "/drm/card1");
  root.Mkdir(d + "/drm/renderD128");
  // Where links cannot be made (the Windows build under wine), the driver is told by uevent, as sysfs also
  // does.
  if (with_driver_link && !root.Symlink(d + "/driver", "../../../bus/pci/drivers/amdgpu"))
    root.Write(d + "/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:03:00.0\n");
}

TEST(PciProbe, DriverFromUeventWhenThereIsNoDriverLink) {
  SysrootBuilder root;
  WriteXtx(root, /*with_driver_link=*/false);
  root.Write(std::string(kXtx) + "/uevent", "PCI_CLASS=30000\nDRIVER=vfio-pci\nPCI_ID=1002:744C\n");
  Snapshot snap = ProbePciSysroot(root);
  ASSERT_EQ(snap.pci_devices.size(), 1u);
  EXPECT_EQ(snap.pci_devices[0].driver, "vfio-pci");
  // A uevent without DRIVER= means no driver is bound.
  root.Write(std::string(kXtx) + "/uevent", "PCI_CLASS=30000\nPCI_ID=1002:744C\n");
  EXPECT_EQ(ProbePciSysroot(root).pci_devices[0].driver, "");
}

TEST(PciProbe, ReadsEveryFieldOfAnAmdAndAnNvidiaGpu) {
  SysrootBuilder root;
  WriteXtx(root);
  std::string n = kRtx;
  root.Write(n + "/class", "0x030200\n");
  root.Write(n + "/vendor", "0x10de\n");
  root.Write(n + "/device", "0x2684\n");
  root.Write(n + "/revision", "0xa1\n");
  root.Write(n + "/numa_node", "1\n");
  root.Write(n + "/current_link_speed", "Unknown\n");
  root.Write(n + "/current_link_width", "0\n");
  root.Write(n + "/max_link_speed", "16.0 GT/s\n");
  root.Write(n + "/max_link_width", "x16\n");
  if (!root.Symlink(n + "/driver", "../../../bus/pci/drivers/nvidia"))
    root.Write(n + "/uevent", "DRIVER=nvidia\n");
  // A USB controller: not a GPU, must be skipped.
  root.Write("/sys/bus/pci/devices/0000:00:14.0/class", "0x0c0330\n");
  root.Write("/sys/bus/pci/devices/0000:00:14.0/vendor", "0x8086\n");

  Snapshot snap = ProbePciSysroot(root);
  EXPECT_TRUE(snap.warnings.empty()) << snap.warnings.front();
  ASSERT_EQ(snap.pci_devices.size(), 2u);
  EXPECT_TRUE(Contains(snap.looked_at, "/sys/bus/pci/devices (2 display devices)"));

  const PciDevice& a = snap.pci_devices[0];
  EXPECT_EQ(a.address, "0000:03:00.0");
  EXPECT_EQ(a.vendor_id, 0x1002u);
  EXPECT_EQ(a.device_id, 0x744cu);
  EXPECT_EQ(a.subsystem_vendor_id, 0x1da2u);
  EXPECT_EQ(a.subsystem_device_id, 0xe471u);
  EXPECT_EQ(a.revision, 0xc8u);
  EXPECT_EQ(a.class_code, 0x030000u);
  EXPECT_EQ(a.driver, "amdgpu");
  EXPECT_FALSE(a.numa_node.has_value());
  EXPECT_EQ(a.link.current_speed_gts, 16.0);
  EXPECT_EQ(a.link.current_width, 16u);
  EXPECT_EQ(a.link.max_speed_gts, 32.0);
  EXPECT_EQ(a.link.max_width, 16u);
  EXPECT_EQ(a.vendor_name, "AMD");
  // No amdgpu.ids or pci.ids in this tree: the knowledge stage names it later (knowledge_enrich_test).
  EXPECT_EQ(a.name, "");
  EXPECT_EQ(a.name_source, "");
  EXPECT_EQ(a.integrated, false);
  EXPECT_NE(a.integrated_reason.find("mem_info_vram_vendor"), std::string::npos);
  EXPECT_EQ(a.drm_card, "card1");
  EXPECT_EQ(a.drm_vram_total_bytes, 25753026560ull);
  EXPECT_EQ(a.drm_vram_used_bytes, 1073741824ull);
  EXPECT_EQ(a.drm_gtt_total_bytes, 33554432000ull);
  EXPECT_EQ(a.gpu_busy_percent, 7u);

  const PciDevice& b = snap.pci_devices[1];
  EXPECT_EQ(b.address, "0000:17:00.0");
  EXPECT_EQ(b.class_code, 0x030200u);
  EXPECT_EQ(b.driver, "nvidia");
  EXPECT_EQ(b.numa_node, 1);
  EXPECT_FALSE(b.link.current_speed_gts.has_value());
  EXPECT_FALSE(b.link.current_width.has_value());
  EXPECT_EQ(b.link.max_speed_gts, 16.0);
  EXPECT_EQ(b.link.max_width, 16u);
  EXPECT_FALSE(b.subsystem_vendor_id.has_value());
  EXPECT_EQ(b.vendor_name, "NVIDIA");
  EXPECT_EQ(b.name, "");
  EXPECT_EQ(b.integrated, false);
  EXPECT_FALSE(b.drm_card.has_value());
  EXPECT_FALSE(b.drm_vram_total_bytes.has_value());
}

TEST(PciProbe, NamesComeFromAmdgpuIdsThenPciIdsThenTheBuiltInTable) {
  SysrootBuilder root;
  WriteXtx(root);
  root.Write(std::string(kRtx) + "/class", "0x030000\n");
  root.Write(std::string(kRtx) + "/vendor", "0x10de\n");
  root.Write(std::string(kRtx) + "/device", "0x2684\n");
  root.Write("/usr/share/libdrm/amdgpu.ids",
             "# List of AMDGPU IDs\n#\n\n1.0.0\n744C,\tCC,\tAMD Radeon RX 7900 XT\n744C,\tC8,\tAMD Radeon RX "
             "7900 XTX (ids)\n");
  root.Write(
      "/usr/share/hwdata/pci.ids",
      "# pci.ids\n1002  Advanced Micro Devices, Inc. [AMD/ATI]\n\t744c  Navi 31 [Radeon RX 7900 XT/7900 "
      "XTX]\n"
      "10de  NVIDIA Corporation\n\t2684  AD102 [GeForce RTX 4090 (pci.ids)]\n\t\t10de 167c  RTX 4090 FE\n"
      "8086  Intel Corporation\n");
  Snapshot snap = ProbePciSysroot(root);
  ASSERT_EQ(snap.pci_devices.size(), 2u);
  EXPECT_EQ(snap.pci_devices[0].name, "Radeon RX 7900 XTX (ids)");
  EXPECT_EQ(snap.pci_devices[0].name_source, "amdgpu.ids");
  EXPECT_EQ(snap.pci_devices[1].name, "GeForce RTX 4090 (pci.ids)");
  EXPECT_EQ(snap.pci_devices[1].name_source, "pci.ids");
  EXPECT_TRUE(Contains(snap.looked_at, "/usr/share/libdrm/amdgpu.ids (GPU names)"));
  EXPECT_TRUE(Contains(snap.looked_at, "/usr/share/hwdata/pci.ids (GPU names)"));
}

TEST(PciProbe, ToldIntegratedByApuIdOrByMemoryShape) {
  SysrootBuilder root;
  auto add = [&](const std::string& addr, const char* device, const char* vram, const char* gtt) {
    std::string d = "/sys/bus/pci/devices/" + addr;
    root.Write(d + "/class", "0x038000\n");
    root.Write(d + "/vendor", "0x1002\n");
    root.Write(d + "/device", device);
    root.Write(d + "/mem_info_vram_total", vram);
    root.Write(d + "/mem_info_gtt_total", gtt);
  };
  add("0000:0e:00.0", "0x164e\n", "536870912\n", "16777216000\n");    // Raphael APU
  add("0000:0f:00.0", "0x1234\n", "536870912\n", "17179869184\n");    // unknown id, APU-shaped memory
  add("0000:10:00.0", "0x1235\n", "17179869184\n", "17179869184\n");  // unknown id, 16 GiB VRAM
  add("0000:11:00.0", "0x1236\n", "536870912\n", "1073741824\n");     // small VRAM, small GTT
  Snapshot snap = ProbePciSysroot(root);
  ASSERT_EQ(snap.pci_devices.size(), 4u);
  EXPECT_EQ(snap.pci_devices[0].integrated, true);
  EXPECT_NE(snap.pci_devices[0].integrated_reason.find("Raphael"), std::string::npos);
  EXPECT_EQ(snap.pci_devices[1].integrated, true);
  EXPECT_NE(snap.pci_devices[1].integrated_reason.find("GTT"), std::string::npos);
  EXPECT_EQ(snap.pci_devices[2].integrated, false);
  EXPECT_EQ(snap.pci_devices[3].integrated, false);
  EXPECT_EQ(snap.pci_devices[1].name, "");
  EXPECT_EQ(snap.pci_devices[1].name_source, "");
}

TEST(PciProbe, FindsTheDrmCardThroughClassDrmLinkOrUevent) {
  SysrootBuilder root;
  WriteXtx(root);
  std::filesystem::remove_all(root.root() + std::string(kXtx) + "/drm");
  std::string b = "/sys/bus/pci/devices/0000:04:00.0";
  root.Write(b + "/class", "0x030000\n");
  root.Write(b + "/vendor", "0x1002\n");
  root.Write(b + "/device", "0x73df\n");
  root.Write(b + "/revision", "0xc1\n");
  if (!root.Symlink("/sys/class/drm/card0/device", "../../../bus/pci/devices/0000:03:00.0"))
    GTEST_SKIP() << "no symbolic links here";
  root.Symlink("/sys/class/drm/card0-DP-1/device", "../../../bus/pci/devices/0000:09:00.0");
  root.Write("/sys/class/drm/card2/device/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=0000:04:00.0\n");
  Snapshot snap = ProbePciSysroot(root);
  ASSERT_EQ(snap.pci_devices.size(), 2u);
  EXPECT_EQ(snap.pci_devices[0].drm_card, "card0");
  EXPECT_EQ(snap.pci_devices[1].drm_card, "card2");
  EXPECT_EQ(snap.pci_devices[1].driver, "");
}

TEST(PciProbe, BadFilesBecomeWarningsAndTheProbeGoesOn) {
  SysrootBuilder root;
  WriteXtx(root);
  std::string d = kXtx;
  root.Write(d + "/revision", "zz\n");
  root.Write(d + "/subsystem_vendor", "");
  root.Write(d + "/subsystem_device", "0x");
  root.Write(d + "/current_link_speed", "fast\n");
  root.Write(d + "/max_link_width", "-4\n");
  std::filesystem::remove(root.root() + d + "/numa_node");
  root.Mkdir(d + "/numa_node");  // a folder where a file is expected
  root.Write(d + "/mem_info_vram_total", "12abc\n");
  root.Write(d + "/gpu_busy_percent", "250\n");
  root.Write(d + "/device", std::string("0x74\0\xff", 6));
  // A device without a class file, one with a looping link, one entry that is no PCI address.
  root.Write("/sys/bus/pci/devices/0000:05:00.0/vendor", "0x1002\n");
  bool links = root.Symlink("/sys/bus/pci/devices/0000:09:00.0", "0000:09:00.1") &&
               root.Symlink("/sys/bus/pci/devices/0000:09:00.1", "0000:09:00.0");
  root.Write("/sys/bus/pci/devices/garbage/class", "0x030000\n");

  Snapshot snap = ProbePciSysroot(root);
  ASSERT_EQ(snap.pci_devices.size(), 1u);
  const PciDevice& a = snap.pci_devices[0];
  EXPECT_EQ(a.vendor_id, 0x1002u);
  EXPECT_EQ(a.device_id, 0u);
  EXPECT_FALSE(a.revision.has_value());
  EXPECT_FALSE(a.subsystem_vendor_id.has_value());
  EXPECT_FALSE(a.link.current_speed_gts.has_value());
  EXPECT_EQ(a.link.current_width, 16u);  // the good files still count
  EXPECT_FALSE(a.numa_node.has_value());
  EXPECT_FALSE(a.drm_vram_total_bytes.has_value());
  EXPECT_FALSE(a.gpu_busy_percent.has_value());
  EXPECT_EQ(a.driver, "amdgpu");

  const auto& w = snap.warnings;
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:03:00.0/revision: not a hex number ('zz')"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:03:00.0/subsystem_vendor: empty"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:03:00.0/subsystem_device: not a hex number ('0x')"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:03:00.0/current_link_speed: not a link speed ('fast')"));
  EXPECT_TRUE(HasWarning(w, "0000:03:00.0/max_link_width", "not a link width"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:03:00.0/numa_node: a folder where a file was expected"));
  EXPECT_TRUE(
      Contains(w, "/sys/bus/pci/devices/0000:03:00.0/mem_info_vram_total: not a decimal number ('12abc')"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:03:00.0/gpu_busy_percent: not a percentage ('250')"));
  EXPECT_TRUE(Contains(w,
                       "/sys/bus/pci/devices/0000:03:00.0/device: not a hex number ('0x74?"
                       "?')"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:05:00.0/class: missing"));
  EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/garbage: not a PCI address"));
  if (links) {
    EXPECT_TRUE(Contains(w, "/sys/bus/pci/devices/0000:09:00.0: a dangling or looping symbolic link"))
        << ::testing::PrintToString(w);
  }
  EXPECT_TRUE(Contains(snap.looked_at, "/sys/bus/pci/devices (1 display device)"));
}

TEST(PciProbe, NoPciFolderIsSaidNotWarned) {
  SysrootBuilder root;
  Snapshot snap = ProbePciSysroot(root);
  EXPECT_TRUE(snap.pci_devices.empty());
  EXPECT_TRUE(snap.warnings.empty());
  ASSERT_EQ(snap.looked_at.size(), 1u);
  EXPECT_EQ(snap.looked_at[0], "/sys/bus/pci/devices (absent: no PCI bus information)");
}

TEST(PciSysfsParse, HexAttribute) {
  EXPECT_EQ(ParsePciHexAttribute("0x744c\n", 0xffff).value(), 0x744cu);
  EXPECT_EQ(ParsePciHexAttribute("0x030000", 0xffffff).value(), 0x030000u);
  EXPECT_EQ(ParsePciHexAttribute("", 0xffff).error().message, "empty");
  EXPECT_EQ(ParsePciHexAttribute("0x10000", 0xffff).error().message, "out of range ('0x10000')");
  EXPECT_EQ(ParsePciHexAttribute("zz", 0xff).error().message, "not a hex number ('zz')");
  EXPECT_FALSE(ParsePciHexAttribute("-0x1", 0xff).ok());
}

TEST(PciSysfsParse, GpuClasses) {
  struct Case {
    uint32_t class_code;
    bool gpu;
  };
  for (auto c : {Case{0x030000, true}, Case{0x030100, true}, Case{0x030200, true}, Case{0x038000, true},
                 Case{0x120000, true}, Case{0x0c0330, false}, Case{0x020000, false}, Case{0x060400, false}}) {
    EXPECT_EQ(IsGpuPciClass(c.class_code), c.gpu) << std::hex << c.class_code;
  }
}

TEST(PciSysfsParse, LinkSpeedAndWidth) {
  struct Speed {
    const char* text;
    bool ok;
    std::optional<double> gts;
  };
  for (auto c : {Speed{"16.0 GT/s PCIe\n", true, 16.0}, Speed{"8.0 GT/s", true, 8.0},
                 Speed{"2.5 GT/s PCIe", true, 2.5}, Speed{"64.0 GT/s PCIe", true, 64.0},
                 Speed{"Unknown\n", true, std::nullopt}, Speed{"", false, std::nullopt},
                 Speed{"GT/s", false, std::nullopt}, Speed{"16.0 GB/s", false, std::nullopt},
                 Speed{"nan GT/s", false, std::nullopt}, Speed{"-8 GT/s", false, std::nullopt},
                 Speed{"8.0 GT/s PCIe extra", false, std::nullopt}}) {
    auto r = ParseLinkSpeedGts(c.text);
    ASSERT_EQ(r.ok(), c.ok) << c.text;
    if (c.ok) {
      EXPECT_EQ(*r, c.gts) << c.text;
    }
  }
  EXPECT_EQ(*ParseLinkWidth("16\n"), 16u);
  EXPECT_EQ(*ParseLinkWidth("x4"), 4u);
  EXPECT_FALSE(ParseLinkWidth("0")->has_value());
  EXPECT_FALSE(ParseLinkWidth("255")->has_value());
  EXPECT_FALSE(ParseLinkWidth("256").ok());
  EXPECT_FALSE(ParseLinkWidth("wide").ok());
  EXPECT_EQ(*ParseNumaNode("3"), 3);
  EXPECT_FALSE(ParseNumaNode("-1")->has_value());
  EXPECT_FALSE(ParseNumaNode("-2").ok());
}

TEST(PciNameFiles, AmdgpuIdsLinesAndLookup) {
  auto e = ParseAmdgpuIdsLine("744C,\tC8,\tAMD Radeon RX 7900 XTX");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->device_id, 0x744cu);
  EXPECT_EQ(e->revision, 0xc8u);
  EXPECT_EQ(e->name, "AMD Radeon RX 7900 XTX");
  EXPECT_FALSE(ParseAmdgpuIdsLine("# 744C,\tC8,\tcomment"));
  EXPECT_FALSE(ParseAmdgpuIdsLine("1.0.0"));
  EXPECT_FALSE(ParseAmdgpuIdsLine("744C,\tC8,\t"));
  EXPECT_FALSE(ParseAmdgpuIdsLine("74C,\tC8,\tShort id"));
  EXPECT_FALSE(ParseAmdgpuIdsLine("744G,\tC8,\tNot hex"));
  std::string_view file = "1.0.0\n73DF,\tC1,\tAMD Radeon RX 6700 XT\r\n744C,\tCC,\tAMD Radeon RX 7900 XT\n";
  EXPECT_EQ(FindAmdgpuIdsName(file, 0x73df, 0xc1), "Radeon RX 6700 XT");
  EXPECT_EQ(FindAmdgpuIdsName(file, 0x744c, 0xcc), "Radeon RX 7900 XT");
  EXPECT_FALSE(FindAmdgpuIdsName(file, 0x744c, 0xc8));
  EXPECT_FALSE(FindAmdgpuIdsName("", 0x744c, 0xc8));
}

TEST(PciNameFiles, PciIdsReadsOnlyTheVendorBlock) {
  std::string_view file =
      "# header\n"
      "1000  Broadcom\n\t744c  Not this one\n"
      "1002  Advanced Micro Devices, Inc. [AMD/ATI]\n"
      "\t73df  Navi 22 [Radeon RX 6700/6700 XT/6750 XT / 6800M/6850M XT]\n"
      "\t744c  Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]\n"
      "\t\t1da2 e471  Sapphire Nitro+ RX 7900 XTX\n"
      "\t\t1002 0e3b  Radeon RX 7900 XTX\n"
      "\t7480  Navi 33 [Radeon RX 7600/7600 XT]\n"
      "10de  NVIDIA Corporation\n\t2684  AD102 [GeForce RTX 4090]\n"
      "C 03  Display controller\n\t00  VGA compatible controller\n";
  auto m = LookupPciIds(file, 0x1002, 0x744c, 0x1da2, 0xe471);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->vendor_name, "Advanced Micro Devices, Inc. [AMD/ATI]");
  EXPECT_EQ(m->device_name, "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]");
  EXPECT_EQ(m->subsystem_name, "Sapphire Nitro+ RX 7900 XTX");
  EXPECT_EQ(MarketingNameFromPciIds(m->device_name), "Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M");
  auto n = LookupPciIds(file, 0x10de, 0x2684);
  ASSERT_TRUE(n.has_value());
  EXPECT_EQ(n->device_name, "AD102 [GeForce RTX 4090]");
  auto unknown_device = LookupPciIds(file, 0x1002, 0x9999);
  ASSERT_TRUE(unknown_device.has_value());
  EXPECT_EQ(unknown_device->device_name, "");
  EXPECT_FALSE(LookupPciIds(file, 0x1234, 0x0001).has_value());
  EXPECT_EQ(MarketingNameFromPciIds("GK110 no brackets"), "GK110 no brackets");
  EXPECT_EQ(MarketingNameFromPciIds("odd []"), "odd []");
}

TEST(IntegratedGpu, VerdictsCarryTheirEvidence) {
  IntegratedEvidence kfd;
  kfd.vendor_id = 0x1002;
  kfd.device_id = 0x9999;
  kfd.kfd_cpu_cores = 16;
  auto v = ClassifyIntegrated(kfd);
  EXPECT_EQ(v.integrated, true);
  EXPECT_NE(v.reason.find("16 CPU cores"), std::string::npos);

  IntegratedEvidence board = {0x1002, 0x74a1, "0000:05:00.0", 0, 0, false, true, std::nullopt};
  EXPECT_EQ(ClassifyIntegrated(board).integrated, false);

  IntegratedEvidence nothing = {0x1002,       0x9999, "0000:05:00.0", std::nullopt,
                                std::nullopt, false,  false,          std::nullopt};
  EXPECT_FALSE(ClassifyIntegrated(nothing).integrated.has_value());

  IntegratedEvidence intel_igpu = {0x8086,       0x4680, "0000:00:02.0", std::nullopt,
                                   std::nullopt, false,  false,          std::nullopt};
  EXPECT_EQ(ClassifyIntegrated(intel_igpu).integrated, true);
  IntegratedEvidence nvidia = {0x10de,       0x2330, "0000:17:00.0", std::nullopt,
                               std::nullopt, false,  false,          std::nullopt};
  EXPECT_EQ(ClassifyIntegrated(nvidia).integrated, false);
  EXPECT_TRUE(IsKnownAmdApuDeviceId(0x15bf));
  EXPECT_TRUE(IsKnownAmdApuDeviceId(0x1586));
  EXPECT_FALSE(IsKnownAmdApuDeviceId(0x744c));
}

}  // namespace
}  // namespace gpudoctor
