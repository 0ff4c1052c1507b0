// What each recorded machine must be found to hold, independent of how reports render
// it: the facts in tests/fixtures/sysroot/<machine>/README.md, asserted on the Snapshot.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"

namespace gpudoctor {
namespace {

// The built-in knowledge base, as `gpudoctor info` uses it (loaded once).
const KnowledgeDb& KnowledgeBase() {
  static const KnowledgeDb db = LoadEmbeddedKnowledge().value();
  return db;
}

constexpr uint64_t kGiB = 1ull << 30;

Snapshot Probe(const std::string& machine) {
  ProbeInputs in = MakeRecordedInputs(
      std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/" + machine, &KnowledgeBase());
  EXPECT_TRUE(in.warnings.empty()) << machine << ": " << (in.warnings.empty() ? "" : in.warnings.front());
  return ProbeWithInputs(in);
}

std::vector<const Gpu*> GpusOf(const Snapshot& s, GpuVendor vendor) {
  std::vector<const Gpu*> out;
  for (const auto& g : s.gpus) {
    if (g.vendor == vendor) out.push_back(&g);
  }
  return out;
}

const Gpu* GpuWithArch(const Snapshot& s, const std::string& arch) {
  for (const auto& g : s.gpus) {
    if (g.architecture == arch) return &g;
  }
  return nullptr;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const RuntimeInstall* Runtime(const Snapshot& s, const std::string& kind) {
  for (const auto& r : s.runtimes) {
    if (r.kind == kind) return &r;
  }
  return nullptr;
}

const DeviceNodeAccess* Node(const Snapshot& s, const std::string& path) {
  for (const auto& n : s.amd.device_nodes) {
    if (n.path == path) return &n;
  }
  return nullptr;
}

TEST(RecordedMachineFacts, Rx6700XtDesktop) {
  Snapshot s = Probe("rx6700xt-desktop");
  EXPECT_FALSE(s.live_machine);
  EXPECT_EQ(s.host_name, "alice-desktop");
  EXPECT_EQ(s.os.distro_id, "ubuntu");
  EXPECT_EQ(s.os.distro_version, "22.04");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-45-generic");
  EXPECT_FALSE(s.os.wsl);
  EXPECT_EQ(s.cpu.logical_cores, 16u);
  EXPECT_EQ(s.cpu.physical_cores, 8u);
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.vendor, GpuVendor::kAmd);
  EXPECT_EQ(g.architecture, "gfx1031");
  EXPECT_EQ(g.driver, "amdgpu");
  EXPECT_EQ(g.compute_units, 40u);
  EXPECT_EQ(g.vram_bytes, 12 * kGiB);
  EXPECT_EQ(g.pci_address, "0000:03:00.0");
  EXPECT_EQ(g.integrated, false);
  EXPECT_TRUE(Contains(g.name, "6700 XT")) << g.name;
  ASSERT_EQ(s.amd.kfd_nodes.size(), 1u) << "CPU nodes are not GPU nodes";
  EXPECT_EQ(s.amd.kfd_nodes[0].gfx_target_version, 100301u);
  EXPECT_EQ(s.environment["HSA_OVERRIDE_GFX_VERSION"], "10.3.0");
  const RuntimeInstall* rocm = Runtime(s, "rocm");
  ASSERT_NE(rocm, nullptr);
  EXPECT_TRUE(Contains(rocm->version, "6.2.0")) << rocm->version;
  const DeviceNodeAccess* kfd = Node(s, "/dev/kfd");
  ASSERT_NE(kfd, nullptr);
  EXPECT_TRUE(kfd->exists);
  EXPECT_EQ(kfd->accessible, true) << "alice is in group render";
}

TEST(RecordedMachineFacts, Rx7900XtxWithRaphaelIgpu) {
  Snapshot s = Probe("rx7900xtx-raphael");
  EXPECT_EQ(s.os.distro_version, "24.04");
  EXPECT_EQ(s.gpus.size(), 2u);
  const Gpu* d = GpuWithArch(s, "gfx1100");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->integrated, false);
  EXPECT_EQ(d->compute_units, 96u);
  EXPECT_EQ(d->vram_bytes, 24 * kGiB);
  EXPECT_TRUE(Contains(d->name, "7900 XTX")) << d->name;
  const Gpu* i = GpuWithArch(s, "gfx1036");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->integrated, true);
  EXPECT_EQ(i->compute_units, 2u);
  EXPECT_EQ(i->pci_address, "0000:13:00.0");
  const DeviceNodeAccess* kfd = Node(s, "/dev/kfd");
  ASSERT_NE(kfd, nullptr);
  EXPECT_TRUE(kfd->exists);
  EXPECT_EQ(kfd->accessible, false) << "bob is in neither render nor video";
  EXPECT_EQ(Runtime(s, "rocm"), nullptr);
}

TEST(RecordedMachineFacts, Mi300xEightGpuNode) {
  Snapshot s = Probe("mi300x-8gpu-node");
  EXPECT_EQ(s.cpu.sockets, 2u);
  EXPECT_EQ(s.cpu.logical_cores, 192u);
  // The BMC's ASPEED display adapter is a display device, not a GPU (like the VM's QEMU VGA).
  EXPECT_EQ(s.gpus.size(), 8u);
  auto amd = GpusOf(s, GpuVendor::kAmd);
  ASSERT_EQ(amd.size(), 8u);
  for (const Gpu* g : amd) {
    EXPECT_EQ(g->architecture, "gfx942");
    EXPECT_EQ(g->compute_units, 304u);
    EXPECT_EQ(g->vram_bytes, 192 * kGiB);
    EXPECT_EQ(g->integrated, false);
    EXPECT_TRUE(Contains(g->name, "MI300X")) << g->name;
  }
  ASSERT_EQ(s.amd.kfd_nodes.size(), 8u);
  for (const auto& n : s.amd.kfd_nodes) {
    EXPECT_EQ(n.num_xcc, 8u);
    EXPECT_EQ(n.hive_id, s.amd.kfd_nodes[0].hive_id);
    EXPECT_NE(n.hive_id.value_or(0), 0u);
  }
  EXPECT_EQ(s.amd.amdgpu_module_version, "6.8.5");
  const RuntimeInstall* rocm = Runtime(s, "rocm");
  ASSERT_NE(rocm, nullptr);
  EXPECT_TRUE(Contains(rocm->version, "6.2.4")) << rocm->version;
}

TEST(RecordedMachineFacts, StrixHaloLaptop) {
  Snapshot s = Probe("strix-halo-laptop");
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.architecture, "gfx1151");
  EXPECT_EQ(g.compute_units, 40u);
  EXPECT_EQ(g.integrated, true);
  EXPECT_TRUE(Contains(g.name, "8060S")) << g.name;
  EXPECT_EQ(s.cpu.logical_cores, 32u);
}

TEST(RecordedMachineFacts, H100SxmServer) {
  Snapshot s = Probe("h100-sxm-server");
  EXPECT_EQ(s.nvidia.driver_version, "570.124.06");
  EXPECT_EQ(s.nvidia.cuda_driver_version, 12080u);
  ASSERT_EQ(s.nvidia.devices.size(), 8u);
  EXPECT_EQ(s.gpus.size(), 8u) << "the ASPEED BMC display is not a GPU";
  auto nv = GpusOf(s, GpuVendor::kNvidia);
  ASSERT_EQ(nv.size(), 8u);
  for (const Gpu* g : nv) {
    EXPECT_EQ(g->architecture, "sm_90");
    EXPECT_EQ(g->name, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(g->driver, "nvidia");
    EXPECT_EQ(g->vram_bytes, 85520809984u);
    EXPECT_TRUE(g->nvml_index.has_value());
  }
  EXPECT_EQ(nv[0]->pci_address, "0000:18:00.0");
  const RuntimeInstall* cuda = Runtime(s, "cuda-toolkit");
  ASSERT_NE(cuda, nullptr);
  EXPECT_TRUE(Contains(cuda->version, "12.8")) << cuda->version;
}

TEST(RecordedMachineFacts, NouveauLaptop) {
  Snapshot s = Probe("nouveau-laptop");
  EXPECT_EQ(s.os.distro_id, "fedora");
  auto nv = GpusOf(s, GpuVendor::kNvidia);
  ASSERT_EQ(nv.size(), 1u);
  EXPECT_EQ(nv[0]->driver, "nouveau");
  EXPECT_EQ(nv[0]->architecture, "sm_75") << "TU117 is Turing";
  EXPECT_FALSE(s.nvidia.driver_version.has_value()) << "no /proc/driver/nvidia with nouveau";
  auto intel = GpusOf(s, GpuVendor::kIntel);
  ASSERT_EQ(intel.size(), 1u);
  EXPECT_EQ(intel[0]->driver, "i915");
  EXPECT_EQ(intel[0]->integrated, true);
}

TEST(RecordedMachineFacts, Wsl2Guest) {
  Snapshot s = Probe("wsl2-guest");
  EXPECT_TRUE(s.os.wsl);
  EXPECT_FALSE(s.os.wsl_evidence.empty());
  EXPECT_TRUE(GpusOf(s, GpuVendor::kAmd).empty());
  EXPECT_TRUE(GpusOf(s, GpuVendor::kNvidia).empty()) << "WSL shows only Microsoft's GPU-PV adapter";
  EXPECT_FALSE(s.amd.kfd_topology_present);
}

TEST(RecordedMachineFacts, VmWithoutGpu) {
  Snapshot s = Probe("vm-no-gpu");
  EXPECT_EQ(s.os.distro_id, "debian");
  EXPECT_EQ(s.os.distro_version, "12");
  EXPECT_FALSE(s.os.wsl);
  EXPECT_TRUE(s.gpus.empty()) << "a QEMU standard VGA is not a GPU";
  EXPECT_FALSE(s.looked_at.empty()) << "a report with no GPU says where it looked";
}

// Issue 29's add-on machines: what the probe reads from their METADATA and library folders, files only.
const PythonEnv& VenvOf(const Snapshot& s) {
  for (const auto& e : s.python_envs)
    if (e.path == "/home/erin/.venv") return e;
  ADD_FAILURE() << "no /home/erin/.venv";
  return s.python_envs.front();
}

const FrameworkInstall* FrameworkNamed(const PythonEnv& e, const std::string& name) {
  for (const auto& f : e.frameworks)
    if (f.name == name) return &f;
  return nullptr;
}

bool HasLibraryFolder(const PythonEnv& e, const std::string& provider) {
  return std::any_of(e.gpu_libraries.begin(), e.gpu_libraries.end(),
                     [&](const GpuLibraryFolder& f) { return f.provider == provider; });
}

TEST(RecordedMachineFacts, Rtx4090WithXformersBuiltForAnotherTorch) {
  Snapshot s = Probe("rtx4090-xformers-desktop");
  auto nv = GpusOf(s, GpuVendor::kNvidia);
  ASSERT_EQ(nv.size(), 1u);
  EXPECT_EQ(nv[0]->architecture, "sm_89");
  const PythonEnv& e = VenvOf(s);
  ASSERT_TRUE(e.torch);
  EXPECT_EQ(e.torch->version, "2.6.0+cu124");
  const FrameworkInstall* x = FrameworkNamed(e, "xformers");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->family, "xformers");
  EXPECT_EQ(x->version, "0.0.28.post3");
  EXPECT_EQ(x->torch_pin, "2.5.1");
  ASSERT_NE(FrameworkNamed(e, "torchvision"), nullptr);
  EXPECT_EQ(FrameworkNamed(e, "torchvision")->torch_pin, "2.6.0");
}

TEST(RecordedMachineFacts, Rtx3090WithACpuOnlyBitsandbytes) {
  Snapshot s = Probe("rtx3090-bnb-cpu-only");
  EXPECT_EQ(GpusOf(s, GpuVendor::kNvidia).size(), 1u);
  const PythonEnv& e = VenvOf(s);
  ASSERT_NE(FrameworkNamed(e, "bitsandbytes"), nullptr);
  EXPECT_EQ(FrameworkNamed(e, "bitsandbytes")->version, "0.45.0");
  EXPECT_FALSE(HasLibraryFolder(e, "bitsandbytes")) << "libbitsandbytes_cpu.so is no GPU library";
  EXPECT_TRUE(HasLibraryFolder(e, "nvidia/cuda_runtime"));
}

// Issue 30: the project beside ~/ai/.venv, read through the sysroot (PWD ~/ai); phoenix-apu-laptop has none.
TEST(RecordedMachineFacts, PhoenixProjectsPinTheCpuTorch) {
  EXPECT_FALSE(Probe("phoenix-apu-laptop").python_envs.at(0).project);
  Snapshot pip = Probe("phoenix-pinned-project");
  ASSERT_EQ(pip.python_envs.size(), 1u);
  ASSERT_TRUE(pip.python_envs[0].project);
  const PythonProject& p = *pip.python_envs[0].project;
  EXPECT_EQ(p.folder, "/home/greta/ai");
  EXPECT_EQ(p.manager, "pip");
  ASSERT_EQ(p.pins.size(), 3u);  // numpy and pillow are no GPU packages
  EXPECT_EQ(p.pins[0].line, 5u);
  EXPECT_EQ(p.pins[0].spec, "==2.7.1+cpu");
  EXPECT_EQ(p.pins[0].index_url, "https://download.pytorch.org/whl/cpu");  // the --extra-index-url of line 2
  Snapshot uv = Probe("phoenix-uv-project");
  ASSERT_TRUE(uv.python_envs.at(0).project);
  const PythonProject& u = *uv.python_envs[0].project;
  EXPECT_EQ(u.manager, "uv");
  EXPECT_EQ(u.files, (std::vector<std::string>{"/home/greta/ai/pyproject.toml", "/home/greta/ai/uv.lock"}));
  ASSERT_EQ(u.pins.size(), 9u);  // 3 dependencies, 3 sources, 3 locked packages (not the project's own)
  EXPECT_EQ(u.pins[3].line, 15u);
  EXPECT_EQ(u.pins[3].index_url, "https://download.pytorch.org/whl/cpu");
  EXPECT_EQ(u.pins[6].spec, "==2.7.1+cpu");
}

TEST(RecordedMachineFacts, Rtx4070WithACuda11OnnxruntimeGpu) {
  Snapshot s = Probe("rtx4070-onnxruntime-cu11");
  const PythonEnv& e = VenvOf(s);
  const FrameworkInstall* ort = FrameworkNamed(e, "onnxruntime-gpu");
  ASSERT_NE(ort, nullptr);
  EXPECT_EQ(ort->version, "1.17.1");
  EXPECT_EQ(ort->backend, "cuda");
  EXPECT_EQ(FrameworkNamed(e, "onnxruntime"), nullptr) << "only the GPU package is installed";
  EXPECT_TRUE(HasLibraryFolder(e, "onnxruntime"));
  EXPECT_TRUE(HasLibraryFolder(e, "nvidia/cudnn"));
  bool cudart12 = false;
  for (const auto& f : e.gpu_libraries)
    for (const auto& r : f.runtimes)
      cudart12 |= f.provider == "nvidia/cuda_runtime" && r == "libcudart.so.12";
  EXPECT_TRUE(cudart12);
}

// The machines added for issues 29 and 30 on 2026-12-05, as their READMEs describe them.
TEST(RecordedMachineFacts, Rx7800XtOnAnOldWheel) {
  Snapshot s = Probe("rx7800xt-old-wheel");
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "gfx1101");
  EXPECT_EQ(s.gpus[0].name, "Radeon RX 7800 XT");
  EXPECT_EQ(s.gpus[0].compute_units, 60u);
  EXPECT_EQ(s.gpus[0].vram_bytes, 17163091968ull);
  ASSERT_EQ(s.python_envs.size(), 1u);
  ASSERT_TRUE(s.python_envs[0].torch.has_value());
  EXPECT_EQ(s.python_envs[0].torch->version, "2.2.2+rocm5.7");
  EXPECT_EQ(s.environment.count("HSA_OVERRIDE_GFX_VERSION"), 0u);
}

TEST(RecordedMachineFacts, Gtx1080AfterADriverUpgradeWithoutAReboot) {
  Snapshot s = Probe("gtx1080-driver-upgraded");
  EXPECT_EQ(s.nvidia.driver_version, "570.153.02");
  EXPECT_EQ(s.nvidia.driver_version_source, "/proc/driver/nvidia/version");
  const RuntimeInstall* cuda = Runtime(s, "libcuda");
  ASSERT_NE(cuda, nullptr);
  EXPECT_EQ(cuda->version, "580.95.05");
  ASSERT_TRUE(s.nvidia.module_kernels.has_value());
  EXPECT_EQ(*s.nvidia.module_kernels, std::vector<std::string>{"6.8.0-60-generic"});
  EXPECT_FALSE(s.os.secure_boot.has_value());
}

TEST(RecordedMachineFacts, Rtx3060ModuleRefusedBySecureBoot) {
  Snapshot s = Probe("rtx3060-secure-boot");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-60-generic");
  EXPECT_EQ(s.os.secure_boot, true);
  ASSERT_TRUE(s.nvidia.module_kernels.has_value());
  EXPECT_EQ(*s.nvidia.module_kernels, std::vector<std::string>{"6.8.0-60-generic"});
  EXPECT_FALSE(s.nvidia.driver_version.has_value());  // not loaded
}

TEST(RecordedMachineFacts, Rtx3060AfterAKernelUpdateWithoutItsModule) {
  Snapshot s = Probe("rtx3060-new-kernel");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-60-generic");
  ASSERT_TRUE(s.nvidia.module_kernels.has_value());
  EXPECT_EQ(*s.nvidia.module_kernels, std::vector<std::string>{"6.8.0-57-generic"});
  EXPECT_FALSE(s.os.secure_boot.has_value());
  // The machine it was made from records neither /lib/modules nor efivarfs.
  Snapshot base = Probe("rtx3060-desktop");
  EXPECT_FALSE(base.nvidia.module_kernels.has_value());
  EXPECT_FALSE(base.os.secure_boot.has_value());
}

TEST(RecordedMachineFacts, Rx7900XtxAmdgpuDkmsRefusedBySecureBoot) {
  Snapshot s = Probe("rx7900xtx-dkms-secure-boot");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-47-generic");
  EXPECT_EQ(s.os.secure_boot, true);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "gfx1100");
  EXPECT_FALSE(s.amd.amdgpu_module_loaded);
  ASSERT_TRUE(s.amd.module_kernels.has_value());
  EXPECT_EQ(*s.amd.module_kernels, std::vector<std::string>{"6.8.0-47-generic"});
  EXPECT_EQ(s.amd.dkms_module_kernels, std::vector<std::string>{"6.8.0-47-generic"});
  EXPECT_TRUE(s.python_envs.empty());
}

TEST(RecordedMachineFacts, Rx7900XtxKernelWithoutModulesExtra) {
  Snapshot s = Probe("rx7900xtx-no-modules-extra");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-50-generic");
  EXPECT_FALSE(s.os.secure_boot.has_value());
  EXPECT_FALSE(s.amd.amdgpu_module_loaded);
  ASSERT_TRUE(s.amd.module_kernels.has_value());
  EXPECT_EQ(*s.amd.module_kernels, std::vector<std::string>{"6.8.0-47-generic"});
  EXPECT_TRUE(s.amd.dkms_module_kernels.empty());
  // The machine both were made from records no /lib/modules; its amdgpu is loaded.
  Snapshot base = Probe("rx7900xtx-raphael");
  EXPECT_TRUE(base.amd.amdgpu_module_loaded);
  EXPECT_FALSE(base.amd.module_kernels.has_value());
}

}  // namespace
}  // namespace gpudoctor
