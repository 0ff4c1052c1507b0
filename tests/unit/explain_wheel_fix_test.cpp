// Install commands filled from the log's facts (wheel_fix.h, issue 14): the CUDA variant for the log's GPU
// (a Pascal card gets a wheel that still has its cubins, an RTX 50 one that has sm_120), a release with
// wheels for the log's Python, the ROCm build for an AMD target, PowerShell and the portable python.exe for
// a Windows portable install, and which Pythons the wheels have for a pip failure. Every expected value is
// read from the knowledge base, never written here.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "explain/explain_catalog.h"
#include "explain/explain_report.h"
#include "explain/log_scanner.h"
#include "explain/target_fix.h"
#include "explain_test_util.h"
#include "knowledge/knowledge_loader.h"
#include "knowledge/torch_wheel_lookup.h"

namespace gpudoctor {
namespace {

const ExplainedMatch& First(const ExplainReport& r) {
  static const ExplainedMatch none;
  EXPECT_FALSE(r.matches.empty());
  return r.matches.empty() ? none : r.matches.front();
}

const TorchWheel* Chosen(const WheelFix& f) {
  auto torch = Version::Parse(f.torch);
  return torch ? EmbeddedDb().FindTorchWheel(*torch, f.variant) : nullptr;
}

bool RunsAsCubin(const TorchWheel& w, const std::string& cc) {
  CcSupport s = WheelSupportsCc(w, *Version::Parse(cc));
  return s == CcSupport::kExactCubin || s == CcSupport::kCompatibleCubin;
}

TEST(ExplainWheelFix, PascalGetsAWheelThatStillHasItsCode) {
  ExplainReport r = ReportOnLinux(
      "Device: cuda:0 NVIDIA GeForce GTX 1080\n"
      "RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  const ExplainedMatch& m = First(r);
  EXPECT_EQ(m.match.entry->id, "cuda.no_kernel_image");
  ASSERT_TRUE(m.wheel_fix.has_value());
  const TorchWheel* w = Chosen(*m.wheel_fix);
  ASSERT_NE(w, nullptr) << m.wheel_fix->torch << " " << m.wheel_fix->variant;
  EXPECT_TRUE(RunsAsCubin(*w, "6.1")) << w->variant;
  EXPECT_EQ(w, BestCudaWheel(EmbeddedDb(), *Version::Parse("6.1"), std::nullopt, std::nullopt, false));
  EXPECT_NE(m.wheel_fix->commands.bash.find("--force-reinstall"), std::string::npos);
  EXPECT_NE(m.wheel_fix->commands.bash.find(w->index_url.empty() ? w->variant : w->variant),
            std::string::npos)
      << m.wheel_fix->commands.bash;
}

TEST(ExplainWheelFix, Rtx50GetsAVariantWithSm120NotTheListOfTheOldWheel) {
  ExplainReport r = ReportOnLinux(
      "UserWarning: NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current "
      "PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 "
      "sm_80 sm_86 sm_90.\n");
  const ExplainedMatch& m = First(r);
  ASSERT_TRUE(m.wheel_fix.has_value());
  EXPECT_NE(m.wheel_fix->gpu.find("sm_120"), std::string::npos) << m.wheel_fix->gpu;
  const TorchWheel* w = Chosen(*m.wheel_fix);
  ASSERT_NE(w, nullptr);
  EXPECT_TRUE(RunsAsCubin(*w, "12.0")) << w->variant;
}

TEST(ExplainWheelFix, ThePythonOfTheLogPinsAReleaseThatHasItsWheels) {
  ExplainReport r = ReportOnLinux(
      "Python version: 3.8.10 (default, Nov 22 2023, 10:22:35)  [GCC 9.4.0] (64-bit runtime)\n"
      "GPU 0: NVIDIA GeForce GTX 1080\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  const ExplainedMatch& m = First(r);
  ASSERT_TRUE(m.wheel_fix.has_value());
  EXPECT_EQ(m.wheel_fix->python, "3.8");
  const TorchWheel* w = Chosen(*m.wheel_fix);
  ASSERT_NE(w, nullptr);
  EXPECT_NE(std::find(w->python.begin(), w->python.end(), "3.8"), w->python.end()) << w->torch.ToString();
  EXPECT_TRUE(RunsAsCubin(*w, "6.1"));
  EXPECT_NE(m.wheel_fix->commands.bash.find("torch==" + m.wheel_fix->torch + ".*"), std::string::npos)
      << m.wheel_fix->commands.bash;
  EXPECT_NE(m.wheel_fix->advice.find("not 3.8"), std::string::npos) << m.wheel_fix->advice;
}

TEST(ExplainWheelFix, PortableWindowsInstallGetsItsOwnPythonInPowerShell) {
  ExplainReport r = ReportOnLinux(
      "C:\\ComfyUI_windows_portable>.\\python_embeded\\python.exe -s ComfyUI\\main.py "
      "--windows-standalone-build\n"
      "Total VRAM 12288 MB, NVIDIA GeForce RTX 3060\n"
      "AssertionError: Torch not compiled with CUDA enabled\n");
  const ExplainedMatch& m = First(r);
  EXPECT_EQ(m.match.entry->id, "torch.not_compiled_with_cuda.portable");
  ASSERT_TRUE(m.wheel_fix.has_value());
  EXPECT_TRUE(m.wheel_fix->commands.bash.empty());
  EXPECT_EQ(m.wheel_fix->commands.powershell.rfind(
                ".\\python_embeded\\python.exe -m pip install --force-reinstall", 0),
            0u)
      << m.wheel_fix->commands.powershell;
  const std::string text = RenderExplainText(r, false);
  EXPECT_NE(text.find("PS> .\\python_embeded\\python.exe"), std::string::npos) << text;
}

TEST(ExplainWheelFix, AmdTargetGetsTheRocmBuildThatCarriesIt) {
  ExplainReport r = ReportOnLinux(
      "  Name:                    gfx1100\nAssertionError: Torch not compiled with CUDA enabled\n");
  const ExplainedMatch& m = First(r);
  ASSERT_TRUE(m.wheel_fix.has_value());
  const TorchWheel* newest = NewestRocmWheelWithGfx(EmbeddedDb(), "gfx1100");
  ASSERT_NE(newest, nullptr);
  EXPECT_EQ(m.wheel_fix->variant, newest->variant);
  EXPECT_NE(m.wheel_fix->commands.bash.find("whl/" + newest->variant), std::string::npos)
      << m.wheel_fix->commands.bash;
}

TEST(ExplainWheelFix, PipFailureSaysWhichPythonsTheWheelsHave) {
  const TorchRelease* newest = nullptr;
  for (const TorchRelease& t : EmbeddedDb().torch_releases)
    if (newest == nullptr || t.version > newest->version) newest = &t;
  ASSERT_NE(newest, nullptr);
  // A Python one minor past the newest the newest release has.
  const Version last = *Version::Parse(newest->python.back());
  const std::string next = "3." + std::to_string(last.minor() + 1);
  ExplainReport r = ReportOnLinux("Python " + next + ".0\nERROR: No matching distribution found for torch\n");
  const ExplainedMatch& m = First(r);
  ASSERT_TRUE(m.wheel_fix.has_value());
  EXPECT_NE(m.wheel_fix->advice.find("not " + next), std::string::npos) << m.wheel_fix->advice;
  EXPECT_NE(m.wheel_fix->advice.find(newest->python.front()), std::string::npos) << m.wheel_fix->advice;
  EXPECT_NE(m.wheel_fix->commands.bash.find("venv"), std::string::npos);

  const TorchRelease* pinned = EmbeddedDb().FindTorchRelease(*Version::Parse("2.1"));
  ASSERT_NE(pinned, nullptr);
  ExplainReport p = ReportOnLinux(
      "Python version: 3.12.3\nERROR: Could not find a version that satisfies the requirement "
      "torch==2.1.0+cu118 "
      "(from versions: 2.2.0, 2.2.1)\n");
  ASSERT_TRUE(First(p).wheel_fix.has_value());
  EXPECT_NE(First(p).wheel_fix->advice.find("torch 2.1 has wheels for Python " + pinned->python.front()),
            std::string::npos)
      << First(p).wheel_fix->advice;
}

TEST(ExplainWheelFix, NoGpuNoPythonMeansNoGuess) {
  ExplainReport r =
      ReportOnLinux("RuntimeError: CUDA error: no kernel image is available for execution on the device\n");
  const ExplainedMatch& m = First(r);
  EXPECT_FALSE(m.wheel_fix.has_value());
  EXPECT_NE(m.match.entry->commands.bash.find("compute_cap"), std::string::npos);
  EXPECT_EQ(m.match.entry->commands.bash.find("cu130"), std::string::npos);
}

TEST(ExplainWheelFix, JsonCarriesTheFilledCommand) {
  ExplainReport r =
      ReportOnLinux("GPU 0: NVIDIA GeForce RTX 3060\nAssertionError: Torch not compiled with CUDA enabled\n");
  r.machine = "this machine";
  auto doc = nlohmann::json::parse(RenderExplainJson(r));
  const auto& fix = doc["matches"][0]["wheel_fix"];
  ASSERT_TRUE(fix.is_object()) << doc.dump(2);
  EXPECT_TRUE(fix["variant"].is_string());
  EXPECT_NE(fix["commands"]["bash"].get<std::string>().find(fix["variant"].get<std::string>()),
            std::string::npos);
  EXPECT_TRUE(doc["matches"][0]["target_fixes"].empty());
}

// DirectML on an AMD GPU: AMD's Windows wheels where the knowledge base says they carry the target, and
// no such claim where they do not (RDNA2).
TEST(ExplainWheelFix, DirectMlOnAGpuAmdsWindowsWheelsCarry) {
  ExplainReport r = ReportOnLinux(
      "C:\\Users\\me\\sd>python launch.py --use-directml\nDevice: AMD Radeon RX 7900 XTX\n"
      "RuntimeError: Device type privateuseone is not supported for torch.Generator() api.\n");
  const ExplainedMatch& m = First(r);
  EXPECT_EQ(m.match.entry->id, "torch.directml_unsupported");
  ASSERT_TRUE(m.wheel_fix.has_value());
  std::vector<const TorchRoute*> routes = AmdRoutesCarrying(EmbeddedDb(), "gfx1100", Platform::kWindows);
  ASSERT_FALSE(routes.empty());
  EXPECT_NE(m.wheel_fix->advice.find(routes.front()->name), std::string::npos) << m.wheel_fix->advice;
  EXPECT_NE(m.wheel_fix->commands.powershell.find("gfx1100"), std::string::npos)
      << m.wheel_fix->commands.powershell;

  ExplainReport rdna2 = ReportOnLinux(
      "C:\\Users\\me\\sd>python launch.py --use-directml\nDevice: AMD Radeon RX 6700 XT\n"
      "RuntimeError: Device type privateuseone is not supported for torch.Generator() api.\n");
  ASSERT_TRUE(First(rdna2).wheel_fix.has_value());
  EXPECT_EQ(AmdRoutesCarrying(EmbeddedDb(), "gfx1031", Platform::kWindows).empty(),
            First(rdna2).wheel_fix->commands.powershell.empty());
  if (First(rdna2).wheel_fix->commands.powershell.empty()) {
    EXPECT_NE(First(rdna2).wheel_fix->advice.find("No recorded PyTorch build carries gfx1031 on Windows"),
              std::string::npos)
        << First(rdna2).wheel_fix->advice;
  }
}

}  // namespace
}  // namespace gpudoctor
