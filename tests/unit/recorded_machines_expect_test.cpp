// What each recorded machine must be found to hold, independent of how reports render
// it: the facts in tests/fixtures/sysroot/<machine>/README.md, asserted on the Snapshot.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "rules_test_util.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

using testing::Contains;
using testing::kGiB;
using testing_rules::Db;

Snapshot Probe(const std::string& machine) {
  ProbeInputs in =
      MakeRecordedInputs(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/" + machine, &Db());
  EXPECT_TRUE(in.warnings.empty()) << machine << ": " << (in.warnings.empty() ? "" : in.warnings.front());
  return ProbeMachine(in);
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

// Issue 29: h100-sxm-server records no NVSwitch, so Fabric Manager is not looked at there.
TEST(RecordedMachineFacts, H100SxmServerHasNoFabricManagerFacts) {
  EXPECT_FALSE(Probe("h100-sxm-server").nvidia.fabric_manager.has_value());
}

// The HGX H100 copies of h100-sxm-server with their four NVSwitches (issue 29's Fabric Manager check).
TEST(RecordedMachineFacts, HgxH100WithoutFabricManager) {
  Snapshot s = Probe("hgx-h100-no-fabric-manager");
  EXPECT_EQ(s.nvidia.driver_version, "570.124.06");
  EXPECT_EQ(GpusOf(s, GpuVendor::kNvidia).size(), 8u) << "the NVSwitches are not GPUs";
  ASSERT_TRUE(s.nvidia.fabric_manager.has_value());
  const FabricManagerInfo& fm = *s.nvidia.fabric_manager;
  EXPECT_EQ(fm.nvswitches, 4u);
  EXPECT_EQ(fm.binary, "");
  EXPECT_EQ(fm.unit, "");
  EXPECT_FALSE(fm.enabled);
  EXPECT_EQ(fm.package, "") << "nvidia-fabricmanager-550 is removed (config files only)";
  EXPECT_EQ(fm.version_source, "/var/lib/dpkg/status");
}

TEST(RecordedMachineFacts, HgxH100WithAnOlderFabricManager) {
  Snapshot s = Probe("hgx-h100-fabric-manager-old");
  ASSERT_TRUE(s.nvidia.fabric_manager.has_value());
  const FabricManagerInfo& fm = *s.nvidia.fabric_manager;
  EXPECT_EQ(fm.nvswitches, 4u);
  EXPECT_EQ(fm.binary, "/usr/bin/nv-fabricmanager");
  EXPECT_EQ(fm.unit, "/lib/systemd/system/nvidia-fabricmanager.service");
  EXPECT_TRUE(fm.enabled);
  EXPECT_EQ(fm.package, "nvidia-fabricmanager-570");
  EXPECT_EQ(fm.version, "570.86.15");
  EXPECT_EQ(fm.nvlsm_version, "");
}

TEST(RecordedMachineFacts, HgxH100WithFabricManager) {
  Snapshot s = Probe("hgx-h100-fabric-manager");
  ASSERT_TRUE(s.nvidia.fabric_manager.has_value());
  const FabricManagerInfo& fm = *s.nvidia.fabric_manager;
  EXPECT_EQ(fm.nvswitches, 4u);
  EXPECT_TRUE(fm.enabled);
  EXPECT_EQ(fm.version, "570.124.06");
  EXPECT_EQ(fm.version, s.nvidia.driver_version);
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

// Every Python environment found, "prefix (kind, Python X.Y): torch VERSION" or "...: no torch", in the
// probe's order: what a README lists of its environments.
std::vector<std::string> Envs(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& e : s.python_envs)
    out.push_back(e.path + " (" + e.kind + ", Python " + e.python_version +
                  "): " + (e.torch ? "torch " + e.torch->version : std::string("no torch")));
  return out;
}

std::vector<std::string> RuntimeKinds(const Snapshot& s) {
  std::vector<std::string> out;
  for (const auto& r : s.runtimes) out.push_back(r.kind + " " + r.version);
  return out;
}

// gtx1080-desktop's GPU, driver and venv, shared by the machines made from it.
void ExpectGtx1080DesktopHardwareAndVenv(const Snapshot& s, bool nvml_answers) {
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.vendor, GpuVendor::kNvidia);
  EXPECT_TRUE(Contains(g.name, "GTX 1080")) << g.name;
  EXPECT_EQ(g.architecture, "sm_61");
  EXPECT_EQ(g.driver, "nvidia");
  EXPECT_EQ(g.pci_address, "0000:01:00.0");
  EXPECT_EQ(s.os.distro_version, "24.04");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-60-generic");
  EXPECT_EQ(s.nvidia.driver_version, "570.153.02");
  EXPECT_EQ(s.nvidia.kernel_module, NvidiaKernelModule::kProprietary);
  if (nvml_answers) {
    EXPECT_EQ(g.vram_bytes, 8 * kGiB);
    EXPECT_EQ(s.nvidia.cuda_driver_version, 12080u);
    ASSERT_EQ(s.nvidia.devices.size(), 1u);
    EXPECT_EQ(s.nvidia.devices[0].cc_major, 6);
    EXPECT_EQ(s.nvidia.devices[0].cc_minor, 1);
    EXPECT_EQ(RuntimeKinds(s), (std::vector<std::string>{"libcuda 570.153.02", "nvml 570.153.02"}));
  } else {
    EXPECT_TRUE(s.nvidia.devices.empty());
    EXPECT_TRUE(s.runtimes.empty()) << "no libcuda or libnvidia-ml without --gpus";
  }
  EXPECT_EQ(Envs(s), std::vector<std::string>{"/home/erin/.venv (venv, Python 3.12): torch 2.7.1+cu128"});
}

TEST(RecordedMachineFacts, Gtx1080DesktopWithACu128Venv) {
  Snapshot s = Probe("gtx1080-desktop");
  EXPECT_EQ(s.cpu.logical_cores, 12u);
  EXPECT_EQ(s.cpu.physical_cores, 6u);
  EXPECT_FALSE(s.os.container.has_value());
  EXPECT_FALSE(s.os.virtual_machine.has_value());
  ExpectGtx1080DesktopHardwareAndVenv(s, /*nvml_answers=*/true);
  ASSERT_EQ(s.python_envs.size(), 1u);
  EXPECT_TRUE(s.python_envs[0].active) << "VIRTUAL_ENV names it";
}

TEST(RecordedMachineFacts, Gtx1080InADockerContainerWithoutGpus) {
  Snapshot s = Probe("docker-gtx1080-no-gpus");
  EXPECT_EQ(s.os.container, "docker");
  ExpectGtx1080DesktopHardwareAndVenv(s, /*nvml_answers=*/false);
}

TEST(RecordedMachineFacts, Gtx1080PassedThroughToAKvmGuest) {
  Snapshot s = Probe("kvm-gtx1080-passthrough");
  EXPECT_EQ(s.host_name, "erin-vm");
  EXPECT_EQ(s.os.virtual_machine, "KVM/QEMU");
  EXPECT_FALSE(s.os.container.has_value());
  ExpectGtx1080DesktopHardwareAndVenv(s, /*nvml_answers=*/true);
}

TEST(RecordedMachineFacts, Rtx3060WithNoModuleLoaded) {
  Snapshot s = Probe("rtx3060-desktop");
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.vendor, GpuVendor::kNvidia);
  EXPECT_TRUE(Contains(g.name, "RTX 3060")) << g.name;
  EXPECT_EQ(g.architecture, "sm_86") << "from the PCI id alone (data/gpus_nvidia_ids.toml)";
  EXPECT_EQ(g.driver, "") << "no driver bound";
  EXPECT_FALSE(s.nvidia.driver_version.has_value());
  EXPECT_TRUE(s.nvidia.devices.empty()) << "no NVML answers";
  EXPECT_EQ(RuntimeKinds(s), (std::vector<std::string>{"libcuda 570.153.02", "nvml 570.153.02"}))
      << "the 570 user-space libraries are installed";
  EXPECT_EQ(Envs(s), std::vector<std::string>{"/home/erin/.venv (venv, Python 3.12): torch 2.7.1+cu128"});
}

TEST(RecordedMachineFacts, Rtx5090OnTheProprietaryModule) {
  Snapshot s = Probe("rtx5090-desktop");
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.vendor, GpuVendor::kNvidia);
  EXPECT_TRUE(Contains(g.name, "RTX 5090")) << g.name;
  EXPECT_EQ(g.architecture, "sm_120");
  EXPECT_EQ(g.driver, "nvidia");
  EXPECT_EQ(s.nvidia.driver_version, "580.95.05");
  EXPECT_EQ(s.nvidia.kernel_module, NvidiaKernelModule::kProprietary);
  EXPECT_TRUE(s.nvidia.devices.empty()) << "the GPU fails to initialize: NVML finds no device";
  EXPECT_EQ(RuntimeKinds(s), (std::vector<std::string>{"libcuda 580.95.05", "nvml 580.95.05"}));
  EXPECT_TRUE(Envs(s).empty()) << "no PyTorch is installed";
}

// rx6700xt-desktop's GPU, ROCm 6.2.0 and ~/.local torch, shared by the machines made from it.
// Not asserted yet: ROCm listed once (the probe lists /opt/rocm and the /opt/rocm-6.2.0 it links to; issue
// 37, audit 2.3).
void ExpectRx6700XtDesktopHardwareAndTorch(const Snapshot& s) {
  ASSERT_EQ(s.gpus.size(), 1u);
  const Gpu& g = s.gpus[0];
  EXPECT_EQ(g.vendor, GpuVendor::kAmd);
  EXPECT_EQ(g.architecture, "gfx1031");
  EXPECT_EQ(g.driver, "amdgpu");
  EXPECT_EQ(g.vram_bytes, 12 * kGiB);
  EXPECT_EQ(g.pci_address, "0000:03:00.0");
  EXPECT_EQ(s.os.distro_version, "22.04");
  const RuntimeInstall* rocm = Runtime(s, "rocm");
  ASSERT_NE(rocm, nullptr);
  EXPECT_TRUE(Contains(rocm->version, "6.2.0")) << rocm->version;
  EXPECT_EQ(Runtime(s, "libcuda"), nullptr);
  EXPECT_EQ(Envs(s), std::vector<std::string>{"/home/alice/.local (user, Python 3.10): torch 2.5.1+rocm6.2"});
}

TEST(RecordedMachineFacts, Rx6700XtInADockerContainerWithoutDevices) {
  Snapshot s = Probe("docker-rx6700xt-no-devices");
  EXPECT_EQ(s.os.container, "docker");
  ExpectRx6700XtDesktopHardwareAndTorch(s);
  const DeviceNodeAccess* kfd = Node(s, "/dev/kfd");
  EXPECT_TRUE(kfd == nullptr || !kfd->exists) << "no /dev/kfd in the container";
}

TEST(RecordedMachineFacts, Rx6700XtInAnX8Slot) {
  Snapshot s = Probe("rx6700xt-x8-slot");
  EXPECT_FALSE(s.os.container.has_value());
  ExpectRx6700XtDesktopHardwareAndTorch(s);
  const DeviceNodeAccess* kfd = Node(s, "/dev/kfd");
  ASSERT_NE(kfd, nullptr);
  EXPECT_TRUE(kfd->exists);
}

TEST(RecordedMachineFacts, Rx7900XtxLabWorkstationWithoutSudo) {
  Snapshot s = Probe("rx7900xtx-lab-no-sudo");
  EXPECT_EQ(s.host_name, "lab-ws07");
  EXPECT_EQ(s.user.name, "ana");
  for (const char* group : {"render", "video", "sudo", "adm"})
    EXPECT_EQ(std::find(s.user.group_names.begin(), s.user.group_names.end(), group),
              s.user.group_names.end())
        << group;
  EXPECT_FALSE(s.user.is_admin);
  EXPECT_EQ(s.gpus.size(), 2u);
  const Gpu* d = GpuWithArch(s, "gfx1100");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(Contains(d->name, "7900 XTX")) << d->name;
  EXPECT_EQ(d->vram_bytes, 24 * kGiB);
  const Gpu* i = GpuWithArch(s, "gfx1036");
  ASSERT_NE(i, nullptr);
  EXPECT_EQ(i->integrated, true);
  EXPECT_EQ(Runtime(s, "rocm"), nullptr) << "no ROCm";
  const DeviceNodeAccess* kfd = Node(s, "/dev/kfd");
  ASSERT_NE(kfd, nullptr);
  EXPECT_EQ(kfd->accessible, false) << "ana is in neither render nor video";
  EXPECT_TRUE(Envs(s).empty());
}

// phoenix-apu-laptop's Radeon 780M, no ROCm, and the CPU torch's venv in ~/ai (not activated); the two
// project machines add pin files beside it.
void ExpectPhoenixLaptop(const Snapshot& s) {
  EXPECT_EQ(s.os.distro_version, "24.04");
  EXPECT_EQ(s.os.kernel_release, "6.8.0-51-generic");
  EXPECT_EQ(s.cpu.logical_cores, 16u);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].driver, "amdgpu");
  EXPECT_EQ(s.gpus[0].vram_bytes, 512ull << 20) << "the UMA carve-out";
  EXPECT_TRUE(s.runtimes.empty()) << "no ROCm";
}

TEST(RecordedMachineFacts, PhoenixApuWithACpuTorch) {
  Snapshot s = Probe("phoenix-apu-laptop");
  ExpectPhoenixLaptop(s);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "gfx1103");
  EXPECT_EQ(s.gpus[0].integrated, true);
  EXPECT_EQ(Envs(s), std::vector<std::string>{"/home/greta/ai/.venv (venv, Python 3.12): torch 2.7.1+cpu"});
  ASSERT_EQ(s.python_envs.size(), 1u);
  EXPECT_FALSE(s.python_envs[0].active) << "the venv is not activated";
  EXPECT_FALSE(s.python_envs[0].project.has_value()) << "no pin file beside it";
}

// phoenix-apu-laptop with a project folder ~/ai holding the CPU torch's venv (not activated).
void ExpectPhoenixProject(const Snapshot& s) {
  ExpectPhoenixLaptop(s);
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].architecture, "gfx1103");
  EXPECT_EQ(s.gpus[0].integrated, true);
  EXPECT_TRUE(Contains(s.gpus[0].name, "780M")) << s.gpus[0].name;
  EXPECT_EQ(Envs(s), std::vector<std::string>{"/home/greta/ai/.venv (venv, Python 3.12): torch 2.7.1+cpu"});
  ASSERT_EQ(s.python_envs.size(), 1u);
  EXPECT_FALSE(s.python_envs[0].active) << "the venv is not activated";
  EXPECT_TRUE(s.python_envs[0].project.has_value()) << "its pin file is found";
}

TEST(RecordedMachineFacts, PhoenixWithARequirementsFile) {
  ExpectPhoenixProject(Probe("phoenix-pinned-project"));
}

TEST(RecordedMachineFacts, PhoenixInAUvProject) {
  ExpectPhoenixProject(Probe("phoenix-uv-project"));
}

// Every recorded machine has a facts test: a test of this file or of windows_recorded_machines_test.cpp that
// asserts on its snapshot (`Snapshot s = Probe("<machine>")` or `ExpectSomething(Probe("<machine>"))`, or
// ProbeWindowsRecorded there; a verdict test, `RunRules(Probe(...))`, is not one), so a golden report alone
// can never be the only thing that says what the machine holds. kWithoutFacts lists the machines that may
// lack one, each with why.
TEST(RecordedMachineFacts, EveryRecordedMachineHasAFactsTest) {
  // Machines that may lack a facts test, each with why: none today.
  const std::vector<std::string> kWithoutFacts = {};
  std::string sources;
  for (const char* file :
       {"/tests/unit/recorded_machines_expect_test.cpp", "/tests/unit/windows_recorded_machines_test.cpp"}) {
    std::ifstream in(std::string(GPUDOCTOR_SOURCE_DIR) + file, std::ios::binary);
    ASSERT_TRUE(in) << file;
    std::ostringstream text;
    text << in.rdbuf();
    sources += text.str();
  }
  const std::string fixtures = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/";
  int machines = 0;
  for (const auto& e : std::filesystem::directory_iterator(fixtures)) {
    if (!e.is_directory()) continue;
    ++machines;
    const std::string name = e.path().filename().string();
    const std::regex facts("Snapshot \\w+ = Probe\\w*\\(\"" + name + "\"\\)|Expect\\w+\\(Probe\\w*\\(\"" +
                           name + "\"\\)\\)");
    const bool probed = std::regex_search(sources, facts);
    const bool excused = std::find(kWithoutFacts.begin(), kWithoutFacts.end(), name) != kWithoutFacts.end();
    EXPECT_TRUE(probed || excused)
        << name
        << ": no facts test; assert what its README.md says (GPUs, one runtime per "
           "install, every Python environment with its torch) on its snapshot";
    EXPECT_FALSE(probed && excused) << name << " has a facts test now: take it out of kWithoutFacts";
  }
  EXPECT_GE(machines, 30);
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
