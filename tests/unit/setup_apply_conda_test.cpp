// `setup --apply --installer conda` without conda and without the network: a stand-in `conda` the test
// writes (it records its arguments and makes a real venv at `create -p DIR`, with conda-meta/ as conda's
// own prefixes have) put on PATH, and stand-in wheels in a local folder that the environment's own pip
// installs from. A failed step and the re-run that resumes without making the environment again; the
// activation snippets that enter it with `conda activate`; the refusal when no conda is on PATH.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli_test_util.h"
#include "setup/setup_apply.h"
#include "setup/setup_plan.h"
#include "setup_apply_test_util.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing::BuildWheels;
using testing::FreshTempDir;
using testing::kRaphael;
using testing::RaphaelPlan;
using testing::ReadFileText;
using testing::RunPython;
using testing::WheelSpec;

// Writes the stand-in conda into `bin` (bin/conda; each call's arguments go to bin/conda.log, one line).
stdfs::path WriteStandInConda(const stdfs::path& bin) {
  stdfs::create_directories(bin);
  const stdfs::path conda = bin / "conda";
  std::ofstream out(conda);
  out << "#!/bin/sh\n"
         "# stand-in conda for gpudoctor's tests: records its arguments; create -p DIR makes a venv there\n"
         "printf '%s\\n' \"$*\" >> \"$(dirname \"$0\")/conda.log\"\n"
         "[ \"$1\" = create ] || { echo \"stand-in conda: only create is scripted\" >&2; exit 2; }\n"
         "prefix=''; prev=''\n"
         "for a in \"$@\"; do [ \"$prev\" = -p ] && prefix=$a; prev=$a; done\n"
         "[ -n \"$prefix\" ] || { echo 'stand-in conda: no -p DIR' >&2; exit 2; }\n"
         "/usr/bin/python3 -m venv \"$prefix\" && mkdir -p \"$prefix/conda-meta\"\n";
  out.close();
  stdfs::permissions(conda, stdfs::perms::owner_all | stdfs::perms::group_read | stdfs::perms::group_exec |
                                stdfs::perms::others_read | stdfs::perms::others_exec);
  return conda;
}

std::vector<std::string> LogLines(const stdfs::path& bin) {
  std::vector<std::string> out;
  std::ifstream in(bin / "conda.log");
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

SetupPlan CondaPlan(const stdfs::path& env) {
  return RaphaelPlan(env, "conda");
}

class SetupApplyConda : public testing::NeedsLinuxPython {};

TEST_F(SetupApplyConda, CreatesWithCondaInstallsWithItsPipAndResumesAfterAFailedStep) {
  const stdfs::path dir = FreshTempDir("setup_conda_resume");
  const SetupPlan plan = CondaPlan(dir / "env");
  ASSERT_EQ(plan.installer, "conda");
  ASSERT_FALSE(plan.python.empty());
  const PackageStep& step = plan.packages.at(0);
  ASSERT_EQ(step.requirements.size(), 3u);
  // torchaudio's wheel is missing at first: the install fails after conda made the environment.
  BuildWheels(dir / "wheels",
              {WheelSpec(step.requirements[0], step.variant), WheelSpec(step.requirements[1], step.variant)});
  ApplyOptions o;
  o.installer = Installer::kConda;
  o.conda = WriteStandInConda(dir / "bin").string();
  o.local_index = (dir / "wheels").string();
  o.step_timeout = std::chrono::minutes(2);

  auto first = ApplyPlan(plan, o, RunProcess);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_FALSE(first->ok());
  EXPECT_TRUE(first->failed_step.starts_with("install torch==")) << first->failed_step;
  EXPECT_NE(first->error.find("torchaudio"), std::string::npos) << first->error;
  ASSERT_EQ(first->done.size(), 1u);
  EXPECT_NE(first->done[0].find("(conda)"), std::string::npos) << first->done[0];
  ASSERT_EQ(first->undo.size(), 1u);
  EXPECT_NE(first->undo[0].find("rm -rf"), std::string::npos) << first->undo[0];
  EXPECT_EQ(LogLines(dir / "bin"), std::vector<std::string>{"create -y -p " + (dir / "env").string() +
                                                            " python=" + plan.python + " pip"});
  EXPECT_FALSE(stdfs::exists(dir / "env" / "gpudoctor-activate.sh"));

  BuildWheels(dir / "wheels", {WheelSpec(step.requirements[2], step.variant)});
  auto second = ApplyPlan(plan, o, RunProcess);
  ASSERT_TRUE(second.ok()) << second.error().message;
  ASSERT_TRUE(second->ok()) << second->error;
  EXPECT_EQ(second->resumed.size(), 1u) << "the environment is not made again";
  EXPECT_EQ(second->done.size(), 1u);
  EXPECT_EQ(LogLines(dir / "bin").size(), 1u) << "conda ran once, for create; pip installed the wheels";
  EXPECT_EQ(second->python, (dir / "env" / "bin" / "python").string());
  EXPECT_EQ(RunPython(second->python, "import torch, torchaudio; print(torch.__version__)"),
            WheelSpec(step.requirements[0], step.variant).substr(7) + "\n");
  const std::string sh = ReadFileText(dir / "env" / "gpudoctor-activate.sh");
  EXPECT_NE(sh.find("\nconda activate " + (dir / "env").string() + "\n"), std::string::npos) << sh;
  EXPECT_EQ(sh.find("bin/activate"), std::string::npos) << sh;
  EXPECT_NE(sh.find("export HIP_VISIBLE_DEVICES=0\n"), std::string::npos) << sh;
  EXPECT_NE(ReadFileText(dir / "env" / "gpudoctor-activate.fish").find("conda activate '"),
            std::string::npos);
  EXPECT_NE(ReadFileText(dir / "env" / "gpudoctor-activate.ps1").find("conda activate \""),
            std::string::npos);
}

TEST_F(SetupApplyConda, AnExistingCondaEnvironmentIsAdoptedOnlyWithConda) {
  const stdfs::path dir = FreshTempDir("setup_conda_existing");
  stdfs::create_directories(dir / "env" / "conda-meta");
  const SetupPlan plan = CondaPlan(dir / "env");
  std::vector<std::vector<std::string>> ran;
  ProcessRunner runner = [&](const ProcessRequest& r) -> Result<ProcessResult> {
    ran.push_back(r.argv);
    ProcessResult ok;
    ok.exit_code = 0;
    return ok;
  };
  ApplyOptions o;
  o.existing = true;
  auto pip = ApplyPlan(plan, o, runner);
  ASSERT_FALSE(pip.ok());
  EXPECT_NE(pip.error().hint.find("--installer conda"), std::string::npos) << pip.error().hint;
  o.installer = Installer::kConda;
  auto conda = ApplyPlan(plan, o, runner);
  ASSERT_TRUE(conda.ok()) << conda.error().message;
  ASSERT_TRUE(conda->ok()) << conda->error;
  ASSERT_EQ(ran.size(), 1u) << "no create: the environment exists";
  EXPECT_EQ(ran[0][0], (dir / "env" / "bin" / "python").string());
  EXPECT_EQ(ran[0][1], "-m");
  EXPECT_EQ(ran[0][2], "pip");
}

// The command line: conda found on PATH, the plan carried out from a local index.
ProcessResult SetupWithPath(const std::vector<std::string>& args, const std::string& path) {
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH};
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.timeout = std::chrono::minutes(3);
  req.extra_env["NO_COLOR"] = "1";
  req.extra_env["PATH"] = path;
  auto r = RunProcess(req);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ProcessResult{};
}

TEST_F(SetupApplyConda, CommandLineUsesTheCondaOnPath) {
  const stdfs::path dir = FreshTempDir("setup_conda_cli");
  const SetupPlan plan = CondaPlan(dir / "env");
  std::vector<std::string> specs;
  for (const std::string& r : plan.packages.at(0).requirements) specs.push_back(WheelSpec(r, "rocm7.14"));
  BuildWheels(dir / "wheels", specs);
  WriteStandInConda(dir / "bin");
  const char* inherited = std::getenv("PATH");
  auto r = SetupWithPath({"setup", "--sysroot", kRaphael, "--installer", "conda", "--apply",
                          (dir / "env").string(), "--local-index", (dir / "wheels").string()},
                         (dir / "bin").string() + ":" + (inherited ? inherited : "/usr/bin:/bin"));
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("[1/3] create the environment " + (dir / "env").string() + " (conda)"),
            std::string::npos)
      << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("[2/3] install torch=="), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("wrote " + (dir / "env" / "gpudoctor-activate.sh").string()),
            std::string::npos)
      << r.stdout_text;
  ASSERT_EQ(LogLines(dir / "bin").size(), 1u);
  EXPECT_TRUE(LogLines(dir / "bin")[0].starts_with("create -y -p " + (dir / "env").string() + " python="));
  EXPECT_EQ(RunPython((dir / "env" / "bin" / "python").string(), "import torchvision; print('ok')"), "ok\n");
}

TEST(SetupApplyCondaRefuses, NoCondaOnPath) {
  const stdfs::path dir = FreshTempDir("setup_conda_missing");
  stdfs::create_directories(dir / "empty-bin");
  auto r = SetupWithPath(
      {"setup", "--sysroot", kRaphael, "--installer", "conda", "--apply", (dir / "env").string()},
      (dir / "empty-bin").string());
  EXPECT_EQ(r.exit_code, 3) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("no conda on PATH"), std::string::npos) << r.stderr_text;
  EXPECT_NE(r.stderr_text.find("--installer pip"), std::string::npos) << r.stderr_text;
  EXPECT_FALSE(stdfs::exists(dir / "env"));
  // Without --apply the plan is printed: conda is not needed to plan.
  auto plan =
      SetupWithPath({"setup", "--sysroot", kRaphael, "--installer", "conda"}, (dir / "empty-bin").string());
  EXPECT_EQ(plan.exit_code, 0) << plan.stderr_text;
  EXPECT_NE(plan.stdout_text.find("conda create -y -p .conda python="), std::string::npos)
      << plan.stdout_text;
}

}  // namespace
}  // namespace gpudoctor
