// `setup --repair` lists each step once: two findings whose fixes cite the same project pin give that edit
// once, the same add-on fix from two findings is one install, and a fix reinstalling what the torch step
// already installs (the old torch's torchvision beside the torch being replaced) adds nothing.
#include <gtest/gtest.h>

#include <set>

#include "probe/probe_inputs.h"
#include "rules_test_util.h"
#include "setup/setup_plan.h"
#include "setup/setup_render.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

using testing::kFixtures;
using testing_rules::Db;

FixAction Bash(const std::string& line) {
  FixAction a;
  a.kind = FixAction::Kind::kCommand;
  a.commands.bash = line;
  return a;
}

FixAction Manual(const std::string& text) {
  FixAction a;
  a.kind = FixAction::Kind::kManual;
  a.text = text;
  return a;
}

Finding Problem(const std::string& id, std::vector<FixAction> fix) {
  Finding f;
  f.id = id;
  f.severity = Severity::kError;
  f.title = id;
  f.fix = std::move(fix);
  return f;
}

const char kPin[] =
    "edit /home/greta/ai/requirements.txt line 7 (`torchvision==0.22.1+cpu`): write `torchvision` there";
const char kEnvPython[] = "/home/greta/ai/.venv/bin/python -m pip ";

SetupPlan Repair(const std::vector<Finding>& findings) {
  const Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + "phoenix-pinned-project"));
  PlanRequest request;
  request.mode = PlanMode::kRepair;
  return PlanFromFindings(snap, Db(), findings, request);
}

std::vector<Finding> CpuTorchWithMismatchedTorchvision() {
  const std::string rocm = " --index-url https://download.pytorch.org/whl/rocm7.14";
  Finding cpu =
      Problem("framework.torch_cpu_only",
              {Manual(kPin), Bash(std::string(kEnvPython) + "uninstall -y torch torchvision torchaudio"),
               Bash(std::string(kEnvPython) + "install torch torchvision torchaudio" + rocm)});
  Finding companion =
      Problem("framework.companion_mismatch",
              {Manual(kPin), Bash(std::string(kEnvPython) +
                                  "install --force-reinstall --no-deps \"torchvision==0.22.*\" --index-url "
                                  "https://download.pytorch.org/whl/cpu")});
  Finding bnb1 = Problem("addon.no_gpu_build", {Bash(std::string(kEnvPython) + "install -U bitsandbytes")});
  Finding bnb2 =
      Problem("addon.cuda_build_mismatch", {Bash(std::string(kEnvPython) + "install -U bitsandbytes")});
  return {cpu, companion, bnb1, bnb2};
}

TEST(SetupRepairDedupe, EachManualLineOnce) {
  const SetupPlan plan = Repair(CpuTorchWithMismatchedTorchvision());
  size_t pins = 0;
  for (const ManualStep& m : plan.manual)
    for (const std::string& l : m.lines) pins += l == kPin;
  EXPECT_EQ(pins, 1u) << RenderPlanText(plan);
  const std::string text = RenderPlanText(plan);
  EXPECT_EQ(text.find(kPin), text.rfind(kPin)) << text;
}

TEST(SetupRepairDedupe, EachPackageInstalledByOneStep) {
  const SetupPlan plan = Repair(CpuTorchWithMismatchedTorchvision());
  ASSERT_EQ(plan.packages.size(), 2u) << RenderPlanText(plan);
  EXPECT_EQ(plan.packages[0].finding, "framework.torch_cpu_only");
  EXPECT_EQ(plan.packages[0].variant, "rocm7.14");
  EXPECT_EQ(plan.packages[1].requirements, std::vector<std::string>{"bitsandbytes"});
  std::multiset<std::string> names;
  for (const PackageStep& p : plan.packages)
    for (const std::string& r : p.requirements) names.insert(r.substr(0, r.find_first_of("=[")));
  for (const std::string& n : names) EXPECT_EQ(names.count(n), 1u) << n << " in " << RenderPlanText(plan);
  EXPECT_EQ(RenderPlanText(plan).find("whl/cpu"), std::string::npos)
      << "the old torch's torchvision must not come back after the ROCm torch";
}

TEST(SetupRepairDedupe, RecordedRepairPlansRepeatNoLine) {
  for (const char* name : {"phoenix-pinned-project", "rtx4090-xformers-desktop", "rtx3090-bnb-cpu-only",
                           "rtx4070-onnxruntime-cu11", "phoenix-uv-project"}) {
    const Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + name));
    PlanRequest request;
    request.mode = PlanMode::kRepair;
    const SetupPlan plan = PlanSetup(snap, Db(), request);
    std::set<std::string> seen;
    for (const ManualStep& m : plan.manual)
      for (const std::string& l : m.lines) EXPECT_TRUE(seen.insert(l).second) << name << ": " << l;
    std::set<std::string> installs;
    for (const PackageStep& p : plan.packages)
      EXPECT_TRUE(installs.insert(PipArguments(p)).second) << name << ": " << PipArguments(p);
  }
}

}  // namespace
}  // namespace gpudoctor
