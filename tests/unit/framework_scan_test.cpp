// What a site-packages folder holds: frameworks from their dist-info, torch's GPU code read from real
// fat binaries (tests/fixtures/binaries) placed in torch/lib, rocBLAS kernel folders, the folders of
// GPU libraries and which copy of the CUDA / HIP runtime each framework would load.
#include <gtest/gtest.h>

#include <filesystem>

#include "binfmt_fixtures.h"
#include "knowledge/knowledge_loader.h"
#include "probe/common/framework_scan.h"
#include "probe/common/torch_gpu_code.h"
#include "probe_sysroot_builder.h"

namespace gpudoctor {
namespace {

using testing::SysrootBuilder;

constexpr const char* kSite = "/env/lib/python3.12/site-packages";

std::string At(const std::string& rel) {
  return std::string(kSite) + "/" + rel;
}

void Dist(const SysrootBuilder& r, const std::string& folder, const std::string& name,
          const std::string& version) {
  r.Write(At(folder + "/METADATA"),
          "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\n\nbody\n");
}

void CopyFixture(const SysrootBuilder& r, const std::string& fixture, const std::string& machine_path) {
  r.Mkdir(machine_path.substr(0, machine_path.rfind('/')));
  std::filesystem::copy_file(testing::BinaryFixturePath(fixture), r.root() + machine_path,
                             std::filesystem::copy_options::overwrite_existing);
}

SitePackagesContents Scan(const SysrootBuilder& r, std::vector<std::string>& warnings) {
  auto fs = MakeRootedFileSystem(r.root());
  return ScanSitePackages(*fs, kSite, warnings);
}

const FrameworkInstall* Framework(const SitePackagesContents& c, const std::string& name) {
  for (const auto& f : c.frameworks)
    if (f.name == name) return &f;
  return nullptr;
}

TEST(FrameworkScan, CudaTorchWithPipRuntimeAndItsCode) {
  SysrootBuilder r;
  r.Write(At("torch/version.py"),
          "__version__ = '2.7.1+cu128'\ncuda = '12.8'\ngit_version = 'abc'\ndebug = False\n");
  CopyFixture(r, "cuda_sm75_sm90_ptx90.so", At("torch/lib/libtorch_cuda.so"));
  r.Write(At("torch/lib/libtorch_cpu.so"), "");
  r.Write(At("nvidia/cuda_runtime/lib/libcudart.so.12"), "");
  r.Write(At("nvidia/cublas/lib/libcublas.so.12"), "");
  Dist(r, "torch-2.7.1+cu128.dist-info", "torch", "2.7.1+cu128");
  Dist(r, "torchvision-0.22.1+cu128.dist-info", "torchvision", "0.22.1+cu128");
  Dist(r, "numpy-2.1.0.dist-info", "numpy", "2.1.0");
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  EXPECT_TRUE(warnings.empty()) << ::testing::PrintToString(warnings);
  ASSERT_TRUE(c.torch);
  EXPECT_EQ(c.torch->version, "2.7.1+cu128");
  EXPECT_EQ(c.torch->git_version, "abc");
  ASSERT_EQ(c.torch->gpu_code.size(), 1u);
  EXPECT_EQ(c.torch->gpu_code[0].path, At("torch/lib/libtorch_cuda.so"));
  EXPECT_EQ(c.torch->gpu_code[0].cuda_cubins, (std::vector<std::string>{"sm_75", "sm_90"}));
  EXPECT_EQ(c.torch->gpu_code[0].cuda_ptx, (std::vector<std::string>{"compute_90"}));
  EXPECT_EQ(c.torch->arch_list, (std::vector<std::string>{"sm_75", "sm_90", "compute_90"}));
  ASSERT_TRUE(c.torch->runtime);
  EXPECT_EQ(c.torch->runtime->origin, "pip");
  EXPECT_EQ(c.torch->runtime->path, At("nvidia/cuda_runtime/lib/libcudart.so.12"));
  ASSERT_EQ(c.frameworks.size(), 1u);  // numpy is not followed; torch is c.torch
  EXPECT_EQ(c.frameworks[0].family, "torchvision");
  EXPECT_EQ(c.frameworks[0].backend, "cuda");
  ASSERT_TRUE(c.frameworks[0].runtime);
  EXPECT_EQ(c.frameworks[0].runtime->origin, "pip");
  // torch/lib holds libtorch_cuda.so; the two nvidia packages are GPU library folders by definition.
  ASSERT_EQ(c.gpu_libraries.size(), 3u);
  EXPECT_EQ(c.gpu_libraries[0].provider, "torch");
  EXPECT_EQ(c.gpu_libraries[2].provider, "nvidia/cuda_runtime");
  EXPECT_EQ(c.gpu_libraries[2].runtimes, (std::vector<std::string>{"libcudart.so.12"}));
}

TEST(FrameworkScan, RocmTorchWithBundledRuntimeAndKernelFolder) {
  SysrootBuilder r;
  r.Write(At("torch/version.py"), "__version__ = '2.5.1+rocm6.2'\nhip = '6.2.41133'\n");
  CopyFixture(r, "hip_gfx900_gfx1030_gfx90a.so", At("torch/lib/libtorch_hip.so"));
  r.Write(At("torch/lib/libamdhip64.so"), "");
  r.Write(At("torch/lib/rocblas/library/TensileLibrary_lazy_gfx1030.dat"), "");
  r.Write(At("torch/lib/rocblas/library/TensileLibrary_lazy_gfx90a.dat"), "");
  r.Write(At("torch/lib/hipblaslt/library/TensileLibrary_gfx90a.co"), "");
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  ASSERT_TRUE(c.torch);
  ASSERT_EQ(c.torch->gpu_code.size(), 1u);
  EXPECT_EQ(c.torch->gpu_code[0].amd, (std::vector<std::string>{"gfx1030", "gfx900", "gfx90a:xnack-"}));
  EXPECT_EQ(c.torch->arch_list, (std::vector<std::string>{"gfx900", "gfx90a", "gfx1030"}));
  ASSERT_EQ(c.torch->kernel_libraries.size(), 2u);
  EXPECT_EQ(c.torch->kernel_libraries[0].library, "rocblas");
  EXPECT_EQ(c.torch->kernel_libraries[0].gfx, (std::vector<std::string>{"gfx90a", "gfx1030"}));
  EXPECT_EQ(c.torch->kernel_libraries[1].library, "hipblaslt");
  ASSERT_TRUE(c.torch->runtime);
  EXPECT_EQ(c.torch->runtime->library, "libamdhip64");
  EXPECT_EQ(c.torch->runtime->origin, "bundled");
}

TEST(FrameworkScan, WindowsLayoutTorchCudaDll) {
  SysrootBuilder r;
  r.Write(At("torch/version.py"), "__version__ = '2.7.1+cu128'\ncuda = '12.8'\n");
  CopyFixture(r, "fatbins_mingw.dll", At("torch/lib/torch_cuda.dll"));
  r.Write(At("torch/lib/cudart64_12.dll"), "");
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  ASSERT_TRUE(c.torch);
  ASSERT_EQ(c.torch->gpu_code.size(), 1u);
  EXPECT_EQ(c.torch->gpu_code[0].cuda_cubins, (std::vector<std::string>{"sm_75", "sm_90"}));
  ASSERT_TRUE(c.torch->runtime);
  EXPECT_EQ(c.torch->runtime->origin, "bundled");
  EXPECT_EQ(c.torch->runtime->path, At("torch/lib/cudart64_12.dll"));
}

TEST(FrameworkScan, DamagedLibraryIsAWarningOnItsEntry) {
  SysrootBuilder r;
  r.Write(At("torch/version.py"), "__version__ = '2.7.1+cu128'\ncuda = '12.8'\n");
  auto bytes = testing::LoadBinaryFixture("cuda_sm75_sm90_ptx90.so");
  bytes.resize(bytes.size() / 2);
  r.Write(At("torch/lib/libtorch_cuda.so"), std::string(bytes.begin(), bytes.end()));
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  ASSERT_TRUE(c.torch);
  ASSERT_EQ(c.torch->gpu_code.size(), 1u);
  EXPECT_FALSE(c.torch->gpu_code[0].warnings.empty());
}

TEST(FrameworkScan, EveryFrameworkFamily) {
  SysrootBuilder r;
  Dist(r, "onnxruntime_rocm-1.22.1.dist-info", "onnxruntime-rocm", "1.22.1");
  Dist(r, "onnxruntime_gpu-1.22.0.dist-info", "onnxruntime-gpu", "1.22.0");
  Dist(r, "jax-0.7.1.dist-info", "jax", "0.7.1");
  Dist(r, "jax_cuda12_plugin-0.7.1.dist-info", "jax-cuda12-plugin", "0.7.1");
  Dist(r, "jax_rocm7_pjrt-0.7.1.dist-info", "jax-rocm7-pjrt", "0.7.1");
  Dist(r, "tensorflow_rocm-2.16.2.dist-info", "tensorflow-rocm", "2.16.2");
  Dist(r, "torch_directml-0.2.5.dev240914.dist-info", "torch-directml", "0.2.5.dev240914");
  Dist(r, "bitsandbytes-0.47.0.dist-info", "bitsandbytes", "0.47.0");
  Dist(r, "rocm_sdk_core-7.2.0.dist-info", "rocm-sdk-core", "7.2.0");
  r.Write(At("_rocm_sdk_core/lib/libamdhip64.so.7"), "");
  r.Write(At("onnxruntime/capi/libonnxruntime_providers_rocm.so"), "");
  r.Write(At("onnxruntime/capi/libonnxruntime_providers_shared.so"), "");
  r.Write(At("bitsandbytes/libbitsandbytes_cuda124.so"), "");
  r.Write(At("jax_plugins/xla_cuda12/xla_cuda_plugin.so"), "");
  // An egg-info file is the PKG-INFO itself.
  r.Write(At("torchaudio-2.7.1.egg-info"), "Metadata-Version: 1.2\nName: torchaudio\nVersion: 2.7.1\n");
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  EXPECT_TRUE(warnings.empty()) << ::testing::PrintToString(warnings);
  EXPECT_FALSE(c.torch);
  ASSERT_NE(Framework(c, "onnxruntime-rocm"), nullptr);
  EXPECT_EQ(Framework(c, "onnxruntime-rocm")->backend, "rocm");
  ASSERT_TRUE(Framework(c, "onnxruntime-rocm")->runtime);
  EXPECT_EQ(Framework(c, "onnxruntime-rocm")->runtime->origin, "rocm-sdk");
  EXPECT_EQ(Framework(c, "onnxruntime-gpu")->runtime->origin, "system");
  EXPECT_EQ(Framework(c, "jax-cuda12-plugin")->family, "jax-plugin");
  EXPECT_EQ(Framework(c, "jax-rocm7-pjrt")->backend, "rocm");
  EXPECT_EQ(Framework(c, "tensorflow-rocm")->family, "tensorflow");
  EXPECT_EQ(Framework(c, "torch-directml")->backend, "directml");
  EXPECT_FALSE(Framework(c, "torch-directml")->runtime);
  EXPECT_EQ(Framework(c, "bitsandbytes")->family, "bitsandbytes");
  EXPECT_EQ(Framework(c, "rocm-sdk-core")->family, "rocm-sdk");
  ASSERT_NE(Framework(c, "torchaudio"), nullptr);
  EXPECT_EQ(Framework(c, "torchaudio")->source, At("torchaudio-2.7.1.egg-info"));
  std::vector<std::string> providers;
  for (const auto& f : c.gpu_libraries) providers.push_back(f.provider);
  EXPECT_EQ(providers, (std::vector<std::string>{"_rocm_sdk_core", "onnxruntime", "jax_plugins/xla_cuda12",
                                                 "bitsandbytes"}));
}

// The add-ons built on torch are followed, with the torch release their METADATA pins; a bitsandbytes
// folder without a GPU library (a CPU-only build) is no GPU library folder.
TEST(FrameworkScan, AddonsWithTheTorchTheyPin) {
  SysrootBuilder r;
  r.Write(At("xformers-0.0.28.post3.dist-info/METADATA"),
          "Metadata-Version: 2.1\nName: xformers\nVersion: 0.0.28.post3\nRequires-Dist: numpy\n"
          "Requires-Dist: torch==2.5.1\n\nbody\n");
  Dist(r, "flash_attn-2.7.4.post1.dist-info", "flash_attn", "2.7.4.post1");
  Dist(r, "triton-3.2.0.dist-info", "triton", "3.2.0");
  Dist(r, "vllm-0.6.4.dist-info", "vllm", "0.6.4");
  Dist(r, "bitsandbytes-0.45.0.dist-info", "bitsandbytes", "0.45.0");
  r.Write(At("bitsandbytes/libbitsandbytes_cpu.so"), "");
  r.Mkdir(At("deepspeed-0.16.2.dist-info"));  // no METADATA: the folder name says the version, no pin
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  ASSERT_NE(Framework(c, "xformers"), nullptr);
  EXPECT_EQ(Framework(c, "xformers")->family, "xformers");
  EXPECT_EQ(Framework(c, "xformers")->torch_pin, "2.5.1");
  ASSERT_NE(Framework(c, "flash_attn"), nullptr);
  EXPECT_EQ(Framework(c, "flash_attn")->family, "flash-attn");
  EXPECT_EQ(Framework(c, "flash_attn")->torch_pin, "");
  EXPECT_EQ(Framework(c, "triton")->family, "triton");
  EXPECT_EQ(Framework(c, "vllm")->family, "vllm");
  ASSERT_NE(Framework(c, "deepspeed"), nullptr);
  EXPECT_EQ(Framework(c, "deepspeed")->version, "0.16.2");
  EXPECT_EQ(Framework(c, "bitsandbytes")->family, "bitsandbytes");
  EXPECT_TRUE(c.gpu_libraries.empty()) << c.gpu_libraries.front().provider;
}

// What data/addon_libraries.toml says proves a bitsandbytes GPU build is what the scanner records: a
// file of each gpu_files pattern makes bitsandbytes/ a GPU library folder (provider "bitsandbytes").
TEST(FrameworkScan, EveryBitsandbytesGpuFileOfTheKnowledgeBaseIsRecorded) {
  auto db = LoadEmbeddedKnowledge();
  ASSERT_TRUE(db.ok());
  const AddonLibrary* bnb = db->FindAddon("bitsandbytes");
  ASSERT_NE(bnb, nullptr);
  ASSERT_FALSE(bnb->gpu_files.empty());
  ASSERT_EQ(bnb->gpu_folders, (std::vector<std::string>{"bitsandbytes"}));
  for (std::string file : bnb->gpu_files) {
    file.replace(file.find('*'), 1, "124.so");
    SysrootBuilder r;
    Dist(r, "bitsandbytes-0.45.0.dist-info", "bitsandbytes", "0.45.0");
    r.Write(At("bitsandbytes/" + file), "");
    std::vector<std::string> warnings;
    auto c = Scan(r, warnings);
    ASSERT_EQ(c.gpu_libraries.size(), 1u) << file;
    EXPECT_EQ(c.gpu_libraries[0].provider, "bitsandbytes") << file;
  }
}

TEST(FrameworkScan, VersionFilesWhenThereIsNoMetadata) {
  SysrootBuilder r;
  r.Write(At("torchvision/version.py"), "__version__ = '0.14.1a0'\ngit_version = 'Unknown'\n");
  Dist(r, "torch-2.6.0.dist-info", "torch", "2.6.0");  // torch without version.py: incomplete
  r.Mkdir(At("broken-1.0.dist-info"));
  r.Mkdir(At("torchaudio-2.6.0.dist-info"));  // no METADATA: the folder name says the version
  std::vector<std::string> warnings;
  auto c = Scan(r, warnings);
  ASSERT_NE(Framework(c, "torchvision"), nullptr);
  EXPECT_EQ(Framework(c, "torchvision")->version, "0.14.1a0");
  EXPECT_EQ(Framework(c, "torchvision")->source, At("torchvision/version.py"));
  ASSERT_NE(Framework(c, "torchaudio"), nullptr);
  EXPECT_EQ(Framework(c, "torchaudio")->version, "2.6.0");
  ASSERT_TRUE(c.torch);
  EXPECT_EQ(c.torch->version, "2.6.0");
  EXPECT_TRUE(testing::HasWarning(warnings, "no torch/version.py"));
  EXPECT_TRUE(testing::HasWarning(warnings, "torchaudio-2.6.0.dist-info/METADATA"));
}

GpuCodeLibrary Lib(std::vector<std::string> cubins, std::vector<std::string> ptx,
                   std::vector<std::string> amd) {
  GpuCodeLibrary l;
  l.cuda_cubins = std::move(cubins);
  l.cuda_ptx = std::move(ptx);
  l.amd = std::move(amd);
  return l;
}

TEST(ArchList, AsTorchCudaGetArchListShowsIt) {
  // libtorch_cuda.so of the cu130 wheel holds sm_90a and sm_100a beside sm_90 and sm_100;
  // torch.cuda.get_arch_list() names the base targets only.
  EXPECT_EQ(
      ArchListOf({Lib({"sm_75", "sm_90", "sm_90a", "sm_100", "sm_100a", "sm_120"}, {"compute_120"}, {})}),
      (std::vector<std::string>{"sm_75", "sm_90", "sm_100", "sm_120", "compute_120"}));
  // A specific target without its base stays, as the build named it.
  EXPECT_EQ(ArchListOf({Lib({"sm_100f"}, {"compute_100f"}, {})}), (std::vector<std::string>{"sm_100f"}));
  EXPECT_EQ(
      ArchListOf({Lib({}, {}, {"gfx90a:xnack-", "gfx1100", "gfx90a:xnack+", "gfx942:sramecc+:xnack-"})}),
      (std::vector<std::string>{"gfx90a", "gfx942", "gfx1100"}));
  EXPECT_TRUE(ArchListOf({}).empty());
}

TEST(ArchList, CountedCubinsLeaveOutTheArchsOfAFewSpecialKernels) {
  // The shape of torch 2.11+cu130's libtorch_cuda.so: its build targets hold a cubin per compiled file,
  // sm_89 and the "a" archs only a few attention and fp8 kernels.
  GpuCodeLibrary lib = Lib({"sm_75", "sm_80", "sm_89", "sm_90", "sm_90a", "sm_103a", "sm_121a"}, {}, {});
  lib.cuda_cubin_images = {{"sm_75", 400}, {"sm_80", 410}, {"sm_89", 12}, {"sm_90", 420},
                           {"sm_90a", 40}, {"sm_103a", 9}, {"sm_121a", 9}};
  EXPECT_EQ(ArchListOf({lib}), (std::vector<std::string>{"sm_75", "sm_80", "sm_90"}));
  // Half the most common one is enough to count as a target.
  lib.cuda_cubin_images["sm_89"] = 210;
  EXPECT_EQ(ArchListOf({lib}), (std::vector<std::string>{"sm_75", "sm_80", "sm_89", "sm_90"}));
  // A library whose cubins were not counted (an older snapshot) keeps every arch.
  lib.cuda_cubin_images.clear();
  EXPECT_EQ(ArchListOf({lib}),
            (std::vector<std::string>{"sm_75", "sm_80", "sm_89", "sm_90", "sm_103a", "sm_121a"}));
}

TEST(RandomAccess, ReadsUnderTheSysrootAndRefusesPastTheEnd) {
  SysrootBuilder r;
  r.Write("/data/file.bin", "0123456789");
  auto fs = MakeRootedFileSystem(r.root());
  auto file = fs->OpenForReading("/data/file.bin");
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ((*file)->Size(), 10u);
  std::vector<uint8_t> buf(4);
  ASSERT_TRUE((*file)->ReadAt(3, buf).ok());
  EXPECT_EQ(std::string(buf.begin(), buf.end()), "3456");
  EXPECT_FALSE((*file)->ReadAt(8, buf).ok());
  EXPECT_FALSE(fs->OpenForReading("/data").ok());
  EXPECT_FALSE(fs->OpenForReading("/missing").ok());
}

}  // namespace
}  // namespace gpudoctor
