// Fixes against the user's project pins (rules/pinned_fixes.h, issue 30 item 5): a torch swap or an add-on
// fix that a pinned line would undo names that line (file:line and its text), starts with a step to edit it,
// and runs uv's, poetry's or conda's own command where those manage the project; a project whose pins do
// not stand in the way, and an environment without one, keep the fix exactly as it was.
#include <gtest/gtest.h>

#include "rules/pinned_fixes.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

// An RTX 4090 with a CPU-only torch in `prefix`.
Snapshot CpuTorch(const std::string& prefix = "/home/u/proj/.venv", const std::string& kind = "venv") {
  Snapshot s = Linux();
  AddNvidia(s, kRtx4090, 8, 9);
  AddTorch(s, "2.7.1+cpu");
  PythonEnv& env = s.python_envs.front();
  env.path = prefix;
  env.kind = kind;
  env.site_packages = prefix + "/lib/python3.12/site-packages";
  env.torch->location = env.site_packages + "/torch";
  return s;
}

ProjectPin Pin(const std::string& file, uint32_t line, const std::string& text, const std::string& package,
               const std::string& spec, const std::string& index = "") {
  return ProjectPin{file, line, text, package, spec, "", index};
}

void SetProject(Snapshot& s, const std::string& manager, std::vector<ProjectPin> pins) {
  PythonProject p;
  p.folder = "/home/u/proj";
  p.manager = manager;
  for (const auto& pin : pins) p.files.push_back(pin.file);
  p.pins = std::move(pins);
  s.python_envs.front().project = p;
}

const Finding& CpuOnly(const std::vector<Finding>& fs) {
  const Finding* f = FindId(fs, "framework.torch_cpu_only");
  EXPECT_NE(f, nullptr) << Ids(fs);
  static const Finding kNone;
  return f ? *f : kNone;
}

const std::string kCpuIndex = "https://download.pytorch.org/whl/cpu";

TEST(ProjectPinRules, RequirementsPinIsNamedAndItsEditComesFirst) {
  const auto plain = RunRules(CpuTorch());
  const Finding& before = CpuOnly(plain);
  ASSERT_EQ(before.fix.size(), 2u);
  const std::string index = IndexUrlOf(before.fix[1].commands.bash);
  ASSERT_FALSE(index.empty()) << before.fix[1].commands.bash;
  const std::string variant = index.substr(index.rfind('/') + 1);

  Snapshot s = CpuTorch();
  SetProject(
      s, "pip",
      {Pin("/home/u/proj/requirements.txt", 3, "torch==2.7.1+cpu", "torch", "==2.7.1+cpu", kCpuIndex),
       Pin("/home/u/proj/requirements.txt", 4, "torchvision>=0.20", "torchvision", ">=0.20", kCpuIndex)});
  const auto fs = RunRules(s);
  const Finding& f = CpuOnly(fs);
  EXPECT_NE(Evidence(f).find("required torch, torchvision and torchaudio from the " + variant +
                             " index, found /home/u/proj/requirements.txt:3 pins `torch==2.7.1+cpu` (index " +
                             kCpuIndex + "): the next `pip install -r requirements.txt` puts it back"),
            std::string::npos)
      << Evidence(f);
  // torchvision>=0.20 from the CPU index is still another index than the fix's: named too.
  EXPECT_NE(Evidence(f).find("requirements.txt:4"), std::string::npos) << Evidence(f);
  ASSERT_EQ(f.fix.size(), 4u);
  EXPECT_EQ(f.fix[0].kind, FixAction::Kind::kManual);
  EXPECT_EQ(f.fix[0].text,
            "edit /home/u/proj/requirements.txt line 3 (`torch==2.7.1+cpu`): write `torch` there, and in the "
            "file's index line (--index-url or --extra-index-url) replace " +
                kCpuIndex + " with " + index);
  EXPECT_EQ(f.fix[1].kind, FixAction::Kind::kManual);
  // pip stays pip: the same two commands after the edits.
  EXPECT_EQ(f.fix[2], before.fix[0]);
  EXPECT_EQ(f.fix[3], before.fix[1]);
  EXPECT_NE(f.fix_summary.find("first change the project's pin (requirements.txt:3)"), std::string::npos)
      << f.fix_summary;
}

TEST(ProjectPinRules, PinsThatDoNotUndoTheFixChangeNothing) {
  const Finding before = CpuOnly(RunRules(CpuTorch()));
  Snapshot s = CpuTorch();
  // No index, no exact version, no local build: the next `pip install -r` keeps the new torch.
  SetProject(s, "pip", {Pin("/home/u/proj/requirements.txt", 1, "torch>=2.5", "torch", ">=2.5")});
  EXPECT_EQ(CpuOnly(RunRules(s)), before);
  Snapshot none = CpuTorch();
  none.python_envs.front().project =
      PythonProject{"/home/u/proj", "pip", {"/home/u/proj/requirements.txt"}, {}};
  EXPECT_EQ(CpuOnly(RunRules(none)), before);
}

TEST(ProjectPinRules, UvProjectGetsTheIndexEditAndUvSync) {
  Snapshot s = CpuTorch();
  SetProject(
      s, "uv",
      {Pin("/home/u/proj/pyproject.toml", 14, "torch = { index = \"pytorch-cpu\" }", "torch", "", kCpuIndex),
       Pin("/home/u/proj/uv.lock", 120, "version = \"2.7.1+cpu\"", "torch", "==2.7.1+cpu", kCpuIndex)});
  const auto fs = RunRules(s);
  const Finding& f = CpuOnly(fs);
  EXPECT_NE(Evidence(f).find("pyproject.toml:14 pins `torch = { index = \"pytorch-cpu\" }`"),
            std::string::npos);
  EXPECT_NE(Evidence(f).find("uv.lock:120 pins `version = \"2.7.1+cpu\"` (index " + kCpuIndex +
                             "): the next `uv sync` puts it back"),
            std::string::npos)
      << Evidence(f);
  ASSERT_GE(f.fix.size(), 2u);
  ASSERT_EQ(f.fix[0].kind, FixAction::Kind::kManual);  // the lock is rewritten by uv, not by hand
  EXPECT_NE(f.fix[0].text.find("edit /home/u/proj/pyproject.toml line 14"), std::string::npos)
      << f.fix[0].text;
  EXPECT_NE(f.fix[0].text.find("write `torch = { index = \"pytorch-"), std::string::npos) << f.fix[0].text;
  EXPECT_NE(f.fix[0].text.find("; define that index once: `[[tool.uv.index]] name = \"pytorch-"),
            std::string::npos)
      << f.fix[0].text;
  EXPECT_NE(f.fix[0].text.find("explicit = true`"), std::string::npos) << f.fix[0].text;
  const std::string fix = BashFix(f);
  EXPECT_EQ(fix.find("-m pip"), std::string::npos) << fix;
  EXPECT_NE(fix.find("\nuv sync --project /home/u/proj --upgrade-package torch --upgrade-package torchvision "
                     "--upgrade-package torchaudio\n"),
            std::string::npos)
      << fix;
  EXPECT_EQ(f.fix[1].commands.powershell,
            "uv sync --project \"/home/u/proj\" --upgrade-package torch --upgrade-package torchvision "
            "--upgrade-package torchaudio");
}

// Only uv.lock holds torch (pyproject.toml's "torch" names no source): `uv sync` alone would lock PyPI's
// again, so a source for it comes first.
TEST(ProjectPinRules, UvLockOnlyPinGetsASourceFirst) {
  Snapshot s = CpuTorch();
  SetProject(s, "uv",
             {Pin("/home/u/proj/uv.lock", 30, "version = \"2.7.1\"", "torch", "==2.7.1",
                  "https://pypi.org/simple")});
  const auto fs = RunRules(s);
  const Finding& f = CpuOnly(fs);
  ASSERT_GE(f.fix.size(), 2u);
  ASSERT_EQ(f.fix[0].kind, FixAction::Kind::kManual);
  EXPECT_NE(
      f.fix[0].text.find("in /home/u/proj/pyproject.toml take torch from https://download.pytorch.org/whl/"),
      std::string::npos)
      << f.fix[0].text;
  EXPECT_NE(f.fix[0].text.find("under [tool.uv.sources]; define that index once"), std::string::npos)
      << f.fix[0].text;
  EXPECT_EQ(f.fix[1].kind, FixAction::Kind::kCommand);
  EXPECT_NE(f.fix[1].commands.bash.find("uv sync --project /home/u/proj"), std::string::npos);
}

TEST(ProjectPinRules, UvProjectOfAnotherEnvironmentKeepsPip) {
  Snapshot s = CpuTorch("/home/u/.venv");
  SetProject(s, "uv",
             {Pin("/home/u/proj/uv.lock", 9, "version = \"2.7.1+cpu\"", "torch", "==2.7.1+cpu", kCpuIndex)});
  const auto fs = RunRules(s);
  const Finding& f = CpuOnly(fs);
  EXPECT_NE(Evidence(f).find("uv.lock:9"), std::string::npos);
  EXPECT_NE(BashFix(f).find("/home/u/.venv/bin/python -m pip install torch"), std::string::npos)
      << BashFix(f);
  EXPECT_EQ(BashFix(f).find("uv sync"), std::string::npos) << BashFix(f);
}

TEST(ProjectPinRules, PoetryProjectGetsPoetryUpdate) {
  Snapshot s = CpuTorch();
  SetProject(
      s, "poetry",
      {Pin("/home/u/proj/pyproject.toml", 9, "torch = { version = \"2.1.0+cpu\", source = \"pytorch\" }",
           "torch", "==2.1.0+cpu", kCpuIndex)});
  const auto fs = RunRules(s);
  const Finding& f = CpuOnly(fs);
  ASSERT_EQ(f.fix[0].kind, FixAction::Kind::kManual);
  EXPECT_NE(f.fix[0].text.find("`torch = { version = \"*\", source = \"pytorch-"), std::string::npos)
      << f.fix[0].text;
  EXPECT_NE(f.fix[0].text.find("priority = \"explicit\""), std::string::npos) << f.fix[0].text;
  const std::string fix = BashFix(f);
  EXPECT_EQ(fix.find("-m pip"), std::string::npos) << fix;
  EXPECT_NE(fix.find("poetry --directory /home/u/proj update torch torchvision torchaudio\n"),
            std::string::npos)
      << fix;
  EXPECT_NE(Evidence(f).find("the next `poetry install` puts it back"), std::string::npos) << Evidence(f);
}

TEST(ProjectPinRules, CondaEnvironmentFileGetsCondaEnvUpdate) {
  Snapshot s = CpuTorch("/home/u/miniconda3/envs/ml", "conda");
  SetProject(s, "conda", {Pin("/home/u/proj/environment.yml", 8, "- cpuonly", "torch", "cpuonly")});
  const auto fs = RunRules(s);
  const Finding& f = CpuOnly(fs);
  ASSERT_EQ(f.fix[0].kind, FixAction::Kind::kManual);
  EXPECT_NE(
      f.fix[0].text.find("edit /home/u/proj/environment.yml line 8 (`- cpuonly`): delete the line and list "
                         "`torch` among the file's `- pip:` entries, with `- --index-url https://"),
      std::string::npos)
      << f.fix[0].text;
  EXPECT_NE(BashFix(f).find(
                "conda env update --prefix /home/u/miniconda3/envs/ml --file /home/u/proj/environment.yml "
                "--prune\n"),
            std::string::npos)
      << BashFix(f);
  EXPECT_EQ(BashFix(f).find("-m pip"), std::string::npos) << BashFix(f);
}

TEST(ProjectPinRules, AddonFixNamesItsPin) {
  Snapshot s = CpuTorch("/home/u/.venv");
  s.python_envs.front().torch->version = "2.6.0+cu124";
  s.python_envs.front().torch->cuda = "12.4";
  FrameworkInstall bnb;
  bnb.name = "bitsandbytes";
  bnb.version = "0.45.0";
  s.python_envs.front().frameworks.push_back(bnb);
  SetProject(s, "pip",
             {Pin("/home/u/proj/requirements.txt", 2, "bitsandbytes==0.45.0", "bitsandbytes", "==0.45.0")});
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "addon.no_gpu_build");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(Evidence(*f).find("found /home/u/proj/requirements.txt:2 pins `bitsandbytes==0.45.0`"),
            std::string::npos)
      << Evidence(*f);
  EXPECT_EQ(
      BashFix(*f),
      "# edit /home/u/proj/requirements.txt line 2 (`bitsandbytes==0.45.0`): write `bitsandbytes` there\n"
      "/home/u/.venv/bin/python -m pip install -U bitsandbytes\n");
}

TEST(ProjectPinRules, CompanionReinstallNamesAnOldSeriesPin) {
  Snapshot s = CpuTorch("/home/u/.venv");
  s.python_envs.front().torch->version = "2.7.1+cu126";
  s.python_envs.front().torch->cuda = "12.6";
  FrameworkInstall tv;
  tv.name = "torchvision";
  tv.family = "torchvision";
  tv.version = "0.21.0+cu126";
  s.python_envs.front().frameworks.push_back(tv);
  SetProject(s, "pip",
             {Pin("/home/u/proj/requirements.txt", 4, "torchvision==0.21.0", "torchvision", "==0.21.0"),
              Pin("/home/u/proj/requirements.txt", 5, "torch==2.7.1", "torch", "==2.7.1")});
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "framework.torchvision_mismatch");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(Evidence(*f).find("requirements.txt:4 pins `torchvision==0.21.0`"), std::string::npos)
      << Evidence(*f);
  EXPECT_EQ(Evidence(*f).find("requirements.txt:5"), std::string::npos)
      << "torch is not what this fix installs";
  ASSERT_EQ(f->fix.size(), 2u);
  EXPECT_NE(f->fix[0].text.find("write `torchvision==0.22.*` there"), std::string::npos) << f->fix[0].text;
}

struct InTheWay {
  ProjectPin pin;
  FixInstall install;
  bool expected;
};

TEST(ProjectPinRules, WhichPinsStandInTheWay) {
  const FixInstall rocm{"torch", "torch", "https://download.pytorch.org/whl/rocm6.4", "rocm6.4", ""};
  const FixInstall exact{"xformers", "xformers==0.0.29.post3", "", "", "0.0.29.post3"};
  const FixInstall remove{"flash-attn", "", "", "", ""};
  const FixInstall series{"torchvision", "torchvision==0.22.*", "", "", "0.22.*"};
  const std::vector<InTheWay> cases = {
      {Pin("r", 1, "", "torch", "==2.7.1+cpu"), rocm, true},      // another build
      {Pin("r", 1, "", "torch", "==2.7.1+rocm6.4"), rocm, true},  // an exact older release
      {Pin("r", 1, "", "torch", ">=2.5", "https://download.pytorch.org/whl/rocm6.4/"), rocm, false},
      {Pin("r", 1, "", "torch", ">=2.5", kCpuIndex), rocm, true},                   // another index
      {Pin("r", 1, "", "torch", "@ https://x/torch-2.5.1-cp312.whl"), rocm, true},  // a URL
      {Pin("r", 1, "", "torch", "pytorch-cuda=12.1"), rocm, true},                  // a conda build selector
      {Pin("r", 1, "", "torch", ""), rocm, false},
      {Pin("r", 1, "", "torchvision", "==0.22.1+cpu"), rocm, false},  // another package
      {Pin("r", 1, "", "xformers", "==0.0.29.post3"), exact, false},
      {Pin("r", 1, "", "xformers", "==0.0.28.post3"), exact, true},
      {Pin("r", 1, "", "flash-attn", ">=2"), remove, true},
      {Pin("r", 1, "", "torchvision", "==0.22.1"), series, false},  // within the series the fix installs
      {Pin("r", 1, "", "torchvision", "==0.21.0"), series, true},
      {Pin("r", 1, "", "torchvision", "==0.221.0"), series, true},
  };
  for (const auto& c : cases)
    EXPECT_EQ(PinInTheWay(c.pin, c.install), c.expected)
        << c.pin.package << " " << c.pin.spec << " against " << c.install.package << " " << c.install.write;
}

TEST(ProjectPinRules, IndexOfACommand) {
  EXPECT_EQ(IndexUrlOf("python3 -m pip install torch --index-url https://i/x --no-deps"), "https://i/x");
  EXPECT_EQ(IndexUrlOf("pip install vllm --extra-index-url https://i/y"), "https://i/y");
  EXPECT_EQ(IndexUrlOf("pip install -U bitsandbytes"), "");
}

}  // namespace
}  // namespace gpudoctor
