// The Windows identifier parsers (probe/windows/windows_ids.h) on the strings real machines hold: PnP
// hardware ids, LocationInformation in its indirect and translated forms, NVIDIA and AMD driver
// versions, and the Windows 11 product name the registry does not give.
#include <gtest/gtest.h>

#include "platform/filesystem.h"
#include "probe/windows/windows_ids.h"

namespace gpudoctor {
namespace {

TEST(PnpHardwareId, ParsesTheFullFormAndTheMatchingDeviceIdForm) {
  auto full = ParsePnpHardwareId("PCI\\VEN_1002&DEV_73DF&SUBSYS_2409148C&REV_C1");
  ASSERT_TRUE(full);
  EXPECT_EQ(full->vendor_id, 0x1002u);
  EXPECT_EQ(full->device_id, 0x73dfu);
  EXPECT_EQ(full->subsystem_vendor_id, 0x148cu);
  EXPECT_EQ(full->subsystem_device_id, 0x2409u);
  EXPECT_EQ(full->revision, 0xc1u);
  auto lower = ParsePnpHardwareId("pci\\ven_10de&dev_2684&rev_a1");
  ASSERT_TRUE(lower);
  EXPECT_EQ(lower->device_id, 0x2684u);
  EXPECT_EQ(lower->revision, 0xa1u);
  EXPECT_FALSE(lower->subsystem_vendor_id);
  // An Enum key name is the same text without "PCI\".
  auto key = ParsePnpHardwareId("VEN_1002&DEV_744C&SUBSYS_471E1DA2&REV_C8");
  ASSERT_TRUE(key);
  EXPECT_EQ(key->subsystem_vendor_id, 0x1da2u);
}

TEST(PnpHardwareId, RejectsOtherBusesAndBrokenIds) {
  EXPECT_FALSE(ParsePnpHardwareId("USB\\VID_046D&PID_C52B"));
  EXPECT_FALSE(ParsePnpHardwareId("PCI\\VEN_10&DEV_2684"));
  EXPECT_FALSE(ParsePnpHardwareId("PCI\\VEN_XYZW&DEV_2684"));
  EXPECT_FALSE(ParsePnpHardwareId(""));
}

TEST(LocationInformation, IndirectFormOfWindows10And11) {
  EXPECT_EQ(PciAddressFromLocationInformation(
                "@System32\\drivers\\pci.sys,#65536;PCI bus %1, device %2, function %3;(3,0,0)"),
            "0000:03:00.0");
  EXPECT_EQ(PciAddressFromLocationInformation(
                "@System32\\drivers\\pci.sys,#65536;PCI bus %1, device %2, function %3;(197,0,1)"),
            "0000:c5:00.1");
}

TEST(LocationInformation, PlainTextInAnyLanguageAndWithASegment) {
  EXPECT_EQ(PciAddressFromLocationInformation("PCI bus 38, device 0, function 0"), "0000:26:00.0");
  EXPECT_EQ(PciAddressFromLocationInformation("PCI-bus 3, apparaat 0, functie 0"), "0000:03:00.0");
  EXPECT_EQ(PciAddressFromLocationInformation("PCI segment 1 bus 2, device 3, function 4"), "0001:02:03.4");
}

TEST(LocationInformation, RejectsWhatIsNoPciLocation) {
  EXPECT_FALSE(PciAddressFromLocationInformation("Port_#0001.Hub_#0001"));
  EXPECT_FALSE(PciAddressFromLocationInformation("PCI bus 3, device 40, function 0"));  // device > 31
  EXPECT_FALSE(PciAddressFromLocationInformation("PCI bus 3, device 0"));
  EXPECT_FALSE(PciAddressFromLocationInformation("@pci.sys;(1,2,3,4,5)"));
  EXPECT_FALSE(PciAddressFromLocationInformation(""));
}

TEST(NvidiaRelease, LastFiveDigitsOfTheLastTwoParts) {
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("32.0.15.6094"), "560.94");
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("31.0.15.3734"), "537.34");
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("27.21.14.5671"), "456.71");
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("32.0.15.5102"), "551.02");
  // Pairs published with the rule: github.com/the-database/mpv-AnimeJaNai/pull/81, fyr77/EnvyUpdate#21.
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("31.0.15.7652"), "576.52");
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("32.0.16.1047"), "610.47");
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("30.0.14.7196"), "471.96");
  // A fourth part written without its leading zero still counts as four digits.
  EXPECT_EQ(NvidiaReleaseFromDriverVersion("31.0.15.502"), "505.02");
}

TEST(NvidiaRelease, RejectsOtherShapes) {
  EXPECT_FALSE(NvidiaReleaseFromDriverVersion("560.94"));
  EXPECT_FALSE(NvidiaReleaseFromDriverVersion("32.0.15"));
  EXPECT_FALSE(NvidiaReleaseFromDriverVersion("32.0.x.6094"));
  EXPECT_FALSE(NvidiaReleaseFromDriverVersion("32.0.15.60940"));
}

TEST(AmdRelease, RadeonSoftwareVersionNamesTheAdrenalinRelease) {
  EXPECT_EQ(AmdReleaseLabel("24.3.1"), "Adrenalin 24.3.1");
  EXPECT_EQ(AmdReleaseLabel(" 25.20.01.17 "), "Adrenalin 25.20.01.17");
  EXPECT_EQ(AmdReleaseLabel("24.Q4"), "AMD Software 24.Q4");
  EXPECT_FALSE(AmdReleaseLabel(""));
}

TEST(WindowsProductName, Windows11IsToldByItsBuild) {
  EXPECT_EQ(WindowsProductName(22631, "Windows 10 Pro"), "Windows 11 Pro");
  EXPECT_EQ(WindowsProductName(26100, "Windows 10 Home"), "Windows 11 Home");
  EXPECT_EQ(WindowsProductName(19045, "Windows 10 Home"), "Windows 10 Home");
  EXPECT_EQ(WindowsProductName(20348, "Windows Server 2022 Datacenter"), "Windows Server 2022 Datacenter");
  EXPECT_EQ(WindowsProductName(22000, ""), "Windows 11");
}

TEST(RecordedWindowsPath, DriveLetterBecomesAFolder) {
  EXPECT_EQ(RecordedWindowsPath("C:\\Users\\bob\\x.txt"), "/C/Users/bob/x.txt");
  EXPECT_EQ(RecordedWindowsPath("c:/Program Files/AMD"), "/C/Program Files/AMD");
  EXPECT_EQ(RecordedWindowsPath("D:"), "/D");
  EXPECT_EQ(RecordedWindowsPath("/sys/class/drm"), "/sys/class/drm");
  EXPECT_EQ(RecordedWindowsPath("C:relative"), "C:relative");
}

}  // namespace
}  // namespace gpudoctor
