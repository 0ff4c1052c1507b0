// `tune --apply --perf-level` and `tune --restore` on a temporary folder standing for the machine (never the
// real /sys): the previous value recorded before the write, restored exactly, a second apply refused, and
// the CLI's --restore through the hidden --root.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "platform/process.h"
#include "probe_sysroot_builder.h"
#include "tune/tune_perf_level.h"

namespace gpudoctor {
namespace {

constexpr const char* kLevel = "/sys/bus/pci/devices/0000:03:00.0/power_dpm_force_performance_level";

// PCI addresses hold ':', which a Windows file name cannot: these run on POSIX only.
bool WindowsPaths() {
  return std::filesystem::path::preferred_separator == '\\';
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(TunePerfLevel, ApplyRecordsThenRestorePutsBack) {
  if (WindowsPaths()) GTEST_SKIP() << "PCI addresses are not Windows file names";
  testing::SysrootBuilder root;
  root.Write(kLevel, "manual\n");
  auto applied = ApplyPerfLevel(root.root(), "0000:03:00.0", "high");
  ASSERT_TRUE(applied.ok()) << applied.error().message;
  EXPECT_EQ(applied->previous, "manual");
  EXPECT_EQ(Read(root.root() + kLevel), "high\n");
  const std::string state = root.root() + kPerfLevelStatePath;
  EXPECT_NE(Read(state).find("\"previous\": \"manual\""), std::string::npos) << Read(state);

  auto again = ApplyPerfLevel(root.root(), "0000:03:00.0", "high");  // would lose "manual"
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.error().hint.find("--restore"), std::string::npos);

  auto restored = RestorePerfLevel(root.root());
  ASSERT_TRUE(restored.ok()) << restored.error().message;
  EXPECT_EQ(restored->now, "manual");
  EXPECT_EQ(Read(root.root() + kLevel), "manual\n");
  EXPECT_FALSE(std::filesystem::exists(state));
  EXPECT_FALSE(RestorePerfLevel(root.root()).ok());  // nothing left to restore
}

TEST(TunePerfLevel, NoSysfsFileIsAnErrorAndLeavesNoRecord) {
  if (WindowsPaths()) GTEST_SKIP() << "PCI addresses are not Windows file names";
  testing::SysrootBuilder root;
  auto r = ApplyPerfLevel(root.root(), "0000:41:00.0", "high");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("power_dpm_force_performance_level"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(root.root() + kPerfLevelStatePath));
}

TEST(TunePerfLevel, ARecordNamingAnotherFileIsRefused) {
  if (WindowsPaths()) GTEST_SKIP() << "PCI addresses are not Windows file names";
  testing::SysrootBuilder root;
  root.Write("/etc/passwd", "root:x:0:0\n");
  root.Write(kPerfLevelStatePath, "{\"path\": \"/etc/passwd\", \"previous\": \"x\"}\n");
  auto r = RestorePerfLevel(root.root());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(Read(root.root() + "/etc/passwd"), "root:x:0:0\n");
}

// The GPU tuned is the GPU whose level is set: torch's --device N counts the GPUs the visible-devices
// variables leave, in their order (ROCR_VISIBLE_DEVICES first, then HIP_ or CUDA_VISIBLE_DEVICES).
TEST(TunePerfLevel, FollowsTheVisibleDevicesVariables) {
  const std::vector<std::string> gpus = {"0000:03:00.0", "0000:23:00.0", "0000:43:00.0"};
  auto pick = [&](uint64_t device, std::map<std::string, std::string> vars) {
    auto r = VisibleAmdGpu(gpus, device, Environment(std::move(vars)));
    return r.ok() ? *r : "error: " + r.error().message;
  };
  EXPECT_EQ(pick(1, {}), "0000:23:00.0");
  EXPECT_EQ(pick(0, {{"HIP_VISIBLE_DEVICES", "2,0"}}), "0000:43:00.0");
  EXPECT_EQ(pick(1, {{"HIP_VISIBLE_DEVICES", "2,0"}}), "0000:03:00.0");
  EXPECT_EQ(pick(0, {{"CUDA_VISIBLE_DEVICES", "1"}}), "0000:23:00.0");
  EXPECT_EQ(pick(0, {{"CUDA_VISIBLE_DEVICES", "1"}, {"HIP_VISIBLE_DEVICES", "2"}}), "0000:43:00.0");
  // ROCR first: it leaves GPUs 2 and 1 (in that order); HIP's 1 is then the second of those.
  EXPECT_EQ(pick(0, {{"ROCR_VISIBLE_DEVICES", "2,1"}, {"HIP_VISIBLE_DEVICES", "1"}}), "0000:23:00.0");
  // A list ends at its first unusable entry: "1,7,0" is GPU 1 alone.
  EXPECT_EQ(pick(0, {{"HIP_VISIBLE_DEVICES", "1,7,0"}}), "0000:23:00.0");
  EXPECT_NE(pick(1, {{"HIP_VISIBLE_DEVICES", "1,7,0"}})
                .find("no AMD GPU number 1 (1 AMD GPU(s) visible, "
                      "HIP_VISIBLE_DEVICES=1,7,0)"),
            std::string::npos);
  EXPECT_NE(pick(0, {{"ROCR_VISIBLE_DEVICES", "GPU-4b2c1a9f"}}).find("by UUID"), std::string::npos);
}

TEST(TunePerfLevel, TheVisibleGpuIsTheOneWhoseLevelIsSet) {
  if (WindowsPaths()) GTEST_SKIP() << "PCI addresses are not Windows file names";
  testing::SysrootBuilder root;
  const std::vector<std::string> gpus = {"0000:03:00.0", "0000:23:00.0"};
  for (const auto& g : gpus)
    root.Write("/sys/bus/pci/devices/" + g + "/power_dpm_force_performance_level", "auto\n");
  auto pci =
      VisibleAmdGpu(gpus, 0, Environment(std::map<std::string, std::string>{{"HIP_VISIBLE_DEVICES", "1"}}));
  ASSERT_TRUE(pci.ok()) << pci.error().message;
  ASSERT_TRUE(ApplyPerfLevel(root.root(), *pci, "high").ok());
  EXPECT_EQ(Read(root.root() + "/sys/bus/pci/devices/0000:23:00.0/power_dpm_force_performance_level"),
            "high\n");
  EXPECT_EQ(Read(root.root() + "/sys/bus/pci/devices/0000:03:00.0/power_dpm_force_performance_level"),
            "auto\n");
}

TEST(TuneCli, RestoreThroughTheCommand) {
  if (WindowsPaths()) GTEST_SKIP() << "PCI addresses are not Windows file names";
  testing::SysrootBuilder root;
  root.Write(kLevel, "auto\n");
  ASSERT_TRUE(ApplyPerfLevel(root.root(), "0000:03:00.0", "high").ok());
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH, "tune", "--restore", "--root", root.root()};
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->stderr_text;
  EXPECT_NE(r->stdout_text.find("high -> auto (restored)"), std::string::npos) << r->stdout_text;
  EXPECT_EQ(Read(root.root() + kLevel), "auto\n");

  req.argv = {GPUDOCTOR_BINARY_PATH, "tune", "--perf-level", "--root", root.root()};
  auto refused = RunProcess(req);
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->exit_code, 3);
  EXPECT_NE(refused->stderr_text.find("only with --apply"), std::string::npos) << refused->stderr_text;
}

TEST(TuneCli, ApplyRefusesAnExistingFileBeforeMeasuring) {
  testing::SysrootBuilder root;
  root.Write("/tune.env", "export MINE=1\n");
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH,   "tune",    "--python-env",
              root.root() + "/no-env", "--apply", root.root() + "/tune.env"};
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 3) << r->stderr_text;
  EXPECT_NE(r->stderr_text.find("never replaced"), std::string::npos) << r->stderr_text;
  EXPECT_EQ(Read(root.root() + "/tune.env"), "export MINE=1\n");
}

// A FILE that cannot be created is refused before the measurement, in the words of the write that would
// fail after it, and the probe leaves nothing behind (issue 35, attempt 98). A missing folder fails for
// root too; /proc refuses a new file even to root (Linux), as a mode-555 folder does to other users.
TEST(TuneCli, ApplyRefusesAFolderItCannotWriteBeforeMeasuring) {
  testing::SysrootBuilder root;
  std::vector<std::pair<std::string, std::string>> cases = {
      {root.root() + "/missing/tune.env", "does not exist"}};
  if (std::filesystem::is_directory("/proc/self"))
    cases.push_back({"/proc/gpudoctor-tune.env", "cannot write /proc/gpudoctor-tune.env.tmp-gpudoctor: "});
  for (const auto& [target, words] : cases) {
    ProcessRequest req;
    req.argv = {GPUDOCTOR_BINARY_PATH, "tune", "--python-env", root.root() + "/no-env", "--apply", target};
    auto r = RunProcess(req);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->exit_code, 3) << r->stderr_text;
    EXPECT_NE(r->stderr_text.find(words), std::string::npos) << r->stderr_text;
    EXPECT_EQ(r->stderr_text.find("no Python"), std::string::npos) << r->stderr_text;  // never got there
  }
  std::filesystem::create_directories(root.root() + "/ok");
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH,   "tune",    "--python-env",
              root.root() + "/no-env", "--apply", root.root() + "/ok/tune.env"};
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  EXPECT_NE(r->exit_code, 3) << r->stderr_text;  // the folder is fine: on to the (missing) Python
  EXPECT_TRUE(std::filesystem::is_empty(root.root() + "/ok"));  // the probe is gone
}

// `report --tune` reads the last release's tune file with tune's own codec and puts its section on the page.
TEST(TuneCli, ReportShowsTheLastReleasesTuneFile) {
  const std::string source = GPUDOCTOR_SOURCE_DIR;
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH,
              "report",
              "-o",
              "-",
              "--sysroot",
              source + "/tests/fixtures/sysroot/h100-sxm-server",
              "--tune",
              source + "/tests/fixtures/reports/tune-cpu-tiny-v1.json"};
  req.timeout = std::chrono::seconds(60);
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 0) << r->stderr_text;
  EXPECT_NE(r->stdout_text.find("<section id=\"tune\""), std::string::npos);
  EXPECT_NE(r->stdout_text.find("channels_last (model and input)"), std::string::npos);

  req.argv.back() = source + "/tests/fixtures/reports/bench-h200-synthetic.json";  // not a tune file
  auto wrong = RunProcess(req);
  ASSERT_TRUE(wrong.ok());
  EXPECT_EQ(wrong->exit_code, 3) << wrong->stderr_text;
}

// The new flags are checked before anything runs: a bad compile mode, an unknown model, two models of the
// user's own, a model file that is not there are exit 3 with what to give instead.
TEST(TuneCli, CompileModesAndTheUsersModelAreCheckedFirst) {
  testing::SysrootBuilder root;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--compile", "default,fast"}, "unknown mode \"fast\""},
      {{"--model", "resnet"}, "use resnet50, transformer, or MODULE:FUNCTION"},
      {{"--model", "a.b:build", "--model", "c:build"}, "one model of your own per run"},
      {{"--model", "a.b:build", "--model-file", root.root() + "/m.py"}, "one model of your own per run"},
      {{"--model-file", root.root() + "/missing.py:build"}, "no such Python file"},
  };
  for (const auto& [flags, message] : cases) {
    ProcessRequest req;
    req.argv = {GPUDOCTOR_BINARY_PATH, "tune", "--python-env", root.root() + "/no-env"};
    req.argv.insert(req.argv.end(), flags.begin(), flags.end());
    auto r = RunProcess(req);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->exit_code, 3) << flags[0] << ": " << r->stderr_text;
    EXPECT_NE(r->stderr_text.find(message), std::string::npos) << r->stderr_text;
  }
}

TEST(TuneCli, NamedEnvironmentWithoutInterpreterIsExitTwo) {
  testing::SysrootBuilder root;
  root.Mkdir("/empty-env");
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH, "tune", "--python-env", root.root() + "/empty-env"};
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->exit_code, 2) << r->stderr_text;
  EXPECT_NE(r->stderr_text.find("no Python interpreter found"), std::string::npos) << r->stderr_text;
}

}  // namespace
}  // namespace gpudoctor
