// The add-on checks (rules/addon_rules.cpp, addon_gpu_packages.cpp) on Snapshots built in code: each
// rule fires on the case it is for, with the fix an expert would type, and stays quiet on its neighbours.
#include <gtest/gtest.h>

#include <set>

#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using namespace testing_rules;

// Beside rules_test_util.h's kRtx4090 (compute capability 8.9):
constexpr uint32_t kGtx1080 = 0x1B80;  // 6.1
constexpr uint32_t kTeslaT4 = 0x1EB8;  // 7.5

void AddPackage(Snapshot& s, const std::string& name, const std::string& version,
                const std::string& pin = "") {
  FrameworkInstall fw;
  fw.name = name;
  fw.version = version;
  fw.torch_pin = pin;
  fw.source = s.python_envs.front().site_packages + "/" + name + "-" + version + ".dist-info/METADATA";
  s.python_envs.front().frameworks.push_back(fw);
}

void AddPipCudaRuntime(Snapshot& s, const std::string& file) {
  PythonEnv& env = s.python_envs.front();
  env.gpu_libraries.push_back(
      {env.site_packages + "/nvidia/cuda_runtime/lib", "nvidia/cuda_runtime", {file}});
}

// An RTX 4090 machine with torch 2.6.0+cu124 in /home/u/.venv.
Snapshot Rtx4090WithTorch(const std::string& torch = "2.6.0+cu124", const std::string& cuda = "12.4") {
  Snapshot s = Linux();
  AddNvidia(s, kRtx4090, 8, 9);
  AddTorch(s, torch, cuda);
  return s;
}

std::vector<Finding> Of(const std::vector<Finding>& all, const std::string& id) {
  std::vector<Finding> out;
  for (const Finding& f : all)
    if (f.id == id) out.push_back(f);
  return out;
}

TEST(AddonTorchPin, XformersBuiltForAnotherTorchGetsTheReleaseForThisOne) {
  Snapshot s = Rtx4090WithTorch();
  AddPackage(s, "xformers", "0.0.28.post3", "2.5.1");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "addon.torch_pin_mismatch");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_EQ(f->layer, Layer::kFramework);
  EXPECT_NE(f->title.find("built for torch 2.5.1"), std::string::npos) << f->title;
  EXPECT_NE(f->evidence.front().find("required torch==2.5.1"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("found torch 2.6.0+cu124"), std::string::npos) << f->evidence.front();
  EXPECT_EQ(BashFix(*f),
            "/home/u/.venv/bin/python -m pip install --no-deps \"xformers==0.0.29.post3\" --index-url "
            "https://download.pytorch.org/whl/cu124\n");
  EXPECT_EQ(f->fix.front().commands.powershell,
            "py -m pip install --no-deps \"xformers==0.0.29.post3\" --index-url "
            "https://download.pytorch.org/whl/cu124");
}

TEST(AddonTorchPin, APinTheInstalledTorchMeetsIsFine) {
  Snapshot s = Rtx4090WithTorch("2.5.1+cu124");
  AddPackage(s, "xformers", "0.0.28.post3", "2.5.1");
  AddPackage(s, "flash-attn", "2.7.4", "2.4.0");  // flash-attn does not pin torch: a pin there is not judged
  AddPackage(s, "vllm", "0.6.4");                 // no pin read (a folder name, or another form)
  EXPECT_FALSE(Has(RunRules(s), "addon.torch_pin_mismatch")) << Ids(RunRules(s));
}

// A torch from PyPI (no local tag) gets the add-on from PyPI; an add-on without a recorded release for
// the torch (vllm) lets pip pick the release whose pin the installed torch meets.
TEST(AddonTorchPin, IndexFollowsTheTorchAndUnrecordedReleasesAreLeftToPip) {
  Snapshot s = Rtx4090WithTorch("2.6.0", "12.4");
  AddPackage(s, "xformers", "0.0.28.post3", "2.5.1");
  AddPackage(s, "vllm", "0.6.4", "2.5.1");
  auto pins = Of(RunRules(s), "addon.torch_pin_mismatch");
  ASSERT_EQ(pins.size(), 2u) << Ids(RunRules(s));
  EXPECT_EQ(BashFix(pins[0]),
            "/home/u/.venv/bin/python -m pip install --no-deps \"xformers==0.0.29.post3\"\n");
  EXPECT_EQ(BashFix(pins[1]), "/home/u/.venv/bin/python -m pip install vllm \"torch==2.6.0\"\n");
  EXPECT_NE(pins[1].fix_summary.find("keeps the installed torch"), std::string::npos) << pins[1].fix_summary;
}

TEST(AddonOnnxruntime, TheCpuPackageBesideTheGpuPackageIsAnError) {
  Snapshot s = Rtx4090WithTorch();
  AddPackage(s, "onnxruntime", "1.20.1");
  AddPackage(s, "onnxruntime-gpu", "1.20.1");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "addon.cpu_package_shadows_gpu");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->evidence.back().find("only the CPU execution provider"), std::string::npos)
      << f->evidence.back();
  EXPECT_EQ(BashFix(*f),
            "/home/u/.venv/bin/python -m pip uninstall -y onnxruntime onnxruntime-gpu\n"
            "/home/u/.venv/bin/python -m pip install \"onnxruntime-gpu==1.20.1\"\n");
  EXPECT_FALSE(Has(fs, "addon.cuda_build_mismatch")) << Ids(fs);  // 1.20 is a CUDA 12 build, as torch
}

TEST(AddonOnnxruntime, Release117BesideACuda12TorchIsAWarningWithTheCuda12Release) {
  Snapshot s = Rtx4090WithTorch();
  AddPipCudaRuntime(s, "libcudart.so.12");
  AddPackage(s, "onnxruntime-gpu", "1.17.1");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "addon.cuda_build_mismatch");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->title.find("built for CUDA 11.8"), std::string::npos) << f->title;
  EXPECT_NE(f->title.find("CUDA libraries are CUDA 12"), std::string::npos) << f->title;
  EXPECT_NE(f->evidence.front().find("CUDA 11.8, cuDNN 8"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("torch 2.6.0+cu124 (CUDA 12.4)"), std::string::npos)
      << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("nvidia/cuda_runtime/lib/libcudart.so.12 (CUDA 12)"), std::string::npos)
      << f->evidence.front();
  EXPECT_EQ(BashFix(*f), "/home/u/.venv/bin/python -m pip install \"onnxruntime-gpu>=1.19,<1.27\"\n");
  // Beside the CPU package too: the reinstall takes the CUDA 12 release, not 1.17.1 again.
  AddPackage(s, "onnxruntime", "1.17.1");
  const auto with_cpu = RunRules(s);
  const Finding* shadow = FindId(with_cpu, "addon.cpu_package_shadows_gpu");
  ASSERT_NE(shadow, nullptr);
  EXPECT_NE(BashFix(*shadow).find("install \"onnxruntime-gpu>=1.19,<1.27\""), std::string::npos)
      << BashFix(*shadow);
}

TEST(AddonOnnxruntime, TheCudaOfTheEnvironmentDecides) {
  Snapshot cu118 = Rtx4090WithTorch("2.6.0+cu118", "11.8");
  AddPackage(cu118, "onnxruntime-gpu", "1.17.1");
  EXPECT_FALSE(Has(RunRules(cu118), "addon.cuda_build_mismatch")) << Ids(RunRules(cu118));
  // No torch, only the pip CUDA 12 runtime: still CUDA 12.
  Snapshot wheels = Linux();
  AddNvidia(wheels, kRtx4090, 8, 9);
  AddTorch(wheels, "2.6.0+cpu");
  AddPipCudaRuntime(wheels, "libcudart.so.12");
  AddPackage(wheels, "onnxruntime-gpu", "1.18.1");
  EXPECT_TRUE(Has(RunRules(wheels), "addon.cuda_build_mismatch")) << Ids(RunRules(wheels));
  // A CPU torch and no CUDA wheels: nothing says which CUDA the environment has.
  Snapshot none = Linux();
  AddNvidia(none, kRtx4090, 8, 9);
  AddTorch(none, "2.6.0+cpu");
  AddPackage(none, "onnxruntime-gpu", "1.17.1");
  EXPECT_FALSE(Has(RunRules(none), "addon.cuda_build_mismatch")) << Ids(RunRules(none));
}

TEST(AddonGpuBuild, CpuOnlyBitsandbytesOnAnNvidiaMachineIsAnError) {
  Snapshot s = Rtx4090WithTorch();
  AddPackage(s, "bitsandbytes", "0.42.0");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "addon.no_gpu_build");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kError);
  EXPECT_NE(f->evidence.front().find("libbitsandbytes_cuda*"), std::string::npos) << f->evidence.front();
  EXPECT_EQ(BashFix(*f), "/home/u/.venv/bin/python -m pip install -U bitsandbytes\n");
  // With its CUDA library, the folder the probe records: fine.
  PythonEnv& env = s.python_envs.front();
  env.gpu_libraries.push_back({env.site_packages + "/bitsandbytes", "bitsandbytes", {}});
  EXPECT_FALSE(Has(RunRules(s), "addon.no_gpu_build")) << Ids(RunRules(s));
}

TEST(AddonGpuBuild, OnlyOnAMachineWithAGpuTheBuildCanUse) {
  Snapshot cpu_machine = Linux();
  AddTorch(cpu_machine, "2.6.0+cpu");
  AddPackage(cpu_machine, "bitsandbytes", "0.45.0");
  AddPackage(cpu_machine, "jax", "0.7.1");
  EXPECT_FALSE(Has(RunRules(cpu_machine), "addon.no_gpu_build")) << Ids(RunRules(cpu_machine));
  // An AMD GPU on Linux: the ROCm build.
  Snapshot amd = Linux();
  AddAmd(amd, 0x744C, 0xC8, "gfx1100", 24);
  AddTorch(amd, "2.6.0+rocm6.2", "", "6.2.41133");
  AddPackage(amd, "jax", "0.7.1");
  const auto on_amd = RunRules(amd);
  const Finding* f = FindId(on_amd, "addon.no_gpu_build");
  ASSERT_NE(f, nullptr) << Ids(on_amd);
  EXPECT_EQ(BashFix(*f), "/home/u/.venv/bin/python -m pip install -U \"jax[rocm7-local]\"\n");
  // Native Windows has no JAX GPU build to offer.
  Snapshot windows = Rtx4090WithTorch();
  windows.os.family = OsFamily::kWindows;
  AddPackage(windows, "jax", "0.7.1");
  EXPECT_FALSE(Has(RunRules(windows), "addon.no_gpu_build")) << Ids(RunRules(windows));
}

TEST(AddonGpuBuild, JaxWithoutAGpuPluginIsOneWarningWithTheCudaOfTheEnvironment) {
  Snapshot s = Rtx4090WithTorch();
  AddPackage(s, "jax", "0.7.1");
  AddPackage(s, "jaxlib", "0.7.1");
  auto found = Of(RunRules(s), "addon.no_gpu_build");
  ASSERT_EQ(found.size(), 1u) << Ids(RunRules(s));
  EXPECT_EQ(found[0].severity, Severity::kWarning);
  EXPECT_NE(found[0].evidence.back().find("jaxlib 0.7.1"), std::string::npos) << found[0].evidence.back();
  EXPECT_EQ(BashFix(found[0]), "/home/u/.venv/bin/python -m pip install -U \"jax[cuda12]\"\n");
  Snapshot cu130 = Rtx4090WithTorch("2.10.0+cu130", "13.0");
  AddPackage(cu130, "jax", "0.7.1");
  const auto with_cu130 = RunRules(cu130);
  const Finding* cuda13 = FindId(with_cu130, "addon.no_gpu_build");
  ASSERT_NE(cuda13, nullptr) << Ids(with_cu130);
  EXPECT_EQ(BashFix(*cuda13), "/home/u/.venv/bin/python -m pip install -U \"jax[cuda13]\"\n");
  // A plugin, or a jaxlib built for CUDA, is the GPU build.
  Snapshot plugin = s;
  AddPackage(plugin, "jax-cuda12-plugin", "0.7.1");
  EXPECT_FALSE(Has(RunRules(plugin), "addon.no_gpu_build")) << Ids(RunRules(plugin));
  Snapshot old = Rtx4090WithTorch();
  AddPackage(old, "jax", "0.4.16");
  AddPackage(old, "jaxlib", "0.4.16+cuda12.cudnn89");
  EXPECT_FALSE(Has(RunRules(old), "addon.no_gpu_build")) << Ids(RunRules(old));
}

TEST(AddonGpuFloor, FlashAttention2OnAPascalCardCannotRun) {
  Snapshot s = Linux();
  AddNvidia(s, kGtx1080, 6, 1);
  AddTorch(s, "2.6.0+cu124", "12.4");
  AddPackage(s, "flash_attn", "2.7.4.post1");
  auto fs = RunRules(s);
  const Finding* f = FindId(fs, "addon.gpu_too_old");
  ASSERT_NE(f, nullptr) << Ids(fs);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_NE(f->evidence.front().find("required compute capability 8.0 or newer"), std::string::npos)
      << f->evidence.front();
  EXPECT_NE(f->evidence.front().find("(compute capability 6.1)"), std::string::npos) << f->evidence.front();
  EXPECT_NE(f->evidence.back().find("scaled_dot_product_attention"), std::string::npos) << f->evidence.back();
  EXPECT_EQ(BashFix(*f), "/home/u/.venv/bin/python -m pip uninstall -y flash_attn\n");
}

TEST(AddonGpuFloor, TheNewestGpuAndTheReleaseDecide) {
  Snapshot mixed = Linux();
  AddNvidia(mixed, kGtx1080, 6, 1);
  AddNvidia(mixed, kRtx4090, 8, 9);
  AddTorch(mixed, "2.6.0+cu124", "12.4");
  AddPackage(mixed, "flash-attn", "2.7.4");
  EXPECT_FALSE(Has(RunRules(mixed), "addon.gpu_too_old")) << Ids(RunRules(mixed));
  Snapshot v1 = Linux();
  AddNvidia(v1, kGtx1080, 6, 1);
  AddTorch(v1, "2.6.0+cu124", "12.4");
  AddPackage(v1, "flash-attn", "1.0.9");  // FlashAttention 1 ran on older GPUs
  EXPECT_FALSE(Has(RunRules(v1), "addon.gpu_too_old")) << Ids(RunRules(v1));
  Snapshot with_amd = v1;
  with_amd.python_envs.front().frameworks.front().version = "2.7.4";
  AddAmd(with_amd, 0x744C, 0xC8, "gfx1100", 24);  // a ROCm flash-attn could run on it
  EXPECT_FALSE(Has(RunRules(with_amd), "addon.gpu_too_old")) << Ids(RunRules(with_amd));
}

// xformers: only its FlashAttention kernels need 8.0 (information) until 0.0.31, which dropped Volta
// and older GPUs altogether (a warning); Triton's compiler needs 7.0 (information).
TEST(AddonGpuFloor, PartsOfAnAddonAreInformation) {
  Snapshot t4 = Linux();
  AddNvidia(t4, kTeslaT4, 7, 5);
  AddTorch(t4, "2.7.1+cu126", "12.6");
  AddPackage(t4, "xformers", "0.0.31.post1", "2.7.1");
  AddPackage(t4, "triton", "3.3.1");
  auto on_t4 = Of(RunRules(t4), "addon.gpu_too_old");
  ASSERT_EQ(on_t4.size(), 1u) << Ids(RunRules(t4));
  EXPECT_EQ(on_t4[0].severity, Severity::kInfo);
  EXPECT_NE(on_t4[0].title.find("its FlashAttention kernels cannot run on this machine's GPUs (compute "
                                "capability 8.0 or newer needed)"),
            std::string::npos)
      << on_t4[0].title;
  EXPECT_TRUE(on_t4[0].fix.empty());
  Snapshot pascal = Linux();
  AddNvidia(pascal, kGtx1080, 6, 1);
  AddTorch(pascal, "2.7.1+cu126", "12.6");
  AddPackage(pascal, "xformers", "0.0.31.post1", "2.7.1");
  AddPackage(pascal, "triton", "3.3.1");
  auto on_pascal = Of(RunRules(pascal), "addon.gpu_too_old");
  ASSERT_EQ(on_pascal.size(), 2u) << Ids(RunRules(pascal));
  EXPECT_EQ(on_pascal[0].severity, Severity::kWarning);  // xformers 0.0.31: 7.5
  EXPECT_NE(on_pascal[0].evidence.front().find("7.5 or newer (xformers 0.0.31 and later)"), std::string::npos)
      << on_pascal[0].evidence.front();
  EXPECT_EQ(on_pascal[1].severity, Severity::kInfo);  // triton: 7.0
  EXPECT_NE(on_pascal[1].title.find("its GPU compiler"), std::string::npos) << on_pascal[1].title;
}

TEST(AddonRuleCatalogue, EveryAddonIdIsExplained) {
  Snapshot s = Linux();
  AddNvidia(s, kGtx1080, 6, 1);
  AddTorch(s, "2.6.0+cu124", "12.4");
  AddPackage(s, "xformers", "0.0.28.post3", "2.5.1");
  AddPackage(s, "flash-attn", "2.7.4");
  AddPackage(s, "onnxruntime", "1.17.1");
  AddPackage(s, "onnxruntime-gpu", "1.17.1");
  AddPackage(s, "bitsandbytes", "0.42.0");
  std::set<std::string> ids;
  for (const Finding& f : RunRules(s)) {
    if (f.id.rfind("addon.", 0) != 0) continue;
    ids.insert(f.id);
    EXPECT_NE(FindRuleInfo(f.id), nullptr) << f.id;
  }
  EXPECT_EQ(ids,
            (std::set<std::string>{"addon.torch_pin_mismatch", "addon.cpu_package_shadows_gpu",
                                   "addon.cuda_build_mismatch", "addon.no_gpu_build", "addon.gpu_too_old"}));
}

}  // namespace
}  // namespace gpudoctor
