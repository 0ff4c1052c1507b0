// `check` on every recorded machine: its text report is compared with tests/golden/<machine>.check.txt
// (`./dev.sh update-goldens` rewrites them; read the diff line by line), and the verdict an expert
// would give is asserted finding by finding, independent of wording.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "core/strings.h"
#include "golden_test_util.h"
#include "platform/filesystem.h"
#include "probe/probe_inputs.h"
#include "recorded_fixture_names.h"
#include "report/check_text.h"
#include "rules_test_util.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using namespace testing_rules;

using testing::kFixtures;
using testing::kGolden;

// Reports must not depend on where the checkout lives, the tool's version or the test host's disk.
Snapshot ProbeRecorded(const std::string& machine) {
  Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + machine));
  snap.sysroot = "tests/fixtures/sysroot/" + machine;
  snap.tool_version = "golden";
  if (!stdfs::exists(kFixtures + machine + "/.gpudoctor/disk")) {
    snap.disk.total_bytes.reset();
    snap.disk.free_bytes.reset();
  }
  return snap;
}

class CheckRecordedMachine : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckRecordedMachine, MatchesGoldenCheckReport) {
  if (GetParam() == "rx6700xt-x8-slot" && !testing::ThisBuildSeesLinks()) GTEST_SKIP() << testing::kLinkSkip;
  Snapshot snap = ProbeRecorded(GetParam());
  // The shell `check` picks for that machine: bash on Linux, PowerShell for a recorded Windows machine.
  std::string got = RenderCheckText(snap, RunRules(snap), DetectShell(snap.os.family, Environment()));
  testing::CompareWithGolden(kGolden + GetParam() + ".check.txt", got);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, CheckRecordedMachine, ::testing::ValuesIn(testing::RecordedMachineNames()),
                         testing::MachineTestName);

struct Verdict {
  const char* machine;
  Severity worst;
  std::vector<std::pair<const char*, Severity>> must;
  std::vector<const char*> must_not;
};

class CheckVerdict : public ::testing::TestWithParam<Verdict> {};

TEST_P(CheckVerdict, IsWhatAnExpertWouldSay) {
  const Verdict& v = GetParam();
  auto fs = RunRules(ProbeRecorded(v.machine));
  EXPECT_EQ(WorstSeverity(fs), v.worst) << Ids(fs);
  for (const auto& [id, sev] : v.must) {
    const Finding* f = FindId(fs, id);
    ASSERT_NE(f, nullptr) << id << " missing: " << Ids(fs);
    EXPECT_EQ(f->severity, sev) << id;
  }
  for (const char* id : v.must_not) EXPECT_FALSE(Has(fs, id)) << id << ": " << Ids(fs);
}

INSTANTIATE_TEST_SUITE_P(
    Fixtures, CheckVerdict,
    ::testing::Values(
        // RX 6700 XT, rocm6.2 wheel (no gfx1031), override 10.3.0 already set: right, say so.
        Verdict{"rx6700xt-desktop",
                Severity::kInfo,
                {{"runtime.override_ok", Severity::kOk}, {"framework.torch_via_override", Severity::kOk}},
                {"runtime.override_needed", "runtime.override_not_needed", "framework.torch_no_kernels"}},
        // MI300X with a matching wheel and ROCm 6.2.4 on LD_LIBRARY_PATH: no false alarm.
        Verdict{"mi300x-8gpu-node",
                Severity::kOk,
                {{"framework.torch_ok", Severity::kOk}, {"runtime.rocm_supports_gpu", Severity::kOk}},
                {"environment.ld_library_path_shadow", "runtime.rocm_mixed", "hardware.igpu_with_dgpu"}},
        // H100 with cu128 and driver 570: all fine.
        Verdict{"h100-sxm-server",
                Severity::kOk,
                {{"framework.torch_ok", Severity::kOk}, {"runtime.cuda_driver_ok", Severity::kOk}},
                {"runtime.cuda_driver_too_old"}},
        // nouveau where nvidia is needed.
        Verdict{"nouveau-laptop", Severity::kError, {{"runtime.driver_nouveau", Severity::kError}}, {}},
        // bob is not in render/video; the Raphael iGPU sits beside the 7900 XTX (index 0 is the dGPU).
        Verdict{
            "rx7900xtx-raphael",
            Severity::kError,
            {{"runtime.device_access", Severity::kError}, {"hardware.igpu_with_dgpu", Severity::kWarning}},
            {}},
        // Strix Halo on kernel 6.14 (< 6.18.4); gfx1151 is native in rocm7.2 wheels: no override.
        Verdict{"strix-halo-laptop",
                Severity::kWarning,
                {{"runtime.kernel_too_old", Severity::kWarning}},
                {"runtime.override_needed", "hardware.vram_low"}},
        Verdict{"vm-no-gpu", Severity::kError, {{"hardware.no_gpu", Severity::kError}}, {}},
        // Issue 29's driver-stack model. A driver upgraded without a reboot: the 570 module is loaded, the
        // libraries are 580.
        Verdict{"gtx1080-driver-upgraded",
                Severity::kError,
                {{"runtime.nvidia_library_mismatch", Severity::kError}},
                {"runtime.driver_missing"}},
        // The module is built for the running kernel but Secure Boot refuses it.
        Verdict{
            "rtx3060-secure-boot",
            Severity::kError,
            {{"runtime.nvidia_module_refused", Severity::kError}},
            {"runtime.driver_missing", "runtime.nvidia_module_not_built", "runtime.nvidia_library_mismatch"}},
        // A kernel update whose DKMS build failed: the module exists only for the previous kernel.
        Verdict{"rtx3060-new-kernel",
                Severity::kError,
                {{"runtime.nvidia_module_not_built", Severity::kError}},
                {"runtime.driver_missing", "runtime.nvidia_module_refused"}},
        // Issue 29's driver-stack model, Fabric Manager: an HGX H100 node with four NVSwitches and none.
        Verdict{
            "hgx-h100-no-fabric-manager",
            Severity::kError,
            {{"runtime.fabric_manager_missing", Severity::kError}, {"framework.torch_ok", Severity::kOk}},
            {"runtime.fabric_manager_version", "runtime.fabric_manager_disabled", "runtime.nvlsm_missing"}},
        // Fabric Manager 570.86.15 beside driver 570.124.06: it refuses to start.
        Verdict{
            "hgx-h100-fabric-manager-old",
            Severity::kError,
            {{"runtime.fabric_manager_version", Severity::kError}},
            {"runtime.fabric_manager_missing", "runtime.fabric_manager_disabled", "runtime.nvlsm_missing"}},
        // The healthy node: Fabric Manager of the driver's version, enabled; as quiet as h100-sxm-server.
        Verdict{"hgx-h100-fabric-manager",
                Severity::kOk,
                {{"framework.torch_ok", Severity::kOk}, {"runtime.cuda_driver_ok", Severity::kOk}},
                {"runtime.fabric_manager_missing", "runtime.fabric_manager_version",
                 "runtime.fabric_manager_disabled", "runtime.nvlsm_missing"}},
        // Issue 29's driver-stack model, AMD side: amdgpu-dkms's module refused by Secure Boot.
        Verdict{"rx7900xtx-dkms-secure-boot",
                Severity::kError,
                {{"runtime.amdgpu_module_refused", Severity::kError}},
                {"runtime.driver_missing", "runtime.amdgpu_module_missing", "runtime.device_access"}},
        // A kernel update without Ubuntu's linux-modules-extra: no amdgpu for the running kernel.
        Verdict{"rx7900xtx-no-modules-extra",
                Severity::kError,
                {{"runtime.amdgpu_module_missing", Severity::kError}},
                {"runtime.driver_missing", "runtime.amdgpu_module_refused"}},
        // Issue 30 item 4: RX 7800 XT (gfx1101) on torch 2.2's rocm5.7 wheel, no override set: no gfx1101
        // code; the newer wheel first, the override its fallback (CheckRecordedFixes.Rx7800XtOldWheel...).
        Verdict{"rx7800xt-old-wheel",
                Severity::kError,
                {{"framework.torch_no_kernels", Severity::kError},
                 {"runtime.override_needed", Severity::kWarning}},
                {"runtime.override_ok", "framework.torch_via_override"}},
        // Issue 30 item 6: gtx1080-desktop's GPU passed through to a KVM guest: said, and the GPU's own
        // verdicts unchanged.
        Verdict{
            "kvm-gtx1080-passthrough",
            Severity::kError,
            {{"hardware.virtual_machine", Severity::kInfo}, {"framework.torch_no_kernels", Severity::kError}},
            {"hardware.no_gpu"}},
        // Inside containers started without the GPU (issue 29): the host's GPU shows through sysfs, the
        // container lacks libcuda (NVIDIA) or /dev/kfd (AMD); the verdict is the container's, not the host
        // driver's.
        Verdict{
            "docker-gtx1080-no-gpus",
            Severity::kError,
            {{"runtime.container_gpu_not_mapped", Severity::kError}, {"runtime.driver_ok", Severity::kOk}},
            {"runtime.driver_missing"}},
        Verdict{"docker-rx6700xt-no-devices",
                Severity::kError,
                {{"runtime.container_gpu_not_mapped", Severity::kError}},
                {"runtime.kfd_missing", "runtime.device_access", "runtime.device_access_ok"}},
        // GTX 1080 (sm_61) with torch 2.7.1+cu128: its libtorch_cuda.so has no sm_61 cubin -> cu126.
        Verdict{"gtx1080-desktop",
                Severity::kError,
                {{"framework.torch_no_kernels", Severity::kError}, {"runtime.cuda_driver_ok", Severity::kOk}},
                {"framework.torch_ok", "framework.torch_ptx_only"}},
        // Phoenix APU (gfx1103) with a CPU-only torch in ./.venv: the ROCm route.
        Verdict{"phoenix-apu-laptop",
                Severity::kError,
                {{"framework.torch_cpu_only", Severity::kError}, {"framework.companions_ok", Severity::kOk}},
                {"framework.no_torch"}},
        // Issue 30: the same Phoenix with the requirements.txt that pinned the CPU torch: the same verdict.
        Verdict{"phoenix-pinned-project",
                Severity::kError,
                {{"framework.torch_cpu_only", Severity::kError}, {"framework.companions_ok", Severity::kOk}},
                {"framework.no_torch"}},
        Verdict{"phoenix-uv-project",
                Severity::kError,
                {{"framework.torch_cpu_only", Severity::kError}, {"framework.companions_ok", Severity::kOk}},
                {"framework.no_torch"}},
        // RTX 3060 (10de:2504) with the nvidia module not loaded, so no NVML (issue 13): the PCI id alone
        // gives sm_86, and the framework layer checks the wheel instead of being skipped.
        Verdict{"rtx3060-desktop",
                Severity::kError,
                {{"hardware.gpu_known", Severity::kOk},
                 {"runtime.driver_missing", Severity::kError},
                 {"framework.torch_ok", Severity::kOk}},
                // Without /lib/modules or efivarfs recorded there is nothing to say beyond "not loaded".
                {"hardware.gpu_unknown", "hardware.gpu_name_unknown", "runtime.nvidia_module_not_built",
                 "runtime.nvidia_module_refused"}},
        // RTX 5090 (Blackwell) on the proprietary kernel module of driver 580 (issue 13): only the open
        // modules drive it; the fix is the -open package of the same branch, not a newer driver.
        Verdict{
            "rtx5090-desktop",
            Severity::kError,
            {{"runtime.nvidia_needs_open_modules", Severity::kError}, {"hardware.gpu_known", Severity::kOk}},
            {"runtime.driver_branch_drops_gpu", "runtime.driver_missing"}},
        // Issue 29: xformers 0.0.28.post3 (pins torch 2.5.1) beside torch 2.6.0+cu124.
        Verdict{"rtx4090-xformers-desktop",
                Severity::kError,
                {{"addon.torch_pin_mismatch", Severity::kError}, {"framework.torch_ok", Severity::kOk}},
                {"addon.no_gpu_build", "addon.gpu_too_old", "addon.cuda_build_mismatch"}},
        // Issue 29: a bitsandbytes built without a GPU backend beside an RTX 3090.
        Verdict{"rtx3090-bnb-cpu-only",
                Severity::kError,
                {{"addon.no_gpu_build", Severity::kError}, {"framework.torch_ok", Severity::kOk}},
                {"addon.torch_pin_mismatch", "addon.cuda_build_mismatch"}},
        // Issue 29: onnxruntime-gpu 1.17.1 (CUDA 11.8 on PyPI) beside torch cu124 and the CUDA 12 wheels.
        Verdict{"rtx4070-onnxruntime-cu11",
                Severity::kWarning,
                {{"addon.cuda_build_mismatch", Severity::kWarning}, {"framework.torch_ok", Severity::kOk}},
                {"addon.cpu_package_shadows_gpu", "addon.no_gpu_build"}},
        Verdict{"wsl2-guest",
                Severity::kInfo,
                {{"hardware.wsl_gpu_paravirtual", Severity::kInfo}},
                {"hardware.no_gpu"}}),
    [](const ::testing::TestParamInfo<Verdict>& p) {
      std::string n = p.param.machine;
      std::replace(n.begin(), n.end(), '-', '_');
      return n;
    });

// The fix each issue-4 machine must get, as the user would paste it.
std::string BashFixOf(const std::vector<Finding>& fs, const std::string& id) {
  const Finding* f = FindId(fs, id);
  return f ? BashFix(*f) : "(no " + id + ": " + Ids(fs) + ")";
}

TEST(CheckRecordedFixes, ContainersWithoutTheGpuAreToldHowToPassItIn) {
  EXPECT_NE(BashFixOf(RunRules(ProbeRecorded("docker-gtx1080-no-gpus")), "runtime.container_gpu_not_mapped")
                .find("docker run --gpus all"),
            std::string::npos);
  const std::string amd =
      BashFixOf(RunRules(ProbeRecorded("docker-rx6700xt-no-devices")), "runtime.container_gpu_not_mapped");
  EXPECT_NE(amd.find("--device=/dev/kfd --device=/dev/dri"), std::string::npos) << amd;
  EXPECT_NE(amd.find("--group-add render"), std::string::npos) << amd;
  // The same machines outside a container get no such finding.
  for (const char* host : {"gtx1080-desktop", "rx6700xt-desktop"})
    EXPECT_EQ(FindId(RunRules(ProbeRecorded(host)), "runtime.container_gpu_not_mapped"), nullptr) << host;
}

// Issue 30 item 6: a virtual machine is said to be one, and it changes the advice where the host decides.
TEST(CheckRecordedFixes, VirtualMachinesAreSaidAndTheHostIsNamed) {
  auto vm = RunRules(ProbeRecorded("kvm-gtx1080-passthrough"));
  const Finding* f = FindId(vm, "hardware.virtual_machine");
  ASSERT_NE(f, nullptr) << Ids(vm);
  EXPECT_NE(f->title.find("KVM/QEMU"), std::string::npos) << f->title;
  std::string evidence;
  for (const auto& e : f->evidence) evidence += e + "\n";
  EXPECT_NE(evidence.find("hypervisor flag"), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("Standard PC (Q35 + ICH9, 2009)"), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("vGPU"), std::string::npos) << evidence;  // an NVIDIA GPU: the vGPU caveat
  // The same GPU on bare metal: no such finding.
  EXPECT_EQ(FindId(RunRules(ProbeRecorded("gtx1080-desktop")), "hardware.virtual_machine"), nullptr);
  // A VM without a GPU: the host must pass one through (not only "install the CPU build").
  auto none = RunRules(ProbeRecorded("vm-no-gpu"));
  const Finding* no_gpu = FindId(none, "hardware.no_gpu");
  ASSERT_NE(no_gpu, nullptr) << Ids(none);
  EXPECT_NE(no_gpu->fix_summary.find("pass a GPU through"), std::string::npos) << no_gpu->fix_summary;
}

// Issue 30 item 6: the narrowest link on the way to the CPU, not the GPU's own (the card's internal x16).
TEST(CheckRecordedFixes, TheSlotsLinkIsTheOneThatCounts) {
  if (!testing::ThisBuildSeesLinks()) GTEST_SKIP() << testing::kLinkSkip;
  const Snapshot snap = ProbeRecorded("rx6700xt-x8-slot");
  ASSERT_EQ(snap.pci_devices.size(), 1u);
  const PcieLink& l = snap.pci_devices[0].link;
  EXPECT_EQ(l.current_width, 16u);  // the GPU's own link: inside the card
  EXPECT_EQ(l.narrowest_port, "0000:00:01.1");
  EXPECT_EQ(l.narrowest_width, 8u);
  auto fs = RunRules(snap);
  const Finding* f = FindId(fs, "hardware.pcie_link_narrow");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->title.find("x8 of its x16"), std::string::npos) << f->title;
  EXPECT_NE(f->evidence.front().find("0000:00:01.1"), std::string::npos) << f->evidence.front();
  // The same card in a x16 slot: no finding, no narrower link.
  const Snapshot full = ProbeRecorded("rx6700xt-desktop");
  EXPECT_TRUE(full.pci_devices.at(0).link.narrowest_port.empty());
  EXPECT_EQ(FindId(RunRules(full), "hardware.pcie_link_narrow"), nullptr);
}

// Issue 30 item 5: the fix names the user the probe saw, and says when an administrator must run it.
TEST(CheckRecordedFixes, DeviceAccessNamesTheUserAndWhoMustAct) {
  auto bob = RunRules(ProbeRecorded("rx7900xtx-raphael"));  // bob is in sudo: he runs it himself
  EXPECT_NE(BashFixOf(bob, "runtime.device_access").find("sudo usermod -aG render,video bob\n"),
            std::string::npos);
  EXPECT_EQ(FindId(bob, "runtime.device_access")->fix.front().kind, FixAction::Kind::kCommand);
  auto ana = RunRules(ProbeRecorded("rx7900xtx-lab-no-sudo"));  // ana is not: labadmin must
  const Finding* f = FindId(ana, "runtime.device_access");
  ASSERT_NE(f, nullptr) << Ids(ana);
  EXPECT_NE(f->fix_summary.find("an administrator adds ana"), std::string::npos) << f->fix_summary;
  EXPECT_EQ(f->fix.front().kind, FixAction::Kind::kManual);  // the first action (JSON's too) is who must act
  EXPECT_NE(BashFix(*f).find("sudo usermod -aG render,video ana"), std::string::npos) << BashFix(*f);
  EXPECT_EQ(BashFix(*f).find("$USER"), std::string::npos) << BashFix(*f);
}

TEST(CheckRecordedFixes, Gtx1080GetsTheCu126Wheel) {
  auto fs = RunRules(ProbeRecorded("gtx1080-desktop"));
  EXPECT_NE(BashFixOf(fs, "framework.torch_no_kernels")
                .find("/home/erin/.venv/bin/python -m pip install torch torchvision torchaudio --index-url "
                      "https://download.pytorch.org/whl/cu126"),
            std::string::npos)
      << BashFixOf(fs, "framework.torch_no_kernels");
}

// Issue 13: torch 2.14's rocm7.14 wheels carry gfx1103, so the official route fits the 780M natively
// (before, only TheRock's builds did).
TEST(CheckRecordedFixes, PhoenixGetsARocmBuildForGfx1103) {
  auto fs = RunRules(ProbeRecorded("phoenix-apu-laptop"));
  std::string fix = BashFixOf(fs, "framework.torch_cpu_only");
  EXPECT_NE(fix.find("/home/greta/ai/.venv/bin/python -m pip uninstall -y torch torchvision torchaudio"),
            std::string::npos)
      << fix;
  EXPECT_NE(fix.find("--index-url https://download.pytorch.org/whl/rocm7.14"), std::string::npos) << fix;
}

// Issue 30: ~/ai/requirements.txt pins torch, torchaudio and torchvision +cpu from the CPU index (lines 5-7):
// the ROCm fix names each line and edits them first, or the next `pip install -r requirements.txt` undoes
// it; the pip commands are phoenix-apu-laptop's, unchanged.
TEST(CheckRecordedFixes, PinnedProjectNamesTheLinesAndEditsThemFirst) {
  auto pinned = RunRules(ProbeRecorded("phoenix-pinned-project"));
  const Finding* f = FindId(pinned, "framework.torch_cpu_only");
  ASSERT_NE(f, nullptr) << Ids(pinned);
  const std::string file = "/home/greta/ai/requirements.txt";
  std::string evidence;
  for (const auto& e : f->evidence) evidence += e + "\n";
  for (const char* line :
       {":5 pins `torch==2.7.1+cpu`", ":6 pins `torchaudio==2.7.1+cpu`", ":7 pins `torchvision==0.22.1+cpu`"})
    EXPECT_NE(evidence.find(file + line), std::string::npos) << line << "\n" << evidence;
  EXPECT_NE(
      evidence.find("required torch, torchvision and torchaudio from the rocm7.14 index, found " + file +
                    ":5 pins `torch==2.7.1+cpu` (index https://download.pytorch.org/whl/cpu): the next `pip "
                    "install -r requirements.txt` puts it back"),
      std::string::npos)
      << evidence;
  ASSERT_EQ(f->fix.size(), 5u);
  for (size_t i = 0; i < 3; ++i) ASSERT_EQ(f->fix[i].kind, FixAction::Kind::kManual) << i;
  EXPECT_EQ(
      f->fix[0].text,
      "edit " + file +
          " line 5 (`torch==2.7.1+cpu`): write `torch` there, and in the file's index line (--index-url or "
          "--extra-index-url) replace https://download.pytorch.org/whl/cpu with "
          "https://download.pytorch.org/whl/rocm7.14");
  // The index is one line of the file: told once.
  EXPECT_EQ(f->fix[1].text, "edit " + file + " line 6 (`torchaudio==2.7.1+cpu`): write `torchaudio` there");
  const auto unpinned = RunRules(ProbeRecorded("phoenix-apu-laptop"));
  const Finding* plain = FindId(unpinned, "framework.torch_cpu_only");
  ASSERT_NE(plain, nullptr);
  ASSERT_EQ(plain->fix.size(), 2u);
  EXPECT_EQ(f->fix[3], plain->fix[0]);
  EXPECT_EQ(f->fix[4], plain->fix[1]);
  EXPECT_TRUE(plain->fix_summary.find("requirements.txt") == std::string::npos) << plain->fix_summary;
}

// Issue 30: the same CPU torch in a uv project: pyproject.toml's [tool.uv.sources] lines (15, 18, 21) take
// the three from the CPU index and uv.lock locks them; the edit names the ROCm index on those lines, and
// `uv sync` replaces pip's commands (the venv is the project's own .venv).
TEST(CheckRecordedFixes, UvProjectEditsItsSourcesAndSyncs) {
  auto fs = RunRules(ProbeRecorded("phoenix-uv-project"));
  const Finding* f = FindId(fs, "framework.torch_cpu_only");
  ASSERT_NE(f, nullptr) << Ids(fs);
  std::string evidence;
  for (const auto& e : f->evidence) evidence += e + "\n";
  EXPECT_NE(evidence.find("/home/greta/ai/uv.lock:28 pins `version = \"2.7.1+cpu\"` (index "
                          "https://download.pytorch.org/whl/cpu): the next `uv sync` puts it back"),
            std::string::npos)
      << evidence;
  // "torch>=2.7.1" in [project] dependencies does not undo the fix by itself: not named.
  EXPECT_EQ(evidence.find("pyproject.toml:8"), std::string::npos) << evidence;
  EXPECT_EQ(BashFix(*f),
            "# edit /home/greta/ai/pyproject.toml line 15 (`{ index = \"pytorch-cpu\" },`): write `{ index = "
            "\"pytorch-rocm7.14\" },` there; define that index once: `[[tool.uv.index]] name = "
            "\"pytorch-rocm7.14\", "
            "url = \"https://download.pytorch.org/whl/rocm7.14\", explicit = true`\n"
            "# edit /home/greta/ai/pyproject.toml line 18 (`{ index = \"pytorch-cpu\" },`): write `{ index = "
            "\"pytorch-rocm7.14\" },` there\n"
            "# edit /home/greta/ai/pyproject.toml line 21 (`{ index = \"pytorch-cpu\" },`): write `{ index = "
            "\"pytorch-rocm7.14\" },` there\n"
            "uv sync --project /home/greta/ai --upgrade-package torch --upgrade-package torchvision "
            "--upgrade-package torchaudio\n");
}

// A recorded machine with its PyTorch swapped for another build (as if pip had installed it): the
// binaries are not read, so the knowledge base's record of that wheel stands in for them.
Snapshot WithTorch(Snapshot snap, const std::string& version, const std::string& cuda,
                   const std::string& hip) {
  for (auto& env : snap.python_envs) {
    if (!env.torch) continue;
    env.torch->version = version;
    env.torch->cuda = cuda;
    env.torch->hip = hip;
    env.torch->arch_list.clear();
    env.torch->gpu_code.clear();
    env.torch->kernel_libraries.clear();
  }
  return snap;
}

// Issue 13: a wheel older than the GPU's first native build. torch 2.12+rocm7.2 has no gfx1103 code
// (2.13's rocm7.1/rocm7.2 are the first). Issue 30 item 4: the fixes are ranked by data
// (overrides.toml [[fix_ranking]]): the wheel that carries gfx1103 first (the JSON's first action), then
// TheRock's nightly, and the risky 11.0.0 override last, with its caveat.
TEST(CheckRecordedFixes, PhoenixWithAWheelOlderThanItsFirstNativeBuild) {
  auto fs = RunRules(WithTorch(ProbeRecorded("phoenix-apu-laptop"), "2.12.0+rocm7.2", "", "7.2.26015"));
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->evidence.front().find("gfx1103"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->fix_summary.find("(rocm7.14)"), std::string::npos) << f->fix_summary;
  EXPECT_NE(BashFix(*f).find("download.pytorch.org/whl/rocm7.14"), std::string::npos) << BashFix(*f);
  EXPECT_EQ(BashFix(*f).find("HSA_OVERRIDE_GFX_VERSION"), std::string::npos) << BashFix(*f);
  ASSERT_EQ(f->alternatives.size(), 2u);
  EXPECT_NE(f->alternatives[0].summary.find("[nightly]"), std::string::npos) << f->alternatives[0].summary;
  const FixOption& last = f->alternatives[1];
  ASSERT_EQ(last.fix.size(), 1u);
  EXPECT_EQ(last.fix[0], FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "11.0.0"));
  EXPECT_NE(last.summary.find("only while this build stays"), std::string::npos) << last.summary;
  EXPECT_NE(last.summary.find("risky on gfx1103"), std::string::npos) << last.summary;
  // The ranking row is an expert's order, not yet compared with a source: the finding says so.
  bool ranking_named = false;
  for (const std::string& u : f->unconfirmed)
    ranking_named = ranking_named || u.rfind("overrides.toml:", 0) == 0;
  EXPECT_TRUE(ranking_named) << ::testing::PrintToString(f->unconfirmed);
}

// Issue 13: a driver below the wheel's CUDA, with both ways out. H100 on driver 570 with torch 2.11's
// cu130 wheel (needs >= 580): update the driver, or keep it and install 2.11's cu128 build.
TEST(CheckRecordedFixes, H100DriverBelowCu130GetsBothWaysOut) {
  auto fs = RunRules(WithTorch(ProbeRecorded("h100-sxm-server"), "2.11.0+cu130", "13.0", ""));
  const Finding* f = FindId(fs, "runtime.cuda_driver_too_old");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  // 580.95.05: the driver of CUDA 13.0's latest update (Update 2), which the advice recommends.
  EXPECT_NE(f->fix_summary.find("update the NVIDIA driver to 580.95.05 or newer"), std::string::npos)
      << f->fix_summary;
  EXPECT_NE(f->fix_summary.find("or keep the driver and install PyTorch 2.11 cu128"), std::string::npos)
      << f->fix_summary;
  EXPECT_NE(BashFix(*f).find("--index-url https://download.pytorch.org/whl/cu128"), std::string::npos)
      << BashFix(*f);
}

// Issue 29, Fabric Manager: the install is Ubuntu's package of the driver's branch pinned to the driver's
// exact version (a plain install takes the branch's newest), then the service enabled and started.
TEST(CheckRecordedFixes, HgxWithoutFabricManagerGetsThePackageOfTheDriversVersion) {
  auto fs = RunRules(ProbeRecorded("hgx-h100-no-fabric-manager"));
  const Finding* f = FindId(fs, "runtime.fabric_manager_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  const std::string bash = BashFix(*f);
  EXPECT_NE(bash.find("sudo apt install 'nvidia-fabricmanager-570=570.124.06-*'"), std::string::npos) << bash;
  EXPECT_NE(bash.find("sudo systemctl enable --now nvidia-fabricmanager"), std::string::npos) << bash;
  EXPECT_LT(bash.find("apt install"), bash.find("systemctl enable")) << bash;
  EXPECT_NE(f->title.find("4 NVSwitches"), std::string::npos) << f->title;
  EXPECT_NE(f->evidence.front().find("/var/lib/dpkg/status"), std::string::npos) << f->evidence.front();
}

// Fabric Manager of another version: the evidence names both versions; the fix installs the driver's and
// restarts the service (it is already enabled).
TEST(CheckRecordedFixes, HgxWithAnOlderFabricManagerGetsTheDriversVersion) {
  auto fs = RunRules(ProbeRecorded("hgx-h100-fabric-manager-old"));
  const Finding* f = FindId(fs, "runtime.fabric_manager_version");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->evidence.front().find("570.124.06"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("nvidia-fabricmanager-570 570.86.15"), std::string::npos)
      << f->evidence.front();
  const std::string bash = BashFix(*f);
  EXPECT_NE(bash.find("sudo apt install 'nvidia-fabricmanager-570=570.124.06-*'"), std::string::npos) << bash;
  EXPECT_NE(bash.find("sudo systemctl restart nvidia-fabricmanager"), std::string::npos) << bash;
}

// Issue 13: a Pascal card on the PyPI default (cu130 since torch 2.11, "pip install torch"): CUDA 13 has
// no sm_61 code and needs driver 580; cu126 of the same release fits both the card and driver 570.
TEST(CheckRecordedFixes, Gtx1080OnThePypiCu130Default) {
  auto fs = RunRules(WithTorch(ProbeRecorded("gtx1080-desktop"), "2.11.0+cu130", "13.0", ""));
  EXPECT_NE(BashFixOf(fs, "framework.torch_no_kernels").find("download.pytorch.org/whl/cu126"),
            std::string::npos)
      << BashFixOf(fs, "framework.torch_no_kernels");
  const Finding* f = FindId(fs, "runtime.cuda_driver_too_old");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->fix_summary.find("install PyTorch 2.11 cu126"), std::string::npos) << f->fix_summary;
}

// Issue 13: the RTX 5090 machine's fix is Ubuntu's -open package of the installed branch, and the
// evidence names the flavour read from /proc/driver/nvidia/version.
TEST(CheckRecordedFixes, Rtx5090OnTheProprietaryModuleGetsTheOpenPackage) {
  auto fs = RunRules(ProbeRecorded("rtx5090-desktop"));
  const Finding* f = FindId(fs, "runtime.nvidia_needs_open_modules");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->subject.find("RTX 5090"), std::string::npos) << f->subject;
  EXPECT_NE(BashFix(*f).find("sudo apt install nvidia-driver-580-open"), std::string::npos) << BashFix(*f);
  EXPECT_NE(f->evidence.front().find("proprietary"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("580.95.05"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("Blackwell"), std::string::npos) << f->evidence.front();
}

// The same machine with the open flavour loaded, or a Pascal card on the proprietary one: no such finding.
TEST(CheckRecordedFixes, OpenModulesFindingOnlyForBlackwellOnTheProprietaryModule) {
  Snapshot open = ProbeRecorded("rtx5090-desktop");
  ASSERT_EQ(open.nvidia.kernel_module, NvidiaKernelModule::kProprietary);
  open.nvidia.kernel_module = NvidiaKernelModule::kOpen;
  EXPECT_FALSE(Has(RunRules(open), "runtime.nvidia_needs_open_modules"));
  Snapshot pascal = ProbeRecorded("gtx1080-desktop");
  ASSERT_EQ(pascal.nvidia.kernel_module, NvidiaKernelModule::kProprietary);
  EXPECT_FALSE(Has(RunRules(pascal), "runtime.nvidia_needs_open_modules"));
}

// A recorded NVIDIA machine moved to Debian 12 with no driver bound (the module not loaded, no NVML).
Snapshot OnDebian12WithoutDriver(Snapshot snap) {
  snap.os.distro_id = "debian";
  snap.os.distro_version = "12";
  snap.os.distro_name = "Debian GNU/Linux 12 (bookworm)";
  for (auto& d : snap.pci_devices)
    if (d.vendor_id == 0x10de) d.driver.clear();
  for (auto& g : snap.gpus) g.driver.clear();
  snap.nvidia = NvidiaInfo{};
  return snap;
}

// Audit 2026-12-05: the RTX 5090 on Debian 12 without a driver. Debian's own nvidia-driver (R535, backports
// none newer) cannot drive Blackwell, which only the open kernel modules of R570 and later drive: the fix
// is NVIDIA's repository and its nvidia-open, with contrib enabled first, never `apt install nvidia-driver`.
TEST(CheckRecordedFixes, Rtx5090OnDebian12WithoutADriverGetsNvidiasOpenModules) {
  auto fs = RunRules(OnDebian12WithoutDriver(ProbeRecorded("rtx5090-desktop")));
  const Finding* f = FindId(fs, "runtime.driver_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  const std::string fix = BashFix(*f);
  EXPECT_EQ(fix.find("apt install nvidia-driver"), std::string::npos) << fix;
  EXPECT_NE(fix.find("R570 or newer"), std::string::npos) << fix;
  EXPECT_NE(fix.find("contrib"), std::string::npos) << fix;
  EXPECT_LT(fix.find("contrib"), fix.find("cuda-keyring")) << fix;
  EXPECT_NE(fix.find("https://developer.download.nvidia.com/compute/cuda/repos/debian12/x86_64/"
                     "cuda-keyring_1.1-1_all.deb"),
            std::string::npos)
      << fix;
  EXPECT_NE(fix.find("sudo apt install nvidia-open\n"), std::string::npos) << fix;
}

// With the proprietary module loaded on Debian 12: Debian's nvidia-open-kernel-dkms is R535 as well, so
// the open modules come from NVIDIA's repository there too.
TEST(CheckRecordedFixes, Rtx5090ProprietaryOnDebian12GetsNvidiasRepository) {
  Snapshot snap = ProbeRecorded("rtx5090-desktop");
  snap.os.distro_id = "debian";
  snap.os.distro_version = "12";
  auto fs = RunRules(snap);
  const Finding* f = FindId(fs, "runtime.nvidia_needs_open_modules");
  ASSERT_NE(f, nullptr) << Ids(fs);
  const std::string fix = BashFix(*f);
  EXPECT_EQ(fix.find("nvidia-open-kernel-dkms"), std::string::npos) << fix;
  EXPECT_NE(fix.find("repos/debian12/x86_64/cuda-keyring"), std::string::npos) << fix;
  EXPECT_NE(fix.find("sudo apt install nvidia-open\n"), std::string::npos) << fix;
}

// Issue 34: every other distribution's way to the open modules is its [[nvidia_driver_install]] row's
// open_lines (data/cuda_drivers.toml), found by os-release ID, then ID_LIKE, else the "*" row's words.
TEST(CheckRecordedFixes, OpenModulesFixFollowsTheDistributionsRow) {
  auto fix_on = [](const std::string& id, std::vector<std::string> like) {
    Snapshot snap = ProbeRecorded("rtx5090-desktop");
    snap.os.distro_id = id;
    snap.os.distro_id_like = std::move(like);
    auto fs = RunRules(snap);
    const Finding* f = FindId(fs, "runtime.nvidia_needs_open_modules");
    return f ? BashFix(*f) : "no finding: " + Ids(fs);
  };
  EXPECT_NE(fix_on("arch", {}).find("sudo pacman -Syu nvidia-open"), std::string::npos) << fix_on("arch", {});
  const std::string oracle = fix_on("ol", {"fedora"});  // Oracle Linux names Fedora as its parent
  EXPECT_NE(oracle.find("sudo dnf install nvidia-open"), std::string::npos) << oracle;
  const std::string zorin = fix_on("zorin", {"ubuntu", "debian"});  // an Ubuntu derivative by ID_LIKE
  EXPECT_NE(zorin.find("sudo apt install nvidia-driver-580-open"), std::string::npos) << zorin;
  const std::string other = fix_on("gentoo", {});
  EXPECT_NE(other.find("--kernel-module-type=open"), std::string::npos) << other;
  for (const std::string& fix : {oracle, zorin, other})
    EXPECT_NE(fix.find("Open Kernel Module"), std::string::npos) << fix;  // the reboot-and-check line
}

// The same Debian 12 with an Ampere card (RTX 3060): Debian's own driver fits it, once the non-free
// components it lives in are enabled (they are off by default).
TEST(CheckRecordedFixes, Rtx3060OnDebian12EnablesNonFreeBeforeTheDriver) {
  auto fs = RunRules(OnDebian12WithoutDriver(ProbeRecorded("rtx3060-desktop")));
  const Finding* f = FindId(fs, "runtime.driver_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  const std::string fix = BashFix(*f);
  const size_t install = fix.find("sudo apt install nvidia-driver firmware-misc-nonfree");
  ASSERT_NE(install, std::string::npos) << fix;
  EXPECT_LT(fix.find("non-free-firmware"), install) << fix;
  // NVIDIA's repository is named only as the way out when Debian's branch is too old, never run.
  EXPECT_EQ(fix.find("sudo dpkg -i cuda-keyring"), std::string::npos) << fix;
}

// Issue 13 gap 2: on a Pascal card, no advice may ask for a driver above R580, its last branch.
void ExpectNoDriverAboveR580(const std::vector<Finding>& fs) {
  for (const Finding& f : fs) {
    std::string text = f.fix_summary + "\n" + BashFix(f);
    for (const FixAction& a : f.fix) text += "\n" + a.text;
    for (size_t i = 0; i + 3 <= text.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(text[i])) ||
          (i > 0 && std::isalnum(static_cast<unsigned char>(text[i - 1]))))
        continue;
      size_t end = i;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      if (end - i != 3 || end >= text.size() || text[end] != '.') continue;  // "595.45.04", "590.xx"
      EXPECT_LE(std::stoi(text.substr(i, 3)), 580) << f.id << ": " << text;
    }
  }
}

// Driver 570 and torch 2.12+cu132 (CUDA 13.2, whose toolkit driver is 595): the update stays within R580
// (580 runs any 13.x through minor-version compatibility), and the cu126 build is the other way out.
TEST(CheckRecordedFixes, Gtx1080DriverAdviceStaysWithinR580) {
  auto fs = RunRules(WithTorch(ProbeRecorded("gtx1080-desktop"), "2.12.0+cu132", "13.2", ""));
  const Finding* f = FindId(fs, "runtime.cuda_driver_too_old");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->fix_summary.find("within the R580 branch"), std::string::npos) << f->fix_summary;
  EXPECT_EQ(f->fix_summary.find("595"), std::string::npos) << f->fix_summary;
  EXPECT_NE(f->fix_summary.find("cu126"), std::string::npos) << f->fix_summary;
  ExpectNoDriverAboveR580(fs);
}

// Driver 580.95.05 (CUDA 13.0) and torch 2.12+cu132: no R580 driver supports CUDA 13.2 fully, so the
// advice is to stay on R580 with a wheel of an older CUDA, never "update the driver".
TEST(CheckRecordedFixes, Gtx1080OnR580WithACuda132WheelIsNotToldToUpdate) {
  Snapshot snap = WithTorch(ProbeRecorded("gtx1080-desktop"), "2.12.0+cu132", "13.2", "");
  snap.nvidia.driver_version = "580.95.05";
  snap.nvidia.cuda_driver_version = 13000;
  auto fs = RunRules(snap);
  const Finding* f = FindId(fs, "runtime.cuda_driver_older_than_wheel");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->fix_summary.find("update"), std::string::npos) << f->fix_summary;
  EXPECT_NE(f->fix_summary.find("stay on R580"), std::string::npos) << f->fix_summary;
  EXPECT_NE(BashFix(*f).find("download.pytorch.org/whl/cu126"), std::string::npos) << BashFix(*f);
  EXPECT_FALSE(Has(fs, "runtime.driver_branch_drops_gpu")) << Ids(fs);
  ExpectNoDriverAboveR580(fs);
}

// The recorded machine as it is (driver 570, cu128) and on the PyPI cu130 default: no advice above R580.
TEST(CheckRecordedFixes, Gtx1080NeverToldToInstallADriverAboveR580) {
  ExpectNoDriverAboveR580(RunRules(ProbeRecorded("gtx1080-desktop")));
  ExpectNoDriverAboveR580(RunRules(WithTorch(ProbeRecorded("gtx1080-desktop"), "2.11.0+cu130", "13.0", "")));
}

// Issue 29: the add-on machines get the fix an expert would type, for the environment's own python.
TEST(CheckRecordedFixes, XformersGetsTheReleaseBuiltForTheInstalledTorch) {
  auto fs = RunRules(ProbeRecorded("rtx4090-xformers-desktop"));
  EXPECT_EQ(BashFixOf(fs, "addon.torch_pin_mismatch"),
            "/home/erin/.venv/bin/python -m pip install --no-deps \"xformers==0.0.29.post3\" --index-url "
            "https://download.pytorch.org/whl/cu124\n");
  const Finding* f = FindId(fs, "addon.torch_pin_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->evidence.front().find("required torch==2.5.1"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("found torch 2.6.0+cu124"), std::string::npos) << f->evidence.front();
}

TEST(CheckRecordedFixes, CpuOnlyBitsandbytesGetsTheWheelWithItsCudaLibraries) {
  auto fs = RunRules(ProbeRecorded("rtx3090-bnb-cpu-only"));
  EXPECT_EQ(BashFixOf(fs, "addon.no_gpu_build"),
            "/home/erin/.venv/bin/python -m pip install -U bitsandbytes\n");
  const Finding* f = FindId(fs, "addon.no_gpu_build");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->title.find("bitsandbytes 0.45.0"), std::string::npos) << f->title;
  EXPECT_NE(f->evidence.front().find("libbitsandbytes_cuda*"), std::string::npos) << f->evidence.front();
}

TEST(CheckRecordedFixes, Cuda11OnnxruntimeGetsTheCuda12Release) {
  auto fs = RunRules(ProbeRecorded("rtx4070-onnxruntime-cu11"));
  EXPECT_EQ(BashFixOf(fs, "addon.cuda_build_mismatch"),
            "/home/erin/.venv/bin/python -m pip install \"onnxruntime-gpu>=1.19,<1.27\"\n");
  const Finding* f = FindId(fs, "addon.cuda_build_mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->evidence.front().find("CUDA 11.8, cuDNN 8"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("nvidia/cuda_runtime/lib/libcudart.so.12"), std::string::npos)
      << f->evidence.front();
}

// Issue 30 item 4, on a recorded machine: the RX 7800 XT's rocm5.7 wheel lacks gfx1101, which pytorch.org's
// wheels carry from rocm6.1 on. The first fix (the JSON's first action) installs such a wheel into the user's
// environment; the 11.0.0 override follows, caveated, and nothing sets it first.
TEST(CheckRecordedFixes, Rx7800XtOldWheelGetsTheNativeWheelFirst) {
  auto fs = RunRules(ProbeRecorded("rx7800xt-old-wheel"));
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_NE(f->evidence.front().find("libtorch_hip.so"), std::string::npos) << f->evidence.front();
  ASSERT_EQ(f->fix.size(), 2u) << BashFix(*f);
  EXPECT_NE(BashFix(*f).find("pip uninstall -y torch torchvision torchaudio"), std::string::npos)
      << BashFix(*f);
  EXPECT_NE(BashFix(*f).find("--index-url https://download.pytorch.org/whl/rocm"), std::string::npos)
      << BashFix(*f);
  ASSERT_FALSE(f->alternatives.empty());
  EXPECT_EQ(f->alternatives.front().fix,
            std::vector<FixAction>{FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "11.0.0")});
  const Finding* runtime = FindId(fs, "runtime.override_needed");
  ASSERT_NE(runtime, nullptr) << Ids(fs);
  EXPECT_EQ(runtime->fix, f->fix);
}

// The RX 6700 XT machine without its HSA_OVERRIDE_GFX_VERSION: the rocm6.2 libtorch_hip.so read from the
// fixture has gfx1030 and no gfx1031, so the fix is the override, with its exact value.
TEST(CheckRecordedFixes, Rx6700XtWithoutTheOverrideGetsIt) {
  ProbeInputs in = MakeRecordedInputs(kFixtures + "rx6700xt-desktop");
  std::map<std::string, std::string> vars = in.env.All();
  vars.erase("HSA_OVERRIDE_GFX_VERSION");
  in.env = Environment(vars);
  auto fs = RunRules(ProbeMachine(in));
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(BashFix(*f), "export HSA_OVERRIDE_GFX_VERSION=10.3.0\n");
  EXPECT_NE(f->evidence.front().find("libtorch_hip.so"), std::string::npos) << f->evidence.front();
  EXPECT_TRUE(Has(fs, "runtime.override_needed")) << Ids(fs);
}

}  // namespace
}  // namespace gpudoctor
