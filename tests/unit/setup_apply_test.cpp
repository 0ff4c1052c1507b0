// `gpudoctor setup --apply` (issue 36) without the network: stand-in wheels of the plan's pinned versions,
// built by tests/make_standin_wheels.py into a local folder, installed with pip into a new venv; a step that
// fails (a wheel missing from the folder) and the re-run that resumes after it; the environments setup
// refuses; the installer's command lines through a scripted runner (uv where it is not installed); the
// activation snippets; the command line end to end.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "probe/probe_inputs.h"
#include "rules_test_util.h"
#include "setup/activation_snippet.h"
#include "setup/pip_line.h"
#include "setup/setup_apply.h"
#include "setup/setup_plan.h"
#include "setup_apply_test_util.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing::BuildWheels;
using testing::FreshTempDir;
using testing::kRaphael;
using testing::kSource;
using testing::RaphaelPlan;
using testing::ReadFileText;
using testing::RunPython;
using testing::WheelSpec;

ApplyOptions Local(const stdfs::path& wheels) {
  ApplyOptions o;
  o.local_index = wheels.string();
  o.step_timeout = std::chrono::minutes(2);
  return o;
}

class SetupApply : public testing::NeedsLinuxPython {};

TEST_F(SetupApply, InstallsThePinnedWheelsIntoANewVenvAndWritesTheSnippets) {
  const stdfs::path dir = FreshTempDir("setup_apply_new");
  const SetupPlan plan = RaphaelPlan(dir / "env");
  ASSERT_EQ(plan.packages.size(), 1u);
  const PackageStep& step = plan.packages[0];
  std::vector<std::string> specs;
  for (const std::string& r : step.requirements) specs.push_back(WheelSpec(r, step.variant));
  BuildWheels(dir / "wheels", specs);
  std::vector<std::string> progress;
  ApplyOptions o = Local(dir / "wheels");
  o.progress = [&](const std::string& line) { progress.push_back(line); };

  auto outcome = ApplyPlan(plan, o, RunProcess);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  ASSERT_TRUE(outcome->ok()) << outcome->failed_step << ": " << outcome->error;
  EXPECT_EQ(outcome->done.size(), 2u);  // the venv, the install
  EXPECT_EQ(progress.size(), 3u);       // and the snippets
  EXPECT_EQ(RunPython(outcome->python, "import torch, torchvision, torchaudio; print(torch.__version__)"),
            specs[0].substr(7) + "\n");
  const std::string sh = ReadFileText(dir / "env" / "gpudoctor-activate.sh");
  EXPECT_NE(sh.find("export HIP_VISIBLE_DEVICES=0\n"), std::string::npos) << sh;
  EXPECT_NE(sh.find("/bin/activate"), std::string::npos) << sh;
  EXPECT_NE(ReadFileText(dir / "env" / "gpudoctor-activate.fish").find("set -gx HIP_VISIBLE_DEVICES '0'"),
            std::string::npos);
  EXPECT_NE(ReadFileText(dir / "env" / "gpudoctor-activate.ps1").find("$env:HIP_VISIBLE_DEVICES = \"0\""),
            std::string::npos);
}

TEST_F(SetupApply, AFailedStepStopsWithTheUndoAndTheRerunResumes) {
  const stdfs::path dir = FreshTempDir("setup_apply_resume");
  const SetupPlan plan = RaphaelPlan(dir / "env");
  const PackageStep& step = plan.packages.at(0);
  ASSERT_EQ(RequirementName(step.requirements.at(2)), "torchaudio");
  BuildWheels(dir / "wheels",
              {WheelSpec(step.requirements[0], step.variant), WheelSpec(step.requirements[1], step.variant)});

  auto first = ApplyPlan(plan, Local(dir / "wheels"), RunProcess);
  ASSERT_TRUE(first.ok()) << first.error().message;
  ASSERT_FALSE(first->ok());
  EXPECT_TRUE(first->failed_step.starts_with("install torch==")) << first->failed_step;
  EXPECT_NE(first->error.find("torchaudio"), std::string::npos) << first->error;
  EXPECT_EQ(first->done.size(), 1u);  // the venv
  ASSERT_EQ(first->undo.size(), 1u);
  EXPECT_NE(first->undo[0].find("rm -rf"), std::string::npos) << first->undo[0];
  EXPECT_FALSE(stdfs::exists(dir / "env" / "gpudoctor-activate.sh"));

  BuildWheels(dir / "wheels", {WheelSpec(step.requirements[2], step.variant)});
  auto second = ApplyPlan(plan, Local(dir / "wheels"), RunProcess);
  ASSERT_TRUE(second.ok()) << second.error().message;
  ASSERT_TRUE(second->ok()) << second->error;
  EXPECT_EQ(second->resumed.size(), 1u);  // the venv is not made again
  EXPECT_EQ(second->done.size(), 1u);     // the install
  EXPECT_EQ(RunPython(second->python, "import torchaudio; print('ok')"), "ok\n");
}

TEST_F(SetupApply, RepairReplacesACpuBuildInAnExistingVenv) {
  const stdfs::path dir = FreshTempDir("setup_apply_repair");
  PlanRequest request;
  request.mode = PlanMode::kRepair;
  request.environment = (dir / "env").string();
  const std::string phoenix = kSource + "/tests/fixtures/sysroot/phoenix-apu-laptop";
  const SetupPlan plan = PlanSetup(ProbeMachine(MakeRecordedInputs(phoenix)), testing_rules::Db(), request);
  const PackageStep& step = plan.packages.at(0);
  ASSERT_EQ(step.uninstall.size(), 3u);
  std::vector<std::string> rocm, cpu;
  for (const std::string& r : step.requirements) {
    rocm.push_back(WheelSpec(r, step.variant));
    cpu.push_back(WheelSpec(r, "cpu"));
  }
  BuildWheels(dir / "cpu", cpu);
  BuildWheels(dir / "rocm", rocm);
  // The environment as the user had it: the CPU build, installed by setup itself from the cpu folder.
  SetupPlan cpu_plan = plan;
  cpu_plan.mode = PlanMode::kNewEnvironment;
  cpu_plan.packages[0].uninstall.clear();
  cpu_plan.variables.clear();
  auto made = ApplyPlan(cpu_plan, Local(dir / "cpu"), RunProcess);
  ASSERT_TRUE(made.ok() && made->ok());
  stdfs::remove(dir / "env" / kSetupStateFile);  // now it is the user's venv, not one setup is making
  ASSERT_EQ(RunPython(made->python, "import torch; print(torch.__version__)"), cpu[0].substr(7) + "\n");

  ApplyOptions o = Local(dir / "rocm");
  o.existing = true;
  auto repaired = ApplyPlan(plan, o, RunProcess);
  ASSERT_TRUE(repaired.ok()) << repaired.error().message;
  ASSERT_TRUE(repaired->ok()) << repaired->error;
  EXPECT_EQ(repaired->done.size(), 2u);  // uninstall, install
  EXPECT_TRUE(repaired->done[0].starts_with("uninstall torch")) << repaired->done[0];
  EXPECT_EQ(RunPython(repaired->python, "import torch; print(torch.__version__)"), rocm[0].substr(7) + "\n");
}

TEST(SetupApplyRefuses, AFolderThatIsNotAVenvOrIsConda) {
  const stdfs::path dir = FreshTempDir("setup_apply_refuse");
  SetupPlan plan = RaphaelPlan(dir / "system");
  stdfs::create_directories(dir / "system" / "lib");
  ApplyOptions o;
  o.existing = true;
  auto system = ApplyPlan(plan, o, RunProcess);
  ASSERT_FALSE(system.ok());
  EXPECT_NE(system.error().message.find("not a virtual environment"), std::string::npos);
  EXPECT_NE(system.error().hint.find("--allow-foreign-env"), std::string::npos);
  EXPECT_EQ(system.error().hint.find("--installer conda"), std::string::npos) << system.error().hint;

  stdfs::create_directories(dir / "system" / "conda-meta");
  auto conda = ApplyPlan(plan, o, RunProcess);
  ASSERT_FALSE(conda.ok());
  EXPECT_NE(conda.error().message.find("conda"), std::string::npos);
  EXPECT_NE(conda.error().hint.find("--installer conda"), std::string::npos) << conda.error().hint;

  o.existing = false;  // a new environment never goes into a folder setup did not make
  auto taken = ApplyPlan(plan, o, RunProcess);
  ASSERT_FALSE(taken.ok());
  EXPECT_NE(taken.error().message.find("setup did not create it"), std::string::npos);
}

TEST(SetupApplyScripted, UvCreatesAndInstallsWithTheEnvironmentsPython) {
  const stdfs::path dir = FreshTempDir("setup_apply_uv");
  const SetupPlan plan = RaphaelPlan(dir / "env");
  std::vector<std::vector<std::string>> ran;
  ProcessRunner runner = [&](const ProcessRequest& r) -> Result<ProcessResult> {
    ran.push_back(r.argv);
    if (r.argv.size() > 1 && r.argv[1] == "venv") stdfs::create_directories(r.argv.back());
    ProcessResult ok;
    ok.exit_code = 0;
    return ok;
  };
  ApplyOptions o;
  o.installer = Installer::kUv;
  o.uv = "/opt/uv";
  auto outcome = ApplyPlan(plan, o, runner);
  ASSERT_TRUE(outcome.ok());
  ASSERT_TRUE(outcome->ok()) << outcome->error;
  ASSERT_EQ(ran.size(), 2u);
  EXPECT_EQ(ran[0],
            (std::vector<std::string>{"/opt/uv", "venv", "--python", "python3", (dir / "env").string()}));
  const std::vector<std::string> head = {"/opt/uv", "pip", "install", "--python",
                                         (dir / "env" / "bin" / "python").string()};
  EXPECT_TRUE(std::equal(head.begin(), head.end(), ran[1].begin())) << ran[1][4];
  EXPECT_EQ(ran[1][ran[1].size() - 2], "--index-url");
  EXPECT_EQ(ran[1].back(), "https://download.pytorch.org/whl/rocm7.14");
}

TEST_F(SetupApply, UvWhereItIsInstalled) {
  const char* path = std::getenv("PATH");
  std::string uv;
  for (std::string rest = path ? path : ""; !rest.empty();) {
    const size_t colon = rest.find(':');
    const std::string d = rest.substr(0, colon);
    if (!d.empty() && stdfs::exists(stdfs::path(d) / "uv")) uv = (stdfs::path(d) / "uv").string();
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
    if (!uv.empty()) break;
  }
  if (uv.empty()) GTEST_SKIP() << "uv is not on PATH";
  const stdfs::path dir = FreshTempDir("setup_apply_real_uv");
  const SetupPlan plan = RaphaelPlan(dir / "env");
  std::vector<std::string> specs;
  for (const std::string& r : plan.packages.at(0).requirements) specs.push_back(WheelSpec(r, "rocm7.14"));
  BuildWheels(dir / "wheels", specs);
  ApplyOptions o = Local(dir / "wheels");
  o.installer = Installer::kUv;
  o.uv = uv;
  auto outcome = ApplyPlan(plan, o, RunProcess);
  ASSERT_TRUE(outcome.ok()) << outcome.error().message;
  ASSERT_TRUE(outcome->ok()) << outcome->error;
  EXPECT_EQ(RunPython(outcome->python, "import torchaudio; print('ok')"), "ok\n");
}

TEST(ActivationSnippet, EachShellSetsAndUnsetsInItsOwnSyntax) {
  const std::vector<VariableStep> vars = {{"f", "HSA_OVERRIDE_GFX_VERSION", "11.0.0", false},
                                          {"f", "CUDA_VISIBLE_DEVICES", "", true},
                                          {"f", "X", "it's $HOME", false}};
  const std::string sh = ActivationSnippet(SnippetShell::kPosix, "/e/.venv/bin", vars);
  EXPECT_NE(sh.find(". /e/.venv/bin/activate\n"), std::string::npos) << sh;
  EXPECT_NE(sh.find("export HSA_OVERRIDE_GFX_VERSION=11.0.0\n"), std::string::npos) << sh;
  EXPECT_NE(sh.find("unset CUDA_VISIBLE_DEVICES\n"), std::string::npos) << sh;
  EXPECT_NE(sh.find("export X='it'\\''s $HOME'"), std::string::npos) << sh;
  const std::string fish = ActivationSnippet(SnippetShell::kFish, "/e/.venv/bin", vars);
  EXPECT_NE(fish.find("source '/e/.venv/bin/activate.fish'\n"), std::string::npos) << fish;
  EXPECT_NE(fish.find("set -e CUDA_VISIBLE_DEVICES\n"), std::string::npos) << fish;
  EXPECT_NE(fish.find("set -gx X 'it\\'s $HOME'\n"), std::string::npos) << fish;
  const std::string ps = ActivationSnippet(SnippetShell::kPowerShell, "C:\\e\\.venv\\Scripts", vars);
  EXPECT_NE(ps.find(". \"C:\\e\\.venv\\Scripts\\Activate.ps1\"\n"), std::string::npos) << ps;
  EXPECT_NE(ps.find("Remove-Item Env:CUDA_VISIBLE_DEVICES"), std::string::npos) << ps;
  EXPECT_NE(ps.find("$env:X = \"it's `$HOME\""), std::string::npos) << ps;
}

TEST(SetupCli, PlansNothingOnAHealthyMachine) {
  auto r = testing::Gpudoctor({"setup", "--sysroot", kSource + "/tests/fixtures/sysroot/h100-sxm-server"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.stdout_text.starts_with("Nothing to do")) << r.stdout_text;
}

// --apply on an existing environment where nothing is to be done changes nothing and goes on to the
// post-check, which proves the environment (here skipped with its reason: the machine is a recorded one).
TEST(SetupCli, ApplyWithNothingToDoStillReachesThePostCheck) {
  const stdfs::path dir = FreshTempDir("setup_cli_nothing");
  stdfs::create_directories(dir / "env");
  auto r = testing::Gpudoctor({"setup", "--sysroot", kSource + "/tests/fixtures/sysroot/h100-sxm-server",
                               "--apply", "--env", (dir / "env").string()});
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_TRUE(r.stdout_text.starts_with("Nothing to do")) << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("post-check skipped: the plan is of a recorded machine"), std::string::npos)
      << r.stdout_text;
  EXPECT_TRUE(stdfs::is_empty(dir / "env"));
  // Without --apply the plan alone is printed: no post-check line.
  auto plan = testing::Gpudoctor({"setup", "--sysroot", kSource + "/tests/fixtures/sysroot/h100-sxm-server",
                                  "--env", (dir / "env").string()});
  EXPECT_EQ(plan.stdout_text.find("post-check"), std::string::npos) << plan.stdout_text;
}

// --device plans for one GPU of several: its own wheel, and the variable that makes the runtime see it
// alone (its number among the vendor's GPUs in PCI order); a machine with one GPU needs no variable.
TEST(SetupCli, DeviceChoosesTheGpuAndHidesTheOthers) {
  auto igpu = testing::Gpudoctor({"setup", "--sysroot", kRaphael, "--device", "1"});
  EXPECT_EQ(igpu.exit_code, 0) << igpu.stderr_text;
  EXPECT_TRUE(igpu.stdout_text.starts_with("Plan for 0000:13:00.0")) << igpu.stdout_text;
  EXPECT_NE(igpu.stdout_text.find("device-gfx1036"), std::string::npos) << igpu.stdout_text;
  EXPECT_NE(igpu.stdout_text.find("HIP_VISIBLE_DEVICES=1   (setup.device)"), std::string::npos)
      << igpu.stdout_text;
  auto dgpu = testing::Gpudoctor({"setup", "--sysroot", kRaphael, "--device", "0000:03:00.0", "--json"});
  EXPECT_EQ(dgpu.exit_code, 0) << dgpu.stderr_text;
  const nlohmann::json doc = nlohmann::json::parse(dgpu.stdout_text, nullptr, false);
  ASSERT_TRUE(doc.is_object()) << dgpu.stdout_text;
  ASSERT_EQ(doc["variables"].size(), 1u) << dgpu.stdout_text;
  EXPECT_EQ(doc["variables"][0]["name"], "HIP_VISIBLE_DEVICES");
  EXPECT_EQ(doc["variables"][0]["value"], "0");
  EXPECT_EQ(dgpu.stdout_text.find("gfx1036"), std::string::npos) << dgpu.stdout_text;
  auto none = testing::Gpudoctor({"setup", "--sysroot", kRaphael, "--device", "7"});
  EXPECT_NE(none.exit_code, 0);
  EXPECT_NE(none.stderr_text.find("--device 7: no such GPU here"), std::string::npos) << none.stderr_text;
  EXPECT_NE(none.stderr_text.find("1 0000:13:00.0 (gfx1036)"), std::string::npos) << none.stderr_text;
  // NVIDIA: CUDA numbers the fastest GPU first unless told to follow the PCI order.
  auto third = testing::Gpudoctor(
      {"setup", "--sysroot", kSource + "/tests/fixtures/sysroot/h100-sxm-server", "--device", "2"});
  EXPECT_EQ(third.exit_code, 0);
  EXPECT_NE(third.stdout_text.find("CUDA_DEVICE_ORDER=PCI_BUS_ID"), std::string::npos) << third.stdout_text;
  EXPECT_NE(third.stdout_text.find("CUDA_VISIBLE_DEVICES=2"), std::string::npos) << third.stdout_text;
  // One GPU: the same plan as without --device, and no variable.
  const std::string desktop = kSource + "/tests/fixtures/sysroot/rtx3060-desktop";
  auto single = testing::Gpudoctor({"setup", "--sysroot", desktop, "--device", "0"});
  EXPECT_EQ(single.exit_code, 0);
  EXPECT_EQ(single.stdout_text, testing::Gpudoctor({"setup", "--sysroot", desktop}).stdout_text);
  EXPECT_EQ(single.stdout_text.find("VISIBLE_DEVICES"), std::string::npos) << single.stdout_text;
}

TEST(SetupCli, AppliesARecordedMachinesPlanFromALocalIndex) {
  if (!testing::HaveLinuxPython()) GTEST_SKIP() << "no Linux python3 here";
  const stdfs::path dir = FreshTempDir("setup_cli_apply");
  const SetupPlan plan = RaphaelPlan(dir / "env");
  std::vector<std::string> specs;
  for (const std::string& r : plan.packages.at(0).requirements) specs.push_back(WheelSpec(r, "rocm7.14"));
  BuildWheels(dir / "wheels", specs);
  auto r = testing::Gpudoctor({"setup", "--sysroot", kRaphael, "--installer", "pip", "--apply",
                               (dir / "env").string(), "--local-index", (dir / "wheels").string()},
                              std::chrono::minutes(3));
  EXPECT_EQ(r.exit_code, 0) << r.stderr_text;
  EXPECT_NE(r.stdout_text.find("wrote " + (dir / "env" / "gpudoctor-activate.sh").string()),
            std::string::npos)
      << r.stdout_text;
  EXPECT_NE(r.stdout_text.find("post-check skipped: the plan is of a recorded machine"), std::string::npos);
  EXPECT_NE(r.stderr_text.find("[2/3] install torch=="), std::string::npos) << r.stderr_text;
}

}  // namespace
}  // namespace gpudoctor
