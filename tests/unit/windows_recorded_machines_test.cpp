// The recorded Windows machines (tests/fixtures/sysroot/win*): the facts their READMEs name, read
// through the recorded registry, DXGI and file versions, and the verdict and PowerShell (and cmd) fix
// an expert would give each — asserted line by line, independent of the report's wording elsewhere.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "rules/shell.h"
#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

using testing::kGiB;

Snapshot ProbeWindowsRecorded(const std::string& machine) {
  ProbeInputs in =
      MakeRecordedInputs(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/" + machine, &Db());
  EXPECT_TRUE(in.warnings.empty()) << machine << ": " << (in.warnings.empty() ? "" : in.warnings.front());
  EXPECT_NE(in.windows, nullptr) << machine;
  return ProbeMachine(in);
}

std::vector<std::string> Lines(const Finding& f, Shell shell) {
  std::vector<std::string> out;
  for (const auto& line : RenderFix(f.fix, shell)) out.push_back((line.command ? "" : "# ") + line.text);
  return out;
}

const RuntimeInstall* RuntimeWithFile(const Snapshot& s, const std::string& kind, const std::string& file) {
  for (const auto& r : s.runtimes)
    if (r.kind == kind && r.path.size() >= file.size() &&
        r.path.compare(r.path.size() - file.size(), file.size(), file) == 0)
      return &r;
  return nullptr;
}

TEST(WindowsRecordedMachine, Rx6700XtOnWindows10Facts) {
  Snapshot s = ProbeWindowsRecorded("win10-rx6700xt");
  EXPECT_EQ(s.os.family, OsFamily::kWindows);
  EXPECT_EQ(s.os.windows_build, 19044u);
  EXPECT_EQ(s.os.distro_name, "Windows 10 Pro 21H2 (build 19044.2846)");
  EXPECT_EQ(s.windows.windows11, false);
  EXPECT_EQ(s.cpu.logical_cores, 12u);
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.pci_address, "0000:03:00.0");
  EXPECT_EQ(g.architecture, "gfx1031");
  EXPECT_EQ(g.name, "Radeon RX 6700 XT");
  EXPECT_EQ(g.integrated, false);
  EXPECT_EQ(g.vram_bytes, 12243ull << 20);
  ASSERT_EQ(s.pci_devices.size(), 1u);  // the card's HD audio function (class MEDIA) is not a GPU
  EXPECT_EQ(s.pci_devices[0].subsystem_vendor_id, 0x148cu);
  EXPECT_EQ(s.windows.adapters[0].release, "Adrenalin 24.12.1");
  ASSERT_NE(RuntimeWithFile(s, "hip-runtime", "amdhip64_6.dll"), nullptr);
  ASSERT_NE(RuntimeWithFile(s, "hip-sdk", "5.7"), nullptr);
  EXPECT_EQ(s.environment.at("HSA_OVERRIDE_GFX_VERSION"), "10.3.0");
}

TEST(WindowsRecordedMachine, Rx6700XtOnWindows10Verdict) {
  auto fs = RunRules(ProbeWindowsRecorded("win10-rx6700xt"));
  // No official wheel: TheRock's gfx103X build, ZLUDA, DirectML; WSL2's ROCm does not list gfx1031; no
  // override.
  const Finding* plan = FindId(fs, "windows.amd_therock");
  ASSERT_NE(plan, nullptr) << Ids(fs);
  EXPECT_EQ(plan->severity, Severity::kInfo);
  EXPECT_NE(plan->title.find("gfx103X"), std::string::npos) << plan->title;
  std::string evidence;
  for (const auto& e : plan->evidence) evidence += e + "\n";
  EXPECT_NE(evidence.find("ROCm on WSL2 does not list gfx1031"), std::string::npos) << evidence;
  EXPECT_NE(evidence.find("ZLUDA"), std::string::npos);
  EXPECT_NE(evidence.find("inference only"), std::string::npos);
  EXPECT_EQ(Lines(*plan, Shell::kPowerShell),
            (std::vector<std::string>{
                "py -3.10 -m venv \"$env:USERPROFILE\\venv-rocm\"",
                "& \"$env:USERPROFILE\\venv-rocm\\Scripts\\python.exe\" -m pip install --index-url "
                "https://rocm.nightlies.amd.com/whl-multi-arch/ \"torch[device-gfx1031]\" "
                "\"torchvision[device-gfx1031]\" "
                "torchaudio"}));
  EXPECT_EQ(Lines(*plan, Shell::kCmd)[0], "py -3.10 -m venv \"%USERPROFILE%\\venv-rocm\"");
  // The override set from a Linux guide: it does nothing here, and nothing advises it.
  const Finding* override = FindId(fs, "environment.override_windows");
  ASSERT_NE(override, nullptr);
  EXPECT_EQ(Lines(*override, Shell::kPowerShell),
            (std::vector<std::string>{"Remove-Item Env:HSA_OVERRIDE_GFX_VERSION"}));
  for (const auto& f : fs) {
    for (const auto& a : f.fix)
      EXPECT_FALSE(a.kind == FixAction::Kind::kSetEnv && a.name == "HSA_OVERRIDE_GFX_VERSION") << f.id;
  }
  EXPECT_FALSE(Has(fs, "runtime.override_needed"));
  EXPECT_FALSE(Has(fs, "windows.amd_wheels_blocked"));
  // HIP SDK 5.7 lists gfx1031 as runtime-only: no complaint.
  EXPECT_FALSE(Has(fs, "windows.hip_sdk_gpu"));
  EXPECT_EQ(FindId(fs, "windows.amd_driver")->severity, Severity::kOk);
}

TEST(WindowsRecordedMachine, Rx7900XtxWithPython311Facts) {
  Snapshot s = ProbeWindowsRecorded("win11-rx7900xtx-py311");
  EXPECT_EQ(s.os.distro_name, "Windows 11 Pro 23H2 (build 22631.4317)");
  EXPECT_EQ(s.windows.windows11_22h2_or_newer, true);
  ASSERT_EQ(s.gpus.size(), 2u);
  EXPECT_EQ(s.gpus[0].architecture, "gfx1100");
  EXPECT_EQ(s.gpus[0].vram_bytes, 24560ull << 20);
  EXPECT_EQ(s.gpus[1].architecture, "gfx1036");
  EXPECT_EQ(s.gpus[1].integrated, true);
  // The GTX 1070 that was in this machine left its driver key (0000) behind: not a GPU now.
  for (const auto& a : s.windows.adapters)
    EXPECT_EQ(a.driver_description.find("GTX 1070"), std::string::npos);
  ASSERT_EQ(s.windows.python_installs.size(), 1u);
  EXPECT_EQ(s.windows.python_installs[0].version, "3.11");
  EXPECT_EQ(s.windows.python_installs[0].kind, "python.org");
  ASSERT_EQ(s.windows.wsl_distros.size(), 1u);
  EXPECT_EQ(s.windows.wsl_distros[0].name, "Ubuntu-22.04");
  EXPECT_EQ(s.windows.hypervisor_present, true);
  ASSERT_NE(RuntimeWithFile(s, "hip-runtime", "amdhip64_7.dll"), nullptr);
}

// Issue 13: AMD's Windows wheels are now ROCm 10's (stable.repo.amd.com whl-next, torch[device-gfx]),
// built for Python 3.10-3.14: the 3.11 that is there serves (the ROCm 7.2 wheels needed 3.12).
TEST(WindowsRecordedMachine, Rx7900XtxWithPython311GetsTheRocm10Wheels) {
  auto fs = RunRules(ProbeWindowsRecorded("win11-rx7900xtx-py311"));
  const Finding* f = FindId(fs, "windows.amd_wheels_ready");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(f->title, "AMD's Windows PyTorch wheels fit gfx1100 and this machine meets their needs");
  EXPECT_NE(std::find(f->evidence.begin(), f->evidence.end(),
                      "required Python 3.10, 3.11, 3.12, 3.13, 3.14, found Python 3.11"),
            f->evidence.end());
  EXPECT_EQ(
      Lines(*f, Shell::kPowerShell),
      (std::vector<std::string>{
          "py -3.11 -m venv \"$env:USERPROFILE\\venv-rocm\"",
          "& \"$env:USERPROFILE\\venv-rocm\\Scripts\\python.exe\" -m pip install --index-url "
          "https://stable.repo.amd.com/rocm/whl-next/ \"torch[device-gfx1100]\" "
          "\"torchvision[device-gfx1100]\" "
          "torchaudio",
          "# if `import torch` fails with WinError 126 (libomp140.x86_64.dll), install the latest Visual C++ "
          "Redistributable (x64)"}));
  EXPECT_EQ(
      Lines(*f, Shell::kCmd)[1],
      "\"%USERPROFILE%\\venv-rocm\\Scripts\\python.exe\" -m pip install --index-url "
      "https://stable.repo.amd.com/rocm/whl-next/ \"torch[device-gfx1100]\" \"torchvision[device-gfx1100]\" "
      "torchaudio");
  EXPECT_FALSE(Has(fs, "windows.amd_wheels_blocked")) << Ids(fs);
  // The Raphael iGPU beside the 7900 XTX gets no route of its own (only its identity line).
  for (const auto& x : fs) {
    if (x.id == "hardware.gpu_known") continue;
    EXPECT_EQ(x.subject.find("gfx1036"), std::string::npos) << x.id;
  }
  EXPECT_EQ(WorstSeverity(fs), Severity::kInfo) << Ids(fs);
}

// Issue 31: the CPU torch in that Python 3.11 is torch-directml's: the GPU is reached through DirectML,
// and replacing torch there would break it, so the advice is a separate environment, not a reinstall.
TEST(WindowsRecordedMachine, Rx7900XtxTorchDirectmlIsNotReplacedInPlace) {
  auto fs = RunRules(ProbeWindowsRecorded("win11-rx7900xtx-py311"));
  const Finding* f = FindId(fs, "framework.torch_directml");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(
      f->subject,
      "torch 2.4.1+cpu in C:\\Users\\bob\\AppData\\Local\\Programs\\Python\\Python311\\Lib\\site-packages");
  EXPECT_TRUE(f->fix.empty());
  EXPECT_NE(f->fix_summary.find("separate environment"), std::string::npos) << f->fix_summary;
  EXPECT_FALSE(Has(fs, "framework.torch_cpu_only")) << Ids(fs);
}

// Issue 31 item 3: a CPU-only torch beside the GPU is replaced in its own environment, with that
// environment's python.exe (the `py` launcher's default Python may be another one).
TEST(WindowsRecordedMachine, CpuTorchIsReplacedWithItsOwnPython) {
  Snapshot s = ProbeWindowsRecorded("win11-rx7900xtx-py311");
  ASSERT_EQ(s.python_envs.size(), 1u);
  s.python_envs[0].frameworks.clear();  // the same machine without torch-directml
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "framework.torch_cpu_only");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  const std::string python = "C:\\Users\\bob\\AppData\\Local\\Programs\\Python\\Python311\\python.exe";
  EXPECT_EQ(Lines(*f, Shell::kPowerShell),
            (std::vector<std::string>{
                "& \"" + python + "\" -m pip uninstall -y torch torchvision torchaudio",
                "& \"" + python +
                    "\" -m pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ "
                    "\"torch[device-gfx1100]\" \"torchvision[device-gfx1100]\" torchaudio"}));
  EXPECT_EQ(Lines(*f, Shell::kCmd)[0], "\"" + python + "\" -m pip uninstall -y torch torchvision torchaudio");
}

// Issue 31: torch in a conda environment found from the Miniconda folder alone, judged against the GPU.
TEST(WindowsRecordedMachine, Rtx4090CondaTorchIsJudged) {
  auto fs = RunRules(ProbeWindowsRecorded("win11-rtx4090-conda"));
  const Finding* ok = FindId(fs, "framework.torch_ok");
  ASSERT_NE(ok, nullptr) << Ids(fs);
  EXPECT_EQ(ok->title, "PyTorch 2.5.1+cu124 has kernels for sm_89");
  EXPECT_FALSE(Has(fs, "framework.no_torch"));
  EXPECT_EQ(WorstSeverity(fs), Severity::kOk) << Ids(fs);
}

// Issue 31: ComfyUI's portable Python on the Desktop holds a cu129 torch without sm_61: the error Pascal
// owners meet, fixed in that portable Python with its own python.exe.
TEST(WindowsRecordedMachine, Gtx1080PortableComfyUiTorchHasNoPascalCode) {
  auto fs = RunRules(ProbeWindowsRecorded("win11-gtx1080-comfyui-portable"));
  const Finding* f = FindId(fs, "framework.torch_no_kernels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  const std::string python = "C:\\Users\\dave\\Desktop\\ComfyUI_windows_portable\\python_embeded\\python.exe";
  EXPECT_EQ(Lines(*f, Shell::kPowerShell),
            (std::vector<std::string>{"& \"" + python + "\" -m pip uninstall -y torch torchvision torchaudio",
                                      "& \"" + python +
                                          "\" -m pip install torch torchvision torchaudio --index-url "
                                          "https://download.pytorch.org/whl/cu126"}));
  EXPECT_EQ(WorstSeverity(fs), Severity::kError) << Ids(fs);
}

// Issue 31 item 4: with torch installed, the Visual C++ 2015-2022 runtime its DLLs load is checked in
// System32: found, it is fine; missing, `import torch` fails (WinError 126) and the Redistributable is the
// fix, except where torch lives only in conda environments, which carry their own copy.
TEST(WindowsRecordedMachine, VisualCppRuntimeJudgedWhereTorchIs) {
  Snapshot s = ProbeWindowsRecorded("win11-rx7900xtx-py311");
  ASSERT_NE(RuntimeWithFile(s, "vc-runtime", "msvcp140.dll"), nullptr);
  EXPECT_EQ(RuntimeWithFile(s, "vc-runtime", "msvcp140.dll")->version, "14.42.34433.0");
  auto fs = RunRules(s);
  ASSERT_NE(FindId(fs, "windows.vc_runtime"), nullptr) << Ids(fs);
  EXPECT_EQ(FindId(fs, "windows.vc_runtime")->severity, Severity::kOk);

  auto without = [](Snapshot snap, const std::string& dll) {
    std::erase_if(snap.runtimes,
                  [&](const RuntimeInstall& r) { return r.kind == "vc-runtime" && r.path.ends_with(dll); });
    return snap;
  };
  fs = RunRules(without(s, "msvcp140.dll"));
  const Finding* missing = FindId(fs, "windows.vc_runtime_missing");
  ASSERT_NE(missing, nullptr) << Ids(fs);
  EXPECT_EQ(missing->severity, Severity::kError);
  EXPECT_EQ(missing->title, "The Visual C++ 2015-2022 runtime that torch loads is missing: msvcp140.dll");
  EXPECT_EQ(
      Lines(*missing, Shell::kPowerShell),
      (std::vector<std::string>{"winget install -e --id Microsoft.VCRedist.2015+.x64",
                                "# or download and run https://aka.ms/vs/17/release/vc_redist.x64.exe"}));
  EXPECT_FALSE(Has(fs, "windows.vc_runtime"));

  // torch only in a conda environment
  fs = RunRules(without(ProbeWindowsRecorded("win11-rtx4090-conda"), ""));
  missing = FindId(fs, "windows.vc_runtime_missing");
  ASSERT_NE(missing, nullptr) << Ids(fs);
  EXPECT_EQ(missing->severity, Severity::kInfo);

  fs = RunRules(ProbeWindowsRecorded("win11-rtx4090"));  // no torch: nothing to say
  EXPECT_FALSE(Has(fs, "windows.vc_runtime") || Has(fs, "windows.vc_runtime_missing")) << Ids(fs);
}

// Issue 31 item 3: AMD's ROCm 7.2 wheels installed in an active venv, on an Adrenalin below their floor
// (and without the HIP 7 runtime those wheels load): one error in the driver layer that names the torch
// it blocks and updates Adrenalin first; no [ok] driver line, no second finding for the same cause, and
// nothing reinstalled (the wheels carry gfx1201).
TEST(WindowsRecordedMachine, AnAdrenalinBelowTheInstalledWheelsIsAnError) {
  Snapshot s = ProbeWindowsRecorded("win11-rx9070xt-old-adrenalin");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "windows.amd_driver_below_wheels");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->layer, Layer::kRuntime);
  EXPECT_EQ(f->title,
            "AMD display driver 32.0.21025.1024 (Adrenalin 25.9.1) is older than the Adrenalin 25.11.1 that "
            "torch 2.9.1+rocmsdk20260116 needs: it cannot use the GPU");
  EXPECT_NE(
      std::find(f->evidence.begin(), f->evidence.end(),
                "HIP runtime from the driver: amdhip64_6.dll 6.4.50107.0 (the wheels load amdhip64_7.dll)"),
      f->evidence.end());
  const std::string python = "C:\\Users\\erin\\venv-rocm\\Scripts\\python.exe";
  EXPECT_EQ(Lines(*f, Shell::kPowerShell),
            (std::vector<std::string>{
                "# install AMD Software: Adrenalin Edition 25.11.1 or newer "
                "(https://www.amd.com/en/support/download/drivers.html), then reboot",
                "& \"" + python + "\" -c \"import torch; print(torch.cuda.is_available())\""}));
  EXPECT_FALSE(f->unconfirmed.empty());  // the floor is not yet compared with AMD's own page
  EXPECT_FALSE(Has(fs, "windows.amd_driver")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "windows.amd_wheels_blocked") || Has(fs, "windows.amd_wheels_ready")) << Ids(fs);
  EXPECT_FALSE(Has(fs, "framework.torch_no_kernels") || Has(fs, "framework.torch_cpu_only")) << Ids(fs);
  EXPECT_TRUE(Has(fs, "framework.torch_ok")) << Ids(fs);

  // The same machine after the update: the driver is fine and the installed wheels are ready.
  for (auto& a : s.windows.adapters)
    if (a.vendor_id == 0x1002) a.release = "Adrenalin 26.3.1";
  s.runtimes.push_back(
      {"hip-runtime", "C:\\WINDOWS\\system32\\amdhip64_7.dll", "7.2.53211.0", "file version"});
  fs = RunRules(s);
  EXPECT_FALSE(Has(fs, "windows.amd_driver_below_wheels")) << Ids(fs);
  ASSERT_NE(FindId(fs, "windows.amd_driver"), nullptr) << Ids(fs);
  EXPECT_EQ(FindId(fs, "windows.amd_driver")->severity, Severity::kOk);
  ASSERT_NE(FindId(fs, "windows.amd_wheels_ready"), nullptr) << Ids(fs);
  EXPECT_EQ(FindId(fs, "windows.amd_wheels_ready")->severity, Severity::kOk);

  // A driver whose Adrenalin release was not recorded counts by its HIP runtime: no amdhip64_7.dll, older.
  s = ProbeWindowsRecorded("win11-rx9070xt-old-adrenalin");
  for (auto& a : s.windows.adapters) a.release.clear();
  EXPECT_TRUE(Has(RunRules(s), "windows.amd_driver_below_wheels"));
}

// Issue 31 item 3, NVIDIA: below the installed torch's CUDA floor the driver is never an [ok] line;
// runtime.cuda_driver_too_old is the one error.
TEST(WindowsRecordedMachine, AnNvidiaDriverBelowTheInstalledTorchIsNotOk) {
  Snapshot s = ProbeWindowsRecorded("win11-rtx4090-conda");
  for (auto& e : s.python_envs)
    if (e.torch) {
      e.torch->version = "2.9.0+cu130";
      e.torch->cuda = "13.0";
    }
  auto fs = RunRules(s);
  ASSERT_NE(FindId(fs, "runtime.cuda_driver_too_old"), nullptr) << Ids(fs);
  EXPECT_EQ(FindId(fs, "runtime.cuda_driver_too_old")->severity, Severity::kError);
  EXPECT_FALSE(Has(fs, "windows.nvidia_driver")) << Ids(fs);
  // cu124 on 560.94: fine
  EXPECT_TRUE(Has(RunRules(ProbeWindowsRecorded("win11-rtx4090-conda")), "windows.nvidia_driver"));
}

// Issue 31: a CPU torch that `pip install torch` put into the Microsoft Store's Python, beside a Radeon
// 890M: found in the Store package's folder, judged an error, replaced in that Python with AMD's wheels
// for gfx1150 by the Store's own execution alias.
TEST(WindowsRecordedMachine, StorePythonCpuTorchBesideARadeonIsReplacedThere) {
  auto fs = RunRules(ProbeWindowsRecorded("win11-radeon890m-store-cpu-torch"));
  const Finding* f = FindId(fs, "framework.torch_cpu_only");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  const std::string python = "C:\\Users\\henry\\AppData\\Local\\Microsoft\\WindowsApps\\python3.12.exe";
  EXPECT_EQ(Lines(*f, Shell::kPowerShell),
            (std::vector<std::string>{
                "& \"" + python + "\" -m pip uninstall -y torch torchvision torchaudio",
                "& \"" + python +
                    "\" -m pip install --index-url https://stable.repo.amd.com/rocm/whl-next/ "
                    "\"torch[device-gfx1150]\" \"torchvision[device-gfx1150]\" torchaudio"}));
  EXPECT_FALSE(Has(fs, "framework.no_torch")) << Ids(fs);
  EXPECT_EQ(WorstSeverity(fs), Severity::kError) << Ids(fs);
}

// Issue 31 item 3: torch 2.7.1+cu128 in python.org's user site on an RTX 5090, and no Visual C++
// runtime in System32: the runtime is the one error (import torch would fail with WinError 126), the
// torch itself is right for sm_120 and is not reinstalled.
TEST(WindowsRecordedMachine, Rtx5090WithoutTheVisualCppRuntime) {
  auto fs = RunRules(ProbeWindowsRecorded("win11-rtx5090-no-vcredist"));
  const Finding* f = FindId(fs, "windows.vc_runtime_missing");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(
      Lines(*f, Shell::kPowerShell),
      (std::vector<std::string>{"winget install -e --id Microsoft.VCRedist.2015+.x64",
                                "# or download and run https://aka.ms/vs/17/release/vc_redist.x64.exe"}));
  ASSERT_NE(FindId(fs, "framework.torch_ok"), nullptr) << Ids(fs);
  EXPECT_EQ(FindId(fs, "framework.torch_ok")->title, "PyTorch 2.7.1+cu128 has kernels for sm_120");
  size_t errors = 0;
  for (const auto& x : fs) errors += x.severity == Severity::kError;
  EXPECT_EQ(errors, 1u) << Ids(fs);
}

// The facts of the recorded machines whose other tests are verdicts: the GPU, its driver release and the
// runtimes found ("kind version file"), as their READMEs say (issue 37: every machine has a facts test).
std::vector<std::string> RuntimeFiles(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& r : s.runtimes)
    out.push_back(r.kind + " " + r.version + " " + r.path.substr(r.path.rfind('\\') + 1));
  return out;
}

void ExpectOneGpu(const Snapshot& s, const std::string& arch, const std::string& name, bool integrated,
                  const std::string& release) {
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, arch);
  EXPECT_EQ(s.gpus[0].name, name);
  EXPECT_EQ(s.gpus[0].integrated, integrated);
  std::string releases;
  for (const auto& a : s.windows.adapters) releases += a.release;
  EXPECT_EQ(releases, release);
}

TEST(WindowsRecordedMachine, Rtx5090WithoutTheVisualCppRuntimeFacts) {
  Snapshot s = ProbeWindowsRecorded("win11-rtx5090-no-vcredist");
  ExpectOneGpu(s, "sm_120", "NVIDIA GeForce RTX 5090", false, "NVIDIA 576.88");
  EXPECT_EQ(RuntimeFiles(s),
            (std::vector<std::string>{"libcuda 32.0.15.7688 nvcuda.dll", "nvml 8.17.15.7688 nvml.dll"}));
  EXPECT_EQ(s.nvidia.driver_version, "576.88");
}

TEST(WindowsRecordedMachine, Radeon890MStorePythonFacts) {
  Snapshot s = ProbeWindowsRecorded("win11-radeon890m-store-cpu-torch");
  ExpectOneGpu(s, "gfx1150", "Radeon 890M", true, "Adrenalin 25.12.1");
  EXPECT_EQ(RuntimeFiles(s),
            (std::vector<std::string>{
                "hip-runtime 7.2.53211.0 amdhip64_7.dll", "hip-runtime 6.4.50107.0 amdhip64_6.dll",
                "vc-runtime 14.44.35211.0 vcruntime140.dll", "vc-runtime 14.44.35211.0 vcruntime140_1.dll",
                "vc-runtime 14.44.35211.0 msvcp140.dll"}));
  ASSERT_EQ(s.python_envs.size(), 1u);
  EXPECT_EQ(s.python_envs[0].interpreter,
            "C:\\Users\\henry\\AppData\\Local\\Microsoft\\WindowsApps\\python3.12.exe");
}

TEST(WindowsRecordedMachine, Rtx4090CondaFacts) {
  Snapshot s = ProbeWindowsRecorded("win11-rtx4090-conda");
  ExpectOneGpu(s, "sm_89", "NVIDIA GeForce RTX 4090", false, "NVIDIA 560.94");
  EXPECT_EQ(RuntimeFiles(s),
            (std::vector<std::string>{
                "libcuda 32.0.15.6094 nvcuda.dll", "nvml 8.17.15.6094 nvml.dll",
                "vc-runtime 14.42.34433.0 vcruntime140.dll", "vc-runtime 14.42.34433.0 vcruntime140_1.dll",
                "vc-runtime 14.42.34433.0 msvcp140.dll", "cuda-toolkit 12.6.85 v12.6"}));
}

TEST(WindowsRecordedMachine, Gtx1080PortableComfyUiFacts) {
  Snapshot s = ProbeWindowsRecorded("win11-gtx1080-comfyui-portable");
  ExpectOneGpu(s, "sm_61", "NVIDIA GeForce GTX 1080", false, "NVIDIA 581.57");
  EXPECT_EQ(RuntimeFiles(s),
            (std::vector<std::string>{
                "libcuda 32.0.15.8157 nvcuda.dll", "nvml 8.17.15.8157 nvml.dll",
                "vc-runtime 14.42.34433.0 vcruntime140.dll", "vc-runtime 14.42.34433.0 vcruntime140_1.dll",
                "vc-runtime 14.42.34433.0 msvcp140.dll", "cuda-toolkit 12.6.85 v12.6"}));
}

TEST(WindowsRecordedMachine, StrixHaloLaptop) {
  Snapshot s = ProbeWindowsRecorded("win11-strix-halo-laptop");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "gfx1151");
  EXPECT_EQ(s.gpus[0].integrated, true);  // 64 GiB of firmware-reserved memory does not make it discrete
  EXPECT_EQ(s.gpus[0].vram_bytes, 64 * kGiB);
  ASSERT_EQ(s.windows.python_installs.size(), 1u);
  EXPECT_EQ(s.windows.python_installs[0].kind, "store");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "windows.amd_wheels_ready");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(Lines(*f, Shell::kPowerShell)[0], "py -3.12 -m venv \"$env:USERPROFILE\\venv-rocm\"");
  EXPECT_NE(Lines(*f, Shell::kPowerShell)[1].find("stable.repo.amd.com/rocm/whl-next/"), std::string::npos);
  EXPECT_FALSE(Has(fs, "runtime.kernel_too_old"));  // a Linux rule
  EXPECT_FALSE(Has(fs, "windows.amd_wheels_blocked"));
  EXPECT_LE(WorstSeverity(fs), Severity::kInfo) << Ids(fs);
}

TEST(WindowsRecordedMachine, Rtx4090) {
  Snapshot s = ProbeWindowsRecorded("win11-rtx4090");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "sm_89");
  EXPECT_EQ(s.nvidia.driver_version, "560.94");
  EXPECT_EQ(s.windows.adapters[0].release, "NVIDIA 560.94");
  ASSERT_NE(RuntimeWithFile(s, "libcuda", "nvcuda.dll"), nullptr);
  ASSERT_NE(RuntimeWithFile(s, "cuda-toolkit", "v12.6"), nullptr);
  EXPECT_EQ(RuntimeWithFile(s, "cuda-toolkit", "v12.6")->version, "12.6.85");
  auto fs = RunRules(s);
  const Finding* driver = FindId(fs, "windows.nvidia_driver");
  ASSERT_NE(driver, nullptr) << Ids(fs);
  EXPECT_EQ(driver->severity, Severity::kOk);
  const Finding* install = FindId(fs, "framework.no_torch");
  ASSERT_NE(install, nullptr) << Ids(fs);
  // Driver 560.94 is below CUDA 13's 580: the CUDA 12 build whose toolkit driver it meets.
  EXPECT_EQ(Lines(*install, Shell::kPowerShell),
            (std::vector<std::string>{"py -m pip install torch torchvision torchaudio --index-url "
                                      "https://download.pytorch.org/whl/cu126"}));
  EXPECT_EQ(WorstSeverity(fs), Severity::kInfo) << Ids(fs);
}

// Issue 30 item 6: a Windows guest of KVM/QEMU with the RTX 4090 passed through is said to be a virtual
// machine, from the SMBIOS names in the registry; the same Windows on bare metal is not (its hypervisor bit
// alone, set by Hyper-V and VBS on hosts too, is no evidence), and the GPU's verdicts are the same.
TEST(WindowsRecordedMachine, AKvmGuestIsSaidToBeOne) {
  Snapshot vm = ProbeWindowsRecorded("win11-kvm-rtx4090-passthrough");
  ASSERT_TRUE(vm.windows.hypervisor_present.value_or(false));
  ASSERT_TRUE(vm.os.virtual_machine.has_value());
  EXPECT_EQ(*vm.os.virtual_machine, "KVM/QEMU");
  ASSERT_FALSE(vm.os.virtual_machine_evidence.empty());
  EXPECT_NE(vm.os.virtual_machine_evidence[0].find("SMBIOS (HKLM\\HARDWARE\\DESCRIPTION\\System\\BIOS)"),
            std::string::npos)
      << vm.os.virtual_machine_evidence[0];
  auto fs = RunRules(vm);
  ASSERT_TRUE(Has(fs, "hardware.virtual_machine")) << Ids(fs);
  Snapshot metal = ProbeWindowsRecorded("win11-rtx4090");
  EXPECT_FALSE(metal.os.virtual_machine.has_value());
  metal.windows.hypervisor_present = true;  // Hyper-V or VBS on the host: still not a guest
  auto metal_fs = RunRules(metal);
  EXPECT_FALSE(Has(metal_fs, "hardware.virtual_machine")) << Ids(metal_fs);
  const Finding* install = FindId(fs, "framework.no_torch");
  const Finding* metal_install = FindId(metal_fs, "framework.no_torch");
  ASSERT_TRUE(install != nullptr && metal_install != nullptr);
  EXPECT_EQ(install->fix, metal_install->fix);
}

// Issue 13: Windows numbers R580's drivers 580.xx and 581.xx. A GTX 1080 (Pascal, whose last branch is
// R580) on 581.57 is on R580: no "driver drops the GPU" error, and the install advice is a wheel that still
// carries sm_61 (cu126), with no driver above R580. On 591.86 (R590) the error is real.
TEST(WindowsRecordedMachine, Gtx1080On581IsStillOnR580) {
  Snapshot s = ProbeWindowsRecorded("win11-gtx1080");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "sm_61");
  EXPECT_EQ(s.nvidia.driver_version, "581.57");
  auto fs = RunRules(s);
  EXPECT_FALSE(Has(fs, "runtime.driver_branch_drops_gpu")) << Ids(fs);
  const Finding* install = FindId(fs, "framework.no_torch");
  ASSERT_NE(install, nullptr) << Ids(fs);
  ASSERT_FALSE(Lines(*install, Shell::kPowerShell).empty());
  EXPECT_NE(Lines(*install, Shell::kPowerShell)[0].find("download.pytorch.org/whl/cu126"), std::string::npos)
      << Lines(*install, Shell::kPowerShell)[0];

  s.nvidia.driver_version = "591.86";
  fs = RunRules(s);
  const Finding* drops = FindId(fs, "runtime.driver_branch_drops_gpu");
  ASSERT_NE(drops, nullptr) << Ids(fs);
  EXPECT_EQ(drops->severity, Severity::kError);
}

TEST(WindowsRecordedMachine, SnapshotJsonKeepsTheWindowsPart) {
  for (const char* machine : {"win10-rx6700xt", "win11-rx7900xtx-py311", "win11-strix-halo-laptop",
                              "win11-rtx4090", "win11-rtx4090-conda", "win11-gtx1080-comfyui-portable"}) {
    Snapshot s = ProbeWindowsRecorded(machine);
    std::string json = SnapshotToJson(s);
    auto back = SnapshotFromJson(json, machine);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(SnapshotToJson(*back), json) << machine;
    EXPECT_EQ(back->windows.adapters.size(), s.windows.adapters.size());
  }
  auto bad = SnapshotFromJson(
      R"j({"schema": "gpudoctor.snapshot", "windows": {"adapters": [{"vendor_id": "AMD"}]}})j", "bad");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("snapshot.windows.adapters[0].vendor_id"), std::string::npos)
      << bad.error().message;
  // A Linux snapshot has no "windows" object at all.
  EXPECT_EQ(SnapshotToJson(Snapshot{}).find("\"windows\""), std::string::npos);
}

TEST(WindowsRecordedMachine, ShellDefaultsToPowerShellOnWindows) {
  EXPECT_EQ(DetectShell(ProbeWindowsRecorded("win11-rtx4090").os.family, Environment()), Shell::kPowerShell);
  EXPECT_EQ(DetectShell(OsFamily::kWindows,
                        Environment(std::map<std::string, std::string>{
                            {"PROMPT", "$P$G"}, {"ComSpec", "C:\\WINDOWS\\system32\\cmd.exe"}})),
            Shell::kCmd);
}

// Issue 31: what each recorded Windows machine's README says its Pythons are and where its torch is,
// asserted on the snapshot, so a golden report can no longer record a miss ("No PyTorch found" on a
// machine with torch). Every win* fixture needs its row.
struct WindowsPythons {
  const char* machine;
  std::vector<std::string> installs;  // "version kind prefix", in the probe's order
  std::vector<std::string> torch;     // "prefix: version (kind, Python X.Y)" of each environment with torch
};

const std::vector<WindowsPythons>& PythonsOfRecordedMachines() {
  static const std::vector<WindowsPythons> table = {
      {"win10-rx6700xt",
       {"3.10 python.org C:\\Users\\alice\\AppData\\Local\\Programs\\Python\\Python310"},
       {}},
      {"win11-gtx1080", {"3.12 python.org C:\\Users\\dave\\AppData\\Local\\Programs\\Python\\Python312"}, {}},
      {"win11-gtx1080-comfyui-portable",
       {"3.12 python.org C:\\Users\\dave\\AppData\\Local\\Programs\\Python\\Python312",
        "3.13 portable C:\\Users\\dave\\Desktop\\ComfyUI_windows_portable\\python_embeded"},
       {"C:\\Users\\dave\\Desktop\\ComfyUI_windows_portable\\python_embeded: 2.8.0+cu129 (portable, Python "
        "3.13)"}},
      {"win11-rtx4090", {"3.12 python.org C:\\Users\\dave\\AppData\\Local\\Programs\\Python\\Python312"}, {}},
      {"win11-kvm-rtx4090-passthrough",
       {"3.12 python.org C:\\Users\\dave\\AppData\\Local\\Programs\\Python\\Python312"},
       {}},
      {"win11-rtx4090-conda",
       {"3.12 conda C:\\Users\\frank\\miniconda3", "3.11 conda C:\\Users\\frank\\miniconda3\\envs\\torch"},
       {"C:\\Users\\frank\\miniconda3\\envs\\torch: 2.5.1+cu124 (conda, Python 3.11)"}},
      {"win11-rx7900xtx-py311",
       {"3.11 python.org C:\\Users\\bob\\AppData\\Local\\Programs\\Python\\Python311"},
       {"C:\\Users\\bob\\AppData\\Local\\Programs\\Python\\Python311: 2.4.1+cpu (system, Python 3.11)"}},
      {"win11-radeon890m-store-cpu-torch",
       {"3.12 store C:\\Program "
        "Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_3.12.2544.0_x64__qbz5n2kfra8p0"},
       // The Store Python's environment is its install (its packages live in local-packages).
       {"C:\\Program "
        "Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_3.12.2544.0_x64__qbz5n2kfra8p0: "
        "2.8.0+cpu (system, Python 3.12)"}},
      {"win11-rtx5090-no-vcredist",
       {"3.12 python.org C:\\Users\\grace\\AppData\\Local\\Programs\\Python\\Python312"},
       {"C:\\Users\\grace\\AppData\\Roaming\\Python\\Python312: 2.7.1+cu128 (user, Python 3.12)"}},
      {"win11-rx9070xt-old-adrenalin",
       {"3.12 venv C:\\Users\\erin\\venv-rocm",
        "3.12 python.org C:\\Users\\erin\\AppData\\Local\\Programs\\Python\\Python312"},
       {"C:\\Users\\erin\\venv-rocm: 2.9.1+rocmsdk20260116 (venv, Python 3.12)"}},
      {"win11-strix-halo-laptop",
       {"3.12 store C:\\Program "
        "Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_3.12.2544.0_x64__qbz5n2kfra8p0"},
       {}},
  };
  return table;
}

class WindowsRecordedPythons : public ::testing::TestWithParam<WindowsPythons> {};

TEST_P(WindowsRecordedPythons, InstallsAndTorchAreFound) {
  const WindowsPythons& want = GetParam();
  Snapshot s = ProbeWindowsRecorded(want.machine);
  std::vector<std::string> installs, torch;
  for (const auto& p : s.windows.python_installs)
    installs.push_back(p.version + " " + p.kind + " " + p.prefix);
  for (const auto& e : s.python_envs) {
    if (e.torch)
      torch.push_back(e.path + ": " + e.torch->version + " (" + e.kind + ", Python " + e.python_version +
                      ")");
    EXPECT_FALSE(e.interpreter.empty()) << e.path;  // each has the python.exe a fix would run
  }
  EXPECT_EQ(installs, want.installs);
  EXPECT_EQ(torch, want.torch);
  for (const auto& w : s.warnings) EXPECT_EQ(w.find("python"), std::string::npos) << w;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, WindowsRecordedPythons, ::testing::ValuesIn(PythonsOfRecordedMachines()),
                         [](const ::testing::TestParamInfo<WindowsPythons>& p) {
                           std::string n = p.param.machine;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(WindowsRecordedPythons, EveryRecordedWindowsMachineHasItsRow) {
  const std::string fixtures = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/";
  for (const auto& e : std::filesystem::directory_iterator(fixtures)) {
    if (!std::filesystem::exists(e.path() / ".gpudoctor/windows/os.json")) continue;
    const std::string name = e.path().filename().string();
    const auto& table = PythonsOfRecordedMachines();
    EXPECT_TRUE(
        std::any_of(table.begin(), table.end(), [&](const WindowsPythons& w) { return name == w.machine; }))
        << name << ": add what its README says of its Pythons and torch to PythonsOfRecordedMachines()";
  }
}

}  // namespace
}  // namespace gpudoctor
