// The `info` text: what a person must see in the cases that matter.
#include "report/info_text.h"

#include <gtest/gtest.h>

namespace gpudoctor {
namespace {

TEST(InfoText, NoGpuSaysSoAndListsWhatWasLookedAt) {
  Snapshot s;
  s.looked_at = {"/sys/bus/pci/devices (0 display devices)", "/sys/class/kfd (absent)"};
  std::string text = RenderInfoText(s);
  EXPECT_NE(text.find("No GPU was found"), std::string::npos);
  EXPECT_NE(text.find("/sys/class/kfd (absent)"), std::string::npos);
}

TEST(InfoText, RecordedMachineIsMarkedNotThisMachine) {
  Snapshot s;
  s.live_machine = false;
  s.sysroot = "fixtures/rx";
  EXPECT_EQ(RenderInfoText(s).rfind("Not this machine: read from fixtures/rx", 0), 0u);
  s.live_machine = true;
  EXPECT_EQ(RenderInfoText(s).find("Not this machine"), std::string::npos);
}

// Environment values and warnings come from the machine (or a snapshot someone sent): an escape sequence
// or a line break in them must not retitle the terminal or forge a line of the report (issue 35).
TEST(InfoText, EnvironmentValuesAndWarningsCannotDriveTheTerminal) {
  Snapshot s;
  s.environment["HSA_OVERRIDE_GFX_VERSION"] = "10.3.0\x1b]0;PWN\x07\x1b[2J";
  s.environment["ROCM_PATH"] = "/opt/rocm\r\nFAKE ENV";
  s.warnings.push_back("bad\x1b[31m warning");
  const std::string text = RenderInfoText(s);
  EXPECT_EQ(text.find('\x1b'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  EXPECT_EQ(text.find("\nFAKE ENV"), std::string::npos);
  EXPECT_NE(text.find("HSA_OVERRIDE_GFX_VERSION=10.3.0?]0;PWN??[2J"), std::string::npos) << text;
}

TEST(InfoText, GpuRowShowsArchitectureVramAndLink) {
  Snapshot s;
  PciDevice d;
  d.address = "0000:03:00.0";
  d.link.current_speed_gts = 8.0;
  d.link.current_width = 4;
  d.link.max_speed_gts = 16.0;
  d.link.max_width = 16;
  s.pci_devices.push_back(d);
  Gpu g;
  g.pci_address = "0000:03:00.0";
  g.vendor = GpuVendor::kAmd;
  g.name = "Radeon RX 7900 XTX";
  g.architecture = "gfx1100";
  g.vram_bytes = 24ull << 30;
  g.integrated = false;
  g.driver = "amdgpu";
  s.gpus.push_back(g);
  std::string text = RenderInfoText(s);
  EXPECT_NE(text.find("gfx1100"), std::string::npos);
  EXPECT_NE(text.find("24.0 GiB"), std::string::npos);
  EXPECT_NE(text.find("discrete"), std::string::npos);
  // A down-trained link shows both what it runs at and what it could do.
  EXPECT_NE(text.find("PCIe 3.0 x4 (max 4.0 x16)"), std::string::npos) << text;
}

TEST(InfoText, ColourOnlyWhenAsked) {
  Snapshot s;
  s.warnings = {"x"};
  EXPECT_EQ(RenderInfoText(s).find("\033["), std::string::npos);
  TextStyle style;
  style.color = true;
  EXPECT_NE(RenderInfoText(s, style).find("\033["), std::string::npos);
}

TEST(InfoText, CudaDriverVersionIsDecoded) {
  Snapshot s;
  s.nvidia.driver_version = "580.159.03";
  s.nvidia.cuda_driver_version = 12080;
  EXPECT_NE(RenderInfoText(s).find("12.8 (highest CUDA it runs)"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
