// Runs the four layers in order, and holds the catalogue of finding ids with their long explanation
// (`gpudoctor check --explain ID`): what each rule checks, why it matters, where it comes from.
#include "rules/rules.h"

#include "core/enum_names.h"

#include <algorithm>

#include "rules/knowledge_age.h"
#include "rules/rule_context.h"

namespace gpudoctor {

constexpr std::array kLayerNames = {
    EnumName<Layer>{Layer::kHardware, "hardware"},
    EnumName<Layer>{Layer::kRuntime, "runtime"},
    EnumName<Layer>{Layer::kFramework, "framework"},
    EnumName<Layer>{Layer::kEnvironment, "environment"},
};

const char* ToString(Layer l) {
  return NameIn(kLayerNames, l);
}

std::optional<Layer> LayerFromString(std::string_view s) {
  return ValueIn(kLayerNames, s);
}

const char* LayerTitle(Layer l) {
  switch (l) {
    case Layer::kHardware:
      return "Hardware";
    case Layer::kRuntime:
      return "Driver/runtime";
    case Layer::kFramework:
      return "Framework";
    case Layer::kEnvironment:
      return "Environment";
  }
  return "Hardware";
}

void SortWorstFirst(std::vector<Finding>& findings) {
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return a.layer < b.layer;
  });
}

Severity WorstSeverity(const std::vector<Finding>& findings) {
  Severity worst = Severity::kOk;
  for (const auto& f : findings) worst = std::max(worst, f.severity);
  return worst;
}

std::vector<Finding> RunAllRules(const Snapshot& snapshot, const KnowledgeDb& db,
                                 const RuleOptions& options) {
  RuleContext ctx(snapshot, db, options);
  std::vector<Finding> all;
  for (auto layer : {HardwareRules, TopologyRules, RuntimeRules, FrameworkRules, AddonRules, EnvironmentRules,
                     WindowsRules, WindowsVcRuntimeRules}) {
    for (auto& f : layer(ctx)) {
      if (f.severity == Severity::kOk && !options.include_ok) continue;
      all.push_back(std::move(f));
    }
  }
  if (!options.today.empty()) {
    if (auto stale = KnowledgeAgeFinding(db, options.today)) all.push_back(std::move(*stale));
  }
  return all;
}

const std::vector<RuleInfo>& AllRuleInfo() {
  static const std::vector<RuleInfo> kRules = {
      {"hardware.no_gpu", Layer::kHardware,
       "Whether the PCI bus holds an AMD or NVIDIA display, 3D or accelerator function.",
       "Without one, PyTorch runs on the CPU only; training is orders of magnitude slower.",
       "https://pytorch.org/get-started/locally/"},
      {"hardware.wsl_gpu_paravirtual", Layer::kHardware,
       "Under WSL2, whether the Windows NVIDIA driver is mapped in (/usr/lib/wsl/lib/libcuda.so).",
       "WSL shows only a virtual adapter on the PCI bus, so the GPU model and its compute capability cannot "
       "be "
       "read from Linux; `nvidia-smi` inside WSL shows them.",
       "https://learn.microsoft.com/windows/wsl/tutorials/gpu-compute"},
      {"hardware.gpu_known", Layer::kHardware,
       "Whether the GPU's PCI id (and revision) is in the knowledge base.",
       "Every later verdict (route, wheel targets, override) needs the gfx target or compute capability.",
       "data/gpus_amd*.toml, data/gpus_nvidia.toml (each entry names its source)"},
      {"hardware.gpu_unknown", Layer::kHardware,
       "Neither the GPU's PCI id nor its architecture is known (not in the knowledge base, no answer from "
       "NVML or KFD, no listed ids of one architecture around it).",
       "Its gfx target or compute capability is unknown, so wheel compatibility cannot be checked.",
       "https://github.com/pytorch/pytorch/blob/main/RELEASE.md"},
      {"hardware.gpu_name_unknown", Layer::kHardware,
       "The GPU's PCI id is not in the knowledge base, but its architecture is known: from the driver "
       "(NVML's compute capability, KFD's gfx_target_version), or, a warning, from the listed ids around it.",
       "The name is unknown but every later verdict only needs the gfx target or compute capability, so the "
       "checks go on with it.",
       "https://github.com/pciutils/pciids/blob/master/pci.ids"},
      {"hardware.gpu_not_usable", Layer::kHardware,
       "Whether any route in data/pytorch_routes.toml serves this GPU on this OS.",
       "GPUs older than every maintained wheel (GCN before gfx900, NVIDIA below compute capability 5.0) "
       "cannot run current PyTorch.",
       "https://pytorch.org/get-started/locally/"},
      {"hardware.gpu_wrong_results", Layer::kHardware,
       "Whether overrides.toml marks the GPU's own code as computing wrong results (native_wrong: gfx1033, "
       "the Steam Deck).",
       "There ROCm trains to wrong numbers without an error, with borrowed gfx103X code and with a native "
       "build alike, so no install route is offered: the CPU build or another GPU is the honest way out.",
       "https://github.com/unslothai/unsloth/pull/8412"},
      {"hardware.route", Layer::kHardware,
       "Which install route fits this GPU on this OS: official pytorch.org ROCm or CUDA wheels, AMD's "
       "Windows "
       "wheels, TheRock, ROCm on WSL2, ZLUDA, DirectML.",
       "The wrong route gives a PyTorch without code for the GPU. Official routes come first, then preview, "
       "nightly, community and legacy ones.",
       "data/pytorch_routes.toml"},
      {"hardware.vram_low", Layer::kHardware, "A discrete GPU with less than 8 GiB of memory.",
       "Fine-tuning and diffusion models rarely fit; expect out-of-memory errors.", ""},
      {"hardware.ram_low", Layer::kHardware,
       "System memory below about 32 GB (a rule of thumb of this tool).",
       "Checkpoints are loaded through RAM and data loaders need it; too little means swapping or crashes.",
       ""},
      {"hardware.disk_low", Layer::kHardware,
       "Free space in the home folder below about 100 GB (rule of thumb).",
       "A GPU PyTorch with its libraries takes several GB per environment; model weights tens of GB each.",
       ""},
      {"hardware.igpu_with_dgpu", Layer::kHardware,
       "An AMD integrated GPU visible to ROCm beside an AMD discrete GPU, and whether HIP_VISIBLE_DEVICES / "
       "ROCR_VISIBLE_DEVICES select the discrete one (its index among the AMD KFD GPU nodes, in KFD order).",
       "Wheels built for the dGPU's target crash or fail on the iGPU (hipErrorInvalidImage, segfaults), and "
       "device 0 may be the iGPU.",
       "https://github.com/pytorch/pytorch/issues/119637"},
      {"hardware.pcie_link_narrow", Layer::kHardware,
       "Whether the GPU's PCIe link, and the narrowest link between it and the CPU (the ports its sysfs path "
       "passes), is as wide as the GPU's max_link_width.",
       "A x16 card in a x8 slot (or behind a riser or chipset lanes) gets that share of host-to-GPU "
       "bandwidth: "
       "data loading and offloading slow down; AMD cards with their own switch show x16 on the GPU itself.",
       "https://docs.kernel.org/PCI/sysfs-pci.html"},
      {"hardware.virtual_machine", Layer::kHardware,
       "Whether Linux runs as a guest of a hypervisor (the CPU's hypervisor flag; DMI vendor and product), "
       "other than WSL2.",
       "A passed-through or virtual GPU leaves reset, power limits, the real PCIe link and (for NVIDIA vGPU) "
       "the driver release to the host; without a GPU passed through, the VM has none.",
       "https://docs.nvidia.com/vgpu/latest/grid-vgpu-user-guide/index.html"},
      {"hardware.xgmi_link_down", Layer::kHardware,
       "Whether every two AMD GPUs of one XGMI hive (the same non-zero hive_id in the KFD topology) reach "
       "each other over XGMI, directly or through other GPUs of the hive (KFD io_links / p2p_links of type "
       "11), as `gpudoctor topo` shows.",
       "The driver joins a hive's GPUs with XGMI; a pair that falls back to PCIe has a link down, and "
       "collectives across it (RCCL all-reduce) run at a fraction of the fabric's bandwidth.",
       "https://github.com/torvalds/linux/blob/master/drivers/gpu/drm/amd/amdkfd/kfd_topology.c"},
      {"hardware.gpus_across_numa", Layer::kHardware,
       "Whether two discrete GPUs of one vendor with no NVLink or XGMI between them sit on different NUMA "
       "nodes, so that their PCIe path crosses the CPUs' socket link (SYS in `gpudoctor topo`).",
       "NCCL calls this distance SYS: peer-to-peer traffic between them crosses the SMP interconnect (UPI, "
       "socket-to-socket Infinity Fabric); a job that fits on the GPUs of one node runs its collectives "
       "faster there, with its CPU threads and memory on that node too.",
       "https://docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html#nccl-p2p-level"},
      {"runtime.driver_ok", Layer::kRuntime,
       "The vendor's kernel driver (amdgpu, nvidia) is bound to each GPU.",
       "ROCm needs amdgpu (with KFD); CUDA needs NVIDIA's driver.", ""},
      {"runtime.driver_nouveau", Layer::kRuntime, "An NVIDIA GPU bound to the open-source nouveau driver.",
       "nouveau has no CUDA: PyTorch sees no GPU until NVIDIA's driver replaces it.",
       "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/"},
      {"runtime.driver_radeon", Layer::kRuntime, "An AMD GPU bound to the legacy radeon driver.",
       "ROCm works only with amdgpu; Sea Islands cards KFD drives (Kaveri, Hawaii) need kernel parameters to "
       "switch. On targets KFD has no device for (gfx600-602, gfx702-705) it is only information.",
       "https://wiki.archlinux.org/title/AMDGPU"},
      {"runtime.driver_vfio", Layer::kRuntime, "A GPU bound to vfio-pci (reserved for PCI passthrough).",
       "The host OS cannot use a GPU handed to virtual machines.",
       "https://docs.kernel.org/driver-api/vfio.html"},
      {"runtime.amdgpu_module_missing", Layer::kRuntime,
       "Linux, an AMD GPU with no driver bound: the installed kernels under /lib/modules with an amdgpu.ko "
       "(the kernel's own, or amdgpu-dkms's under updates/dkms) against the running kernel.",
       "Without amdgpu there is no /dev/kfd and no render node: ROCm and PyTorch see no GPU.",
       "https://rocm.docs.amd.com/projects/install-on-linux/en/docs-6.2.2/install/prerequisites.html"},
      {"runtime.amdgpu_module_refused", Layer::kRuntime,
       "Linux, an AMD GPU with no driver bound while amdgpu-dkms's module exists for the running kernel and "
       "Secure Boot is enforcing (efivarfs).",
       "The kernel refuses a module signed with a key it does not trust: no amdgpu, no /dev/kfd.",
       "https://wiki.ubuntu.com/UEFI/SecureBoot/DKMS"},
      {"runtime.driver_missing", Layer::kRuntime, "A GPU with no kernel driver bound.",
       "Without a driver no runtime can reach the GPU.",
       "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/quick-start.html"},
      {"runtime.kfd_missing", Layer::kRuntime, "/dev/kfd exists on a Linux machine with amdgpu bound.",
       "ROCm talks to the GPU only through /dev/kfd. On a GPU KFD has no device for (gfx600-602, gfx702-705, "
       "gfx810: no kfd_version in gfx_targets.toml) it is only information: no ROCm can use that GPU.",
       "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/quick-start.html"},
      {"runtime.container_gpu_not_mapped", Layer::kRuntime,
       "Inside a container: whether the host's GPU was passed in (NVIDIA: the driver's libcuda inside; AMD: "
       "/dev/kfd).",
       "A container sees the host's PCI devices through sysfs, but CUDA and ROCm reach the GPU only through "
       "the "
       "device nodes and driver libraries the container was started with: docker run --gpus all (NVIDIA "
       "Container "
       "Toolkit on the host), or --device=/dev/kfd --device=/dev/dri with the video and render groups for "
       "ROCm.",
       "https://docs.nvidia.com/datacenter/cloud-native/container-toolkit/latest/install-guide.html"},
      {"runtime.device_access", Layer::kRuntime,
       "Whether this user can open /dev/kfd and the render nodes (groups render and video).",
       "\"Unable to open /dev/kfd read-write: Permission denied\": ROCm then sees no GPU. Fix: `sudo usermod "
       "-aG render,video <user>` with the user's name (an administrator runs it for a user outside sudo, "
       "wheel and admin), then log out and back in.",
       "https://rocm.docs.amd.com/projects/install-on-linux/en/latest/install/prerequisites.html"},
      {"runtime.device_access_ok", Layer::kRuntime,
       "/dev/kfd and the render nodes are usable; \"not checked\" (info) when the user's access could not be "
       "told.",
       "", ""},
      {"runtime.kernel_too_old", Layer::kRuntime,
       "The Linux kernel against the minimum known for a GPU's compute use (Strix Halo gfx1151: 6.18.4).",
       "Older kernels hang the GPU under ROCm load (\"HW Exception by GPU node-1 ... reason :GPU Hang\").",
       "https://github.com/ROCm/TheRock/blob/main/SUPPORTED_GPUS.md"},
      {"runtime.rocm_not_installed", Layer::kRuntime, "No ROCm tree under /opt.",
       "PyTorch's ROCm wheels bring their own ROCm libraries, so this is only information.", ""},
      {"runtime.rocm_mixed", Layer::kRuntime, "Several ROCm versions installed side by side.",
       "A program may load libraries from two releases, which fails in odd ways.",
       "https://github.com/ROCm/TheRock/issues/3225"},
      {"runtime.rocm_supports_gpu", Layer::kRuntime,
       "The installed ROCm release lists this gfx target officially.", "", "data/rocm_releases.toml"},
      {"runtime.rocm_gpu_unlisted", Layer::kRuntime,
       "The installed ROCm release does not list this gfx target.",
       "Consumer RDNA2 cards other than gfx1030 were never listed; they run through an override or TheRock.",
       "data/rocm_releases.toml"},
      {"runtime.override_needed", Layer::kRuntime,
       "The code that will run (the ROCm wheel, else the system ROCm) lacks the GPU's gfx target but has the "
       "same-family sibling that overrides.toml maps it to. Linux only.",
       "Without the override the first HIP call aborts with hipErrorNoBinaryForGpu. For PyTorch the fixes "
       "come in overrides.toml's [[fix_ranking]] order: a build made for the GPU first where one exists, the "
       "override as its fallback.",
       "https://github.com/ROCm/legacy-rocm-build/issues/2353"},
      {"runtime.nvidia_library_mismatch", Layer::kRuntime,
       "The loaded NVIDIA kernel module (/proc/driver/nvidia/version) against the installed libcuda and NVML "
       "files (not WSL's, not CUDA's forward-compatibility libraries).",
       "After a driver upgrade without a reboot the old module stays loaded: nvidia-smi says \"Failed to "
       "initialize NVML: Driver/library version mismatch\" and CUDA finds no usable driver.",
       "https://docs.nvidia.com/deploy/nvml-api/group__nvmlDeviceEnumvs.html"},
      {"runtime.fabric_manager_missing", Layer::kRuntime,
       "On a machine with NVSwitches (NVIDIA PCI functions of class 0x0680: HGX/DGX A100, H100, H200, B200): "
       "whether NVIDIA Fabric Manager is installed (/usr/bin/nv-fabricmanager, nvidia-fabricmanager.service, "
       "the dpkg database).",
       "Until nv-fabricmanager has set up the NVSwitches, CUDA fails with error 802 \"system not yet "
       "initialized\". The fix installs the distribution's package of exactly the driver's version "
       "(cuda_drivers.toml [[fabric_manager_install]]) and enables the service.",
       "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html"},
      {"runtime.fabric_manager_version", Layer::kRuntime,
       "Fabric Manager's package version (dpkg database) against the loaded NVIDIA driver's.",
       "Fabric Manager checks the driver's version when it starts and exits on any other: a driver update "
       "without Fabric Manager's leaves CUDA failing with error 802.",
       "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html"},
      {"runtime.fabric_manager_disabled", Layer::kRuntime,
       "Whether nvidia-fabricmanager.service is enabled (a link in "
       "/etc/systemd/system/multi-user.target.wants).",
       "A Fabric Manager that is installed but not enabled does not start at boot, and CUDA fails until "
       "someone starts it.",
       "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html"},
      {"runtime.nvlsm_missing", Layer::kRuntime,
       "On NVSwitch systems of the architectures cuda_drivers.toml [[nvlsm_architecture]] lists (Blackwell: "
       "fourth-generation NVSwitches), whether the NVLink Subnet Manager package is installed (dpkg "
       "database only; unknown on RPM systems).",
       "Fabric Manager on these boards needs the NVLink Subnet Manager to bring the NVLink fabric up.",
       "https://docs.nvidia.com/datacenter/tesla/fabric-manager-user-guide/index.html"},
      {"runtime.nvidia_module_not_built", Layer::kRuntime,
       "For an NVIDIA GPU with no driver bound: whether /lib/modules/<running kernel> has an nvidia.ko while "
       "another installed kernel has one.",
       "A kernel update whose DKMS build failed (missing headers) leaves the new kernel without the module.",
       "https://github.com/dell/dkms"},
      {"runtime.nvidia_module_refused", Layer::kRuntime,
       "For an NVIDIA GPU with no driver bound: the module is built for the running kernel, not loaded, and "
       "UEFI Secure Boot is enforcing (efivarfs).",
       "The kernel refuses a DKMS module signed with a key the firmware does not trust (\"Key was rejected "
       "by "
       "service\") until the machine's key (MOK) is enrolled.",
       "https://wiki.debian.org/SecureBoot#DKMS_and_secure_boot"},
      {"runtime.override_ok", Layer::kRuntime,
       "HSA_OVERRIDE_GFX_VERSION is set to the right value for this GPU.", "", "data/overrides.toml"},
      {"runtime.override_not_needed", Layer::kRuntime,
       "HSA_OVERRIDE_GFX_VERSION is set although the code carries the GPU's own target (RX 9070 XT on ROCm "
       "7, "
       "gfx1151 with rocm7.2 wheels).",
       "The override swaps in code tuned for another chip; stale tutorials keep it around. Remove it.",
       "https://github.com/pytorch/pytorch/issues/164346"},
      {"runtime.override_target_missing", Layer::kRuntime,
       "The override selects a target the code lacks as well.", "hipErrorNoBinaryForGpu remains.",
       "data/overrides.toml"},
      {"runtime.override_unverified", Layer::kRuntime,
       "An override is set but the build's targets are unknown.", "", "data/overrides.toml"},
      {"runtime.driver_branch_drops_gpu", Layer::kRuntime,
       "Whether the NVIDIA driver's branch is newer than the last branch for the GPU's architecture "
       "(cuda_drivers.toml last_for: R580 for Maxwell, Pascal and Volta).",
       "Branches after R580 no longer support those GPUs; every driver upgrade advice for them names R580.",
       "https://docs.nvidia.com/datacenter/tesla/drivers/supported-drivers-and-cuda-toolkit-versions.html"},
      {"runtime.nvidia_needs_open_modules", Layer::kRuntime,
       "A GPU only NVIDIA's open kernel modules drive (cuda_drivers.toml nvidia_open_modules_only: "
       "Blackwell) under the proprietary module, read from /proc/driver/nvidia/version.",
       "The proprietary flavour cannot initialize Blackwell (dmesg: \"requires use of the NVIDIA open kernel "
       "modules\", nvidia-smi: \"No devices were found\"). Fix: the -open package of the same branch.",
       "https://docs.nvidia.com/datacenter/tesla/driver-installation-guide/kernel-modules.html"},
      {"runtime.cuda_driver_too_old", Layer::kRuntime,
       "The NVIDIA driver against the minor-version-compatibility floor of the CUDA PyTorch was built with.",
       "Below it, `torch.cuda.is_available()` is False (\"The NVIDIA driver on your system is too old\").",
       "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html"},
      {"runtime.cuda_driver_older_than_wheel", Layer::kRuntime,
       "The driver's highest CUDA version (cuDriverGetVersion) against the wheel's CUDA.",
       "It loads through minor-version compatibility, but PTX from the newer toolkit cannot be JIT-compiled.",
       "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html"},
      {"runtime.cuda_driver_ok", Layer::kRuntime, "The NVIDIA driver runs the wheel's CUDA.", "",
       "data/cuda_drivers.toml"},
      {"framework.no_torch", Layer::kFramework,
       "Whether torch/version.py exists in the active environment, ~/.venv, ~/.local or the system "
       "site-packages.",
       "Shows the install command of the route that fits the GPU.",
       "https://pytorch.org/get-started/locally/"},
      {"framework.torch_found", Layer::kFramework, "PyTorch found on a machine without a GPU.", "", ""},
      {"framework.torch_cpu_only", Layer::kFramework, "A CPU-only PyTorch on a machine with a usable GPU.",
       "torch.cuda.is_available() is False. Often pip pulled a CPU torch from PyPI while installing "
       "torchvision or "
       "torchaudio: uninstall all three and install them together from the GPU index.",
       "https://github.com/ROCm/legacy-rocm-build/issues/2354"},
      {"framework.torch_directml", Layer::kFramework,
       "A CPU-only PyTorch that torch-directml runs on, on a machine with a GPU.",
       "torch-directml reaches the GPU through DirectML (torch_directml.device()) with an older, pinned "
       "torch; "
       "torch.cuda sees no GPU. Replacing torch in that environment breaks DirectML: the GPU's own PyTorch "
       "goes "
       "into a separate environment.",
       "https://learn.microsoft.com/windows/ai/directml/pytorch-windows"},
      {"framework.torch_wrong_vendor", Layer::kFramework,
       "A CUDA PyTorch on an AMD-only machine, or the reverse.",
       "The build cannot use the GPU that is there.", "https://pytorch.org/get-started/locally/"},
      {"framework.torch_ok", Layer::kFramework, "The wheel carries code for the GPU's target.", "",
       "data/pytorch_wheels.toml"},
      {"framework.torch_via_override", Layer::kFramework,
       "The wheel lacks the GPU's target but runs its sibling's code through a valid override.", "",
       "data/overrides.toml"},
      {"framework.torch_no_kernels", Layer::kFramework,
       "The GPU's compute capability (cubins; a cubin for X.y runs on X.z, z >= y) or gfx target (exact) in "
       "the "
       "wheel's compiled targets.",
       "\"no kernel image is available for execution on the device\" (CUDA) or hipErrorNoBinaryForGpu "
       "(ROCm); e.g. "
       "a GTX 1080 (sm_61) with cu128 needs cu126. On AMD the fixes come in overrides.toml's [[fix_ranking]] "
       "order (a build made for the GPU, the override, a nightly), each where it exists.",
       "https://github.com/pytorch/pytorch/blob/main/RELEASE.md"},
      {"framework.torch_ptx_only", Layer::kFramework, "Only PTX of an older architecture reaches this GPU.",
       "The driver compiles every kernel at first use: slow start, and some kernels may be missing.",
       "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html#binary-compatibility"},
      {"framework.torch_unverified", Layer::kFramework,
       "A PyTorch build the knowledge base does not record and whose libraries held no readable GPU code.",
       "Its compiled targets cannot be checked without running it (`gpudoctor check --live` runs it).", ""},
      {"framework.rocblas_kernels_missing", Layer::kFramework,
       "The gfx targets of the rocBLAS / hipBLASLt kernel files beside PyTorch (torch/lib/rocblas/library, "
       "TensileLibrary*_gfxNNNN*) against the target the GPU runs as (its own, or the override's sibling).",
       "Without them every matrix multiply fails with \"rocBLAS error: Cannot read TensileLibrary.dat ... "
       "for "
       "GPU arch\", although the GPU code objects load.",
       "https://github.com/ROCm/rocBLAS/issues/1339"},
      {"framework.torchvision_mismatch", Layer::kFramework,
       "torchvision's release series (and +cu/+rocm build tag) against the torch in the same environment "
       "(data/torch_companions.toml).",
       "Its C++ operators are linked against one torch release: another fails at import or with \"operator "
       "torchvision::nms does not exist\". Fix: reinstall torchvision from the torch's index with --no-deps.",
       "https://github.com/pytorch/vision/blob/main/README.md"},
      {"framework.torchaudio_mismatch", Layer::kFramework,
       "torchaudio's release series (and build tag) against the torch in the same environment; torchaudio "
       "2.11 "
       "serves torch 2.11 and later.",
       "An extension built for another torch fails to load or pulls a second torch in.",
       "https://github.com/pytorch/audio/blob/main/docs/source/installation.rst"},
      {"framework.companions_ok", Layer::kFramework,
       "torchvision / torchaudio belong to the installed torch.", "", "data/torch_companions.toml"},
      {"framework.live_failed", Layer::kFramework,
       "check --live: the environment's python hung (60 s), crashed or exited without reporting.",
       "A hang in torch.cuda.is_available() or a crash at import is what the user's own program will do; its "
       "stderr is the evidence.",
       ""},
      {"framework.live_import_error", Layer::kFramework, "check --live: `import torch` raised an exception.",
       "Nothing can use the GPU until torch imports (missing libraries, a wrong build, a broken install).",
       ""},
      {"framework.live_gpu_error", Layer::kFramework,
       "check --live: torch.cuda.is_available(), the device list or the matmul on the GPU raised an "
       "exception.",
       "The message (\"invalid device function\", \"no kernel image\") names the cause; the static findings "
       "say which build or override fixes it.",
       ""},
      {"framework.live_no_gpu", Layer::kFramework,
       "check --live: torch.cuda.is_available() is False on a machine with an AMD or NVIDIA GPU.",
       "PyTorch then runs on the CPU only.", "https://pytorch.org/get-started/locally/"},
      {"framework.live_matmul_wrong", Layer::kFramework,
       "check --live: a 1024x1024 fp32 matmul on the GPU against the CPU's, max abs error within 1% of the "
       "result's scale.",
       "Wrong numbers without an error: a bad override, broken firmware or hardware.", ""},
      {"framework.live_ok", Layer::kFramework,
       "check --live: torch imported and (with a GPU) computed right.", "", ""},
      {"addon.torch_pin_mismatch", Layer::kFramework,
       "An add-on whose METADATA requires one torch release (Requires-Dist: torch==X: xformers up to 0.0.34, "
       "vllm) against the torch installed in the same environment.",
       "Its compiled operators are linked against that torch: with another they fail to load (\"xFormers "
       "can't "
       "load C++/CUDA extensions\"), and pip, asked to repair it, replaces the installed torch. Fix: the "
       "add-on "
       "release built for this torch (data/addon_libraries.toml), from torch's own index, with --no-deps.",
       "https://github.com/facebookresearch/xformers/blob/main/CHANGELOG.md"},
      {"addon.cpu_package_shadows_gpu", Layer::kFramework,
       "A CPU package installed beside the GPU package whose module folder it shares (onnxruntime beside "
       "onnxruntime-gpu).",
       "The package installed last owns the files: with the CPU package's, only CPUExecutionProvider is "
       "offered and every session runs on the CPU. Fix: uninstall both, install the GPU package alone.",
       "https://github.com/microsoft/onnxruntime/issues/26996"},
      {"addon.cuda_build_mismatch", Layer::kFramework,
       "The CUDA major a GPU package's release was built for on PyPI (onnxruntime-gpu 1.15-1.18: CUDA 11.8 "
       "and "
       "cuDNN 8; 1.19 and later: CUDA 12 and cuDNN 9) against the environment's CUDA libraries (torch's "
       "CUDA, "
       "the nvidia/cuda_runtime wheel's libcudart).",
       "Its CUDA provider cannot load libraries of another major (libcublasLt.so.11) and falls back to the "
       "CPU. Fix: the release built for the environment's CUDA.",
       "https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements"},
      {"addon.no_gpu_build", Layer::kFramework,
       "On a machine with an AMD or NVIDIA GPU, whether an add-on has its GPU build: a "
       "libbitsandbytes_cuda*/rocm*/hip* library in bitsandbytes/ (error without), a JAX GPU plugin "
       "(jax-cuda12-plugin, jax-rocm7-plugin) or a +cuda jaxlib (warning without).",
       "Without it the add-on runs on the CPU only (bitsandbytes: \"compiled without GPU support\"; jax: "
       "jax.devices() lists only the CPU). Fix: pip install -U bitsandbytes, or jax[cuda12] / "
       "jax[rocm7-local].",
       "https://docs.jax.dev/en/latest/installation.html"},
      {"addon.gpu_too_old", Layer::kFramework,
       "On a machine whose GPUs are all NVIDIA, whether the newest one reaches the compute capability an "
       "add-on's kernels need: flash-attn 2 needs 8.0 (warning), xformers' FlashAttention kernels 8.0 and "
       "Triton's compiler 7.0 (information).",
       "Below it the add-on cannot run (the application must fall back to PyTorch's "
       "scaled_dot_product_attention), "
       "or the part that needs it falls back to slower kernels.",
       "https://github.com/Dao-AILab/flash-attention/blob/main/README.md"},
      {"environment.ok", Layer::kEnvironment, "No variable hides GPUs or overrides targets wrongly.", "", ""},
      {"environment.devices_hidden", Layer::kEnvironment,
       "HIP_VISIBLE_DEVICES, ROCR_VISIBLE_DEVICES, GPU_DEVICE_ORDINAL or CUDA_VISIBLE_DEVICES empty, -1 or "
       "naming "
       "only indices that do not exist.",
       "The framework then sees no GPU at all.",
       "https://rocm.docs.amd.com/en/latest/conceptual/gpu-isolation.html"},
      {"environment.override_invalid", Layer::kEnvironment,
       "HSA_OVERRIDE_GFX_VERSION as libhsakmt parses it: three decimal numbers, major <= 63.",
       "Anything else (\"gfx1030\", \"10.3\") fails topology init and every GPU disappears.",
       "https://github.com/ROCm/rocm-systems/blob/develop/projects/rocr-runtime/libhsakmt/src/topology.c"},
      {"environment.override_cross_family", Layer::kEnvironment,
       "Whether the override names a target of the GPU's own generic family (gfx10-3 -> 10.3.0, gfx11 -> "
       "11.0.0).",
       "Code of another instruction set faults, hangs or computes wrong results; RDNA1 has no override at "
       "all.",
       "https://github.com/ROCm/legacy-rocm-build/issues/4554"},
      {"knowledge.stale", Layer::kEnvironment,
       "Whether the knowledge base's as-of date (the newest `checked` date of data/) is more than 180 "
       "days before today's date.",
       "GPUs, ROCm, CUDA and PyTorch releases move every month; advice from old data can be wrong. A newer "
       "gpudoctor, or a newer data/ folder with --db DIR, brings it up to date.",
       "https://github.com/ROCm/TheRock/blob/main/RELEASES.md"},
      {"environment.override_known_bad", Layer::kEnvironment,
       "Whether overrides.toml lists the override as wrong on this GPU although it stays in the family "
       "(gfx1033 with 10.3.0).",
       "Some GPUs run borrowed code without an error and compute wrong results: the Steam Deck (gfx1033) "
       "trains to negative or NaN losses.",
       "https://github.com/unslothai/unsloth/pull/8412"},
      {"environment.override_windows", Layer::kEnvironment, "HSA_OVERRIDE_GFX_VERSION set on native Windows.",
       "The Windows HIP runtime ignores it.",
       "https://github.com/ollama/ollama/blob/main/discover/amd_windows.go"},
      {"environment.override_mixed_gpus", Layer::kEnvironment,
       "A global override with AMD GPUs of several targets.",
       "It applies to every GPU, including one it does not fit.",
       "https://github.com/ollama/ollama/blob/main/docs/gpu.mdx"},
      {"environment.ld_library_path_shadow", Layer::kEnvironment,
       "LD_LIBRARY_PATH naming a ROCm whose release series differs from the one PyTorch was built with.",
       "LD_LIBRARY_PATH wins over the wheel's own RUNPATH, so torch loads mismatched HIP libraries.",
       "https://github.com/ROCm/TheRock/issues/3225"},
      {"windows.amd_wheels_ready", Layer::kHardware,
       "Native Windows, an AMD GPU AMD's own Windows PyTorch wheels cover (RDNA3, RDNA4, Strix Halo): "
       "Windows 11 "
       "22H2 or newer, a Python the wheels are built for (3.12), and the Adrenalin version the route names.",
       "All met: the fix installs the wheels into a fresh venv of that Python (no override, no WSL).",
       "https://rocm.docs.amd.com/projects/radeon-ryzen/en/latest/docs/install/installrad/windows/"
       "install-pytorch.html"},
      {"windows.amd_wheels_blocked", Layer::kHardware,
       "As windows.amd_wheels_ready, with at least one requirement not met (Windows 10, only Python 3.11, an "
       "old "
       "Adrenalin).",
       "pip finds no cp311 wheel, or the driver's HIP runtime is too old for ROCm 7.2: the install fails or "
       "torch "
       "sees no GPU. Lists the other routes (ROCm on WSL2, ZLUDA, DirectML for inference).",
       "https://rocm.docs.amd.com/projects/radeon-ryzen/en/latest/docs/install/installrad/windows/"
       "install-pytorch.html"},
      {"windows.amd_therock", Layer::kHardware,
       "Native Windows, an AMD GPU outside AMD's Windows wheels (RDNA2, RDNA1, other APUs): TheRock's build "
       "for its "
       "family, with ZLUDA, WSL2 and DirectML as the other routes.",
       "HSA_OVERRIDE_GFX_VERSION does nothing on Windows; only a build that carries the GPU's target (or its "
       "family's) runs on it.",
       "https://github.com/ROCm/TheRock/blob/main/SUPPORTED_GPUS.md"},
      {"windows.hip_sdk_gpu", Layer::kRuntime,
       "An installed HIP SDK (HIP_PATH, C:\\Program Files\\AMD\\ROCm\\<version>) against the GPU's target in "
       "that "
       "SDK's requirements; HIP 7 with an RDNA2 GPU.",
       "Tools built on that SDK (ZLUDA, hipcc builds) find no device or no kernels for the GPU.",
       "https://github.com/ROCm/hip/issues/3899"},
      {"windows.nvidia_driver", Layer::kRuntime,
       "The NVIDIA driver release (from NVML, or the registry's DriverVersion: 32.0.15.6094 is 560.94) "
       "against the "
       "Windows floors of CUDA 12 and CUDA 13 wheels.",
       "Below the floor the CUDA wheel does not load (\"The NVIDIA driver on your system is too old\").",
       "https://docs.nvidia.com/cuda/cuda-toolkit-release-notes/index.html"},
      {"windows.amd_driver", Layer::kRuntime,
       "Native Windows: the AMD display driver's version and Adrenalin release (RadeonSoftwareVersion), and "
       "the HIP "
       "runtime DLLs it put in System32 (amdhip64_6.dll, amdhip64_7.dll).",
       "HIP programs (ZLUDA, Blender, ollama) load the driver's amdhip64; its major decides what runs.",
       "https://github.com/ollama/ollama/blob/main/discover/amd.go"},
      {"windows.amd_driver_below_wheels", Layer::kRuntime,
       "Native Windows with AMD's PyTorch installed (+rocmsdk, +rocm7.x, +rocm10.x): the Adrenalin release "
       "against the floor of the route those wheels come from (data/pytorch_routes.toml), and "
       "amdhip64_7.dll.",
       "Below the floor torch finds no usable GPU (torch.cuda.is_available() is False, or amdhip64_7.dll is "
       "not found at import).",
       "https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/frameworks/pytorch/install.html"},
      {"windows.display_driver_missing", Layer::kRuntime,
       "Native Windows: an AMD or NVIDIA GPU driven by another service than the vendor's (the Microsoft "
       "Basic "
       "Display Adapter).",
       "Without the vendor's driver there is no HIP, CUDA or DirectML compute on the GPU.",
       "https://learn.microsoft.com/windows-hardware/drivers/display/microsoft-basic-display-adapter"},
      {"windows.vc_runtime", Layer::kRuntime,
       "Native Windows with torch installed: vcruntime140.dll, vcruntime140_1.dll and msvcp140.dll in "
       "System32.",
       "", "https://learn.microsoft.com/cpp/windows/latest-supported-vc-redist"},
      {"windows.vc_runtime_missing", Layer::kRuntime,
       "Native Windows with torch installed and one of the Visual C++ 2015-2022 runtime DLLs missing from "
       "System32.",
       "torch's c10.dll and torch_cpu.dll load them: `import torch` fails with WinError 126. python.org's "
       "Python brings vcruntime140.dll only; conda environments carry their own copy (a note there).",
       "https://github.com/pytorch/pytorch/issues/39734"},
      {"windows.no_python", Layer::kFramework, "Native Windows with a GPU and no Python interpreter found.",
       "Every route installs PyTorch with pip.", "https://docs.python.org/3/using/windows.html"},
      {"environment.ld_library_path_current_folder", Layer::kEnvironment,
       "LD_LIBRARY_PATH with an empty element (a leading, trailing or doubled ':') or a relative folder.",
       "The system loader reads it as the current folder: a program started there loads a library file of "
       "that name from it (someone else's libcuda.so.1 runs its code).",
       "https://man7.org/linux/man-pages/man8/ld.so.8.html"},
      {"environment.rocm_paths_disagree", Layer::kEnvironment,
       "ROCM_PATH and LD_LIBRARY_PATH naming different ROCm trees.",
       "Build tools and the loader then use different releases.",
       "https://github.com/ROCm/TheRock/issues/3225"},
  };
  return kRules;
}

const RuleInfo* FindRuleInfo(std::string_view id) {
  for (const auto& r : AllRuleInfo())
    if (r.id == id) return &r;
  return nullptr;
}

}  // namespace gpudoctor
