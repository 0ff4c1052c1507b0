// The Snapshot: everything the probes learned about one machine, as plain data.
// It serializes to JSON and back (snapshot_json.h), so rules run on a snapshot
// taken elsewhere (`--from snap.json`). Every measured value is optional and
// carries its unit in its name; missing means "could not be read".
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/load_status.h"
#include "core/os.h"
#include "snapshot/topology.h"
#include "snapshot/windows_info.h"

namespace gpudoctor {

// Bump on any incompatible change; docs/snapshot-schema.md describes each version.
inline constexpr int kSnapshotSchemaVersion = 2;

enum class GpuVendor { kUnknown, kAmd, kNvidia, kIntel, kOther };

struct OsInfo {
  OsFamily family = OsFamily::kUnknown;     // JSON "linux" or "windows"
  std::string distro_id;                    // os-release ID ("debian", "ubuntu")
  std::vector<std::string> distro_id_like;  // os-release ID_LIKE: the distributions it derives from
  std::string distro_name;                  // PRETTY_NAME
  std::string distro_version;               // VERSION_ID
  std::string kernel_release;               // "6.8.0-45-generic"
  std::string kernel_version_text;          // the full /proc/version line
  bool wsl = false;
  std::vector<std::string> wsl_evidence;  // what showed it ("/dev/dxg exists", ...)
  std::optional<std::string> container;   // "docker", "podman", "kubernetes", "lxc", ... when detected
  std::vector<std::string> container_evidence;
  // A guest of a hypervisor other than WSL's ("KVM/QEMU", "VMware", "Amazon EC2", "an unnamed hypervisor"):
  // its GPUs are passed through or virtual (vGPU), and the host decides their driver, reset and PCIe link.
  std::optional<std::string> virtual_machine;
  std::vector<std::string> virtual_machine_evidence;
  std::optional<uint32_t> windows_build;  // native Windows only: 22631 (details in Snapshot::windows)
  // UEFI Secure Boot enforcing (the kernel then loads only modules signed with an enrolled key), from
  // efivarfs' SecureBoot variable; nullopt where it was not readable (BIOS boot, a container, Windows).
  std::optional<bool> secure_boot;
};

struct CpuInfo {
  std::string model;
  std::optional<uint32_t> logical_cores;
  std::optional<uint32_t> physical_cores;
  std::optional<uint32_t> sockets;
};

struct MemoryInfo {
  std::optional<uint64_t> total_bytes;
  std::optional<uint64_t> available_bytes;
};

struct DiskInfo {
  std::string path;  // the folder measured (the home folder)
  std::optional<uint64_t> total_bytes;
  std::optional<uint64_t> free_bytes;
};

struct PcieLink {
  std::optional<double> current_speed_gts;  // GT/s: 2.5, 5, 8, 16, 32, 64
  std::optional<uint32_t> current_width;
  std::optional<double> max_speed_gts;
  std::optional<uint32_t> max_width;
  // The narrowest link between the device and its root port when it is narrower than the device's own: a x16
  // card in a x8 slot behind the card's own switch (AMD's dGPUs), a riser, a PCIe switch. Read from the links
  // of the ports the device's sysfs path passes; empty when none is narrower or the path is unknown.
  std::string narrowest_port;  // "0000:00:01.1": the port whose link it is
  std::optional<double> narrowest_speed_gts;
  std::optional<uint32_t> narrowest_width;
};

// One PCI display / 3D / processing-accelerator function.
struct PciDevice {
  std::string address;  // "0000:03:00.0" (domain:bus:device.function), the device's identity
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::optional<uint32_t> subsystem_vendor_id;
  std::optional<uint32_t> subsystem_device_id;
  std::optional<uint32_t> revision;
  uint32_t class_code = 0;  // 24-bit, e.g. 0x030000 VGA, 0x038000 display, 0x030200 3D, 0x120000 accelerator
  std::string
      driver;  // bound kernel driver: "amdgpu", "nvidia", "nouveau", "radeon", "vfio-pci", "" for none
  std::optional<int32_t> numa_node;
  PcieLink link;
  std::string vendor_name;         // "AMD", "NVIDIA", ...
  std::string name;                // marketing name when known ("Radeon RX 7900 XTX")
  std::string name_source;         // "amdgpu.ids", "pci.ids", "gpudoctor", "nvml", "" when unknown
  std::optional<bool> integrated;  // iGPU (APU) vs discrete, when it can be told
  std::string integrated_reason;
  std::optional<std::string> drm_card;  // "card0" when a DRM node belongs to it
  std::optional<uint64_t> drm_vram_total_bytes;
  std::optional<uint64_t> drm_vram_used_bytes;
  std::optional<uint64_t> drm_gtt_total_bytes;
  std::optional<uint32_t> gpu_busy_percent;
};

// One GPU node of the AMD KFD topology (/sys/class/kfd/kfd/topology/nodes/N).
struct KfdNode {
  uint32_t node_id = 0;
  std::optional<uint32_t> gpu_id;
  uint32_t gfx_target_version = 0;  // 110000
  std::string gfx_target;           // "gfx1100"
  std::optional<uint32_t> simd_count;
  std::optional<uint32_t> simd_per_cu;
  std::optional<uint32_t> compute_units;
  std::optional<uint64_t> vram_bytes;  // sum of FB heaps in mem_banks
  std::optional<uint32_t> vendor_id;
  std::optional<uint32_t> device_id;
  std::optional<uint32_t> location_id;
  std::optional<uint32_t> domain;
  std::string pci_address;  // derived from domain + location_id
  std::optional<uint32_t> drm_render_minor;
  std::optional<uint32_t> max_engine_clock_mhz;
  std::optional<uint32_t> wave_front_size;
  std::optional<uint64_t> hive_id;
  std::optional<uint32_t> num_xcc;
  std::optional<uint32_t> cpu_cores_count;
};

struct DeviceNodeAccess {
  std::string path;  // "/dev/kfd", "/dev/dri/renderD128"
  bool exists = false;
  std::optional<bool> accessible;    // read-write for this user, when it can be told
  std::string reason;                // why not, or which group grants it
  std::optional<std::string> group;  // owning group name
};

struct AmdInfo {
  std::vector<KfdNode> kfd_nodes;  // GPU nodes only
  bool kfd_topology_present = false;
  std::optional<std::string> amdgpu_module_version;  // /sys/module/amdgpu/version (DKMS only)
  bool amdgpu_module_loaded = false;
  std::vector<DeviceNodeAccess> device_nodes;  // /dev/kfd and render nodes
  // The installed kernels (/lib/modules/<release>) that have an amdgpu module file, the kernel's own or
  // DKMS's; nullopt when not looked at (no AMD GPU, WSL, no /lib/modules). dkms_module_kernels: those
  // whose amdgpu is a DKMS build (updates/dkms: amdgpu-dkms from amdgpu-install).
  std::optional<std::vector<std::string>> module_kernels;
  std::vector<std::string> dkms_module_kernels;
};

struct NvidiaDevice {
  uint32_t index = 0;  // NVML index
  std::string name;
  std::string uuid;
  std::string pci_address;  // normalized "0000:17:00.0"
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint32_t> cc_major;
  std::optional<uint32_t> cc_minor;
};

struct LibraryProbe {
  std::string library;                         // "nvml", "cuda"
  LoadStatus status = LoadStatus::kNotProbed;  // "loaded", "absent", "broken", "not-probed" in the JSON
  std::string loaded_path;                     // which file
  std::string detail;                          // the dlerror / API error text, missing symbols
};

// Which flavour of NVIDIA kernel module is loaded, as its /proc/driver/nvidia/version line says. Only the
// open flavour drives Blackwell; only the proprietary one drives Maxwell, Pascal and Volta.
enum class NvidiaKernelModule { kUnknown, kOpen, kProprietary };

// A Container Device Interface specification for NVIDIA devices on the host (probe/linux/cdi_specs.h).
struct CdiSpec {
  std::string path;            // "/etc/cdi/nvidia.yaml"
  std::string driver_version;  // the driver its library paths name; "" when they name none
  bool operator==(const CdiSpec&) const = default;
};

// NVIDIA Fabric Manager and the NVSwitches it sets up (probe/linux/fabric_manager.h): on an NVSwitch system
// (HGX/DGX A100, H100, H200, B200) CUDA fails ("system not yet initialized") until nv-fabricmanager, of
// exactly the driver's version, has configured the switches. Read from the disk only; nothing is started.
struct FabricManagerInfo {
  uint32_t nvswitches = 0;     // NVIDIA PCI functions of class 0x0680xx (bridge, other): the NVSwitches
  std::string binary;          // "/usr/bin/nv-fabricmanager"; "" when absent
  std::string unit;            // the nvidia-fabricmanager.service file found; "" when none
  bool enabled = false;        // linked in /etc/systemd/system/multi-user.target.wants/
  std::string package;         // "nvidia-fabricmanager-570" (the dpkg database); "" when unknown
  std::string version;         // "570.124.06": the package's upstream version; "" when unknown
  std::string version_source;  // "/var/lib/dpkg/status"; "" when no package database could say
  std::string nvlsm_version;   // the nvlsm package's upstream version; "" when not installed or unknown
  bool operator==(const FabricManagerInfo&) const = default;
};

struct NvidiaInfo {
  std::optional<std::string> driver_version;  // "580.159.03" from /proc/driver/nvidia/version or NVML
  std::string driver_version_source;
  NvidiaKernelModule kernel_module = NvidiaKernelModule::kUnknown;  // from /proc/driver/nvidia/version
  std::optional<uint32_t> cuda_driver_version;                      // 13000 = CUDA 13.0 (cuDriverGetVersion)
  std::vector<NvidiaDevice> devices;
  std::vector<LibraryProbe> libraries;
  // The installed kernels (/lib/modules/<release>) that have an NVIDIA module file (nvidia.ko*), sorted;
  // nullopt where /lib/modules was not read (Windows, a snapshot made before it was recorded).
  std::optional<std::vector<std::string>> module_kernels;
  std::vector<CdiSpec> cdi_specs;  // /etc/cdi, /var/run/cdi: those that name nvidia.com devices
  // Read on a Linux host (not WSL) where an NVSwitch is on the PCI bus; nullopt elsewhere.
  std::optional<FabricManagerInfo> fabric_manager;
};

// A GPU runtime or toolkit found on disk.
struct RuntimeInstall {
  std::string kind;  // "rocm", "hip-runtime", "cuda-toolkit", "libcuda", "nvml"
  std::string path;
  std::string version;  // "" when unknown
  std::string version_source;
};

// The GPU code compiled into one library, read from its section table and GPU section headers
// (binfmt/gpu_targets.h); nothing is loaded or run.
struct GpuCodeLibrary {
  std::string path{};                                   // machine path of the library
  std::vector<std::string> cuda_cubins{};               // "sm_90", "sm_90a" (sorted by arch)
  std::map<std::string, uint64_t> cuda_cubin_images{};  // cubins per arch; empty when not counted
  std::vector<std::string> cuda_ptx{};                  // "compute_120"
  std::vector<std::string> amd{};                       // target IDs: "gfx1030", "gfx90a:xnack-"
  std::vector<std::string> warnings{};                  // damaged or unreadable parts
};

// A folder of rocBLAS / hipBLASLt kernel files (TensileLibrary*_gfxNNNN*) and the gfx targets named.
struct KernelLibraryFolder {
  std::string library{};           // "rocblas", "hipblaslt"
  std::string folder{};            // machine path
  std::vector<std::string> gfx{};  // sorted, unique
  uint32_t files = 0;              // kernel files matched
};

// Which copy of a vendor runtime a framework would load, and why that one.
struct RuntimeResolution {
  std::string library{};  // "libcudart", "libamdhip64"
  std::string origin{};   // "bundled" (the framework's own folder), "pip" (site-packages/nvidia/*),
                          // "rocm-sdk" (the _rocm_sdk_* wheels), "system" (loader search path)
  std::string path{};     // the file found; "" for "system"
};

// A folder of GPU libraries inside an environment (torch/lib, nvidia/cublas/lib, _rocm_sdk_core/lib).
struct GpuLibraryFolder {
  std::string path{};                   // machine path
  std::string provider{};               // "torch", "nvidia/cuda_runtime", "_rocm_sdk_core", "onnxruntime"
  std::vector<std::string> runtimes{};  // vendor runtime files in it: "libcudart.so.12", "libamdhip64.so"
};

// A PyTorch found in a Python environment, read from its torch/version.py (no Python is run).
struct TorchInstall {
  std::string version{};                   // "2.7.1+cu128"
  std::string cuda{};                      // "12.8"; "" on ROCm and CPU builds
  std::string hip{};                       // "6.2.41133-dd7f95766"; "" on CUDA and CPU builds
  std::string location{};                  // the torch folder
  std::string git_version{};               // git_version = '...'; "" when absent
  std::optional<bool> debug{};             // debug = True/False
  std::vector<std::string> arch_list{};    // as torch.cuda.get_arch_list() lists it, read from the binaries:
                                           // "sm_90", "compute_120", "gfx1030"; empty when none was read
  std::vector<GpuCodeLibrary> gpu_code{};  // libtorch_cuda.so, libtorch_hip.so, torch_cuda.dll
  std::vector<KernelLibraryFolder> kernel_libraries{};  // torch/lib/rocblas/library, .../hipblaslt/library
  std::optional<RuntimeResolution> runtime{};           // the CUDA or HIP runtime it would load
};

// Another framework or GPU package found in an environment, from its *.dist-info/METADATA (or
// PKG-INFO, or the package's version.py).
struct FrameworkInstall {
  std::string name{};     // distribution name as written ("onnxruntime-rocm", "jax-cuda12-plugin")
  std::string family{};   // "torchvision", "torchaudio", "torch-directml", "tensorflow", "jax",
                          // "jax-plugin", "onnxruntime", "bitsandbytes", "rocm-sdk", "xformers",
                          // "flash-attn", "vllm", "triton", "deepspeed"
  std::string version{};  // "0.22.1+cu128"
  std::string backend{};  // what the name or version says it runs on: "cuda", "rocm", "migraphx",
                          // "directml", "openvino", "cpu"; "" when it does not say
  std::string source{};   // the file the version came from
  std::optional<RuntimeResolution> runtime{};  // for CUDA / ROCm backends
  // The one torch release its metadata requires (`Requires-Dist: torch==2.5.1` -> "2.5.1"): xformers and
  // vllm wheels pin the torch they were built against. "" when it pins none (or the version came from
  // a folder name or version.py).
  std::string torch_pin{};
};

// What `check --live` learned by running the environment's interpreter on a small script.
struct PythonLiveRun {
  std::string interpreter{};
  std::string status{};  // "ok" (the script reported), "timeout", "crashed", "failed" (exit code, no
                         // report), "no-report" (exited 0 without one), "not-started"
  std::optional<int> exit_code{};
  std::optional<int> signal{};
  uint64_t elapsed_ms = 0;
  std::string error{};  // the Python exception ("import torch: ImportError: ...")
  std::string stage{};  // where the script stopped: import, is_available, devices, matmul, done
  std::vector<std::string> stderr_tail{};  // the last lines of its stderr
  std::string torch_version{};
  std::string torch_file{};  // torch.__file__: which torch it imported
  std::string cuda{};        // torch.version.cuda
  std::string hip{};         // torch.version.hip
  std::optional<bool> cuda_available{};
  std::optional<uint32_t> device_count{};
  std::vector<std::string> device_names{};
  std::vector<std::string> arch_list{};          // torch.cuda.get_arch_list()
  std::optional<double> matmul_max_abs_error{};  // GPU result against the CPU's, 1024x1024 fp32
  std::optional<double> matmul_max_abs_value{};  // the largest |value| of the CPU result (its scale)
};

// One line of the user's project files that pins a GPU package (probe/common/project_pins.h): the next
// `pip install -r`, `uv sync`, `poetry install` or `conda env update` installs what it says, so a fix that
// installs another build must change it too.
struct ProjectPin {
  std::string file{};       // machine path: "/home/u/proj/requirements.txt"
  uint32_t line = 0;        // 1-based
  std::string text{};       // the line as written, trimmed
  std::string package{};    // PEP 503 normalized: "torch", "flash-attn" (conda's "pytorch" is "torch")
  std::string spec{};       // "==2.7.1+cpu", ">=2.5", "@ https://...", "cpuonly"; "" when none
  std::string marker{};     // the environment marker after ';': "sys_platform == \"linux\""; "" when none
  std::string index_url{};  // the index the file points this package at; "" when it names none
};

// The pin files that belong to an environment: those in the folder holding its venv (`proj/.venv`) and in
// the current folder and its parents up to the home folder.
struct PythonProject {
  std::string folder{};              // the folder of the file that says who manages the project
  std::string manager{};             // "uv" (uv.lock, [tool.uv]), "poetry", "conda" (environment.yml), "pip"
  std::vector<std::string> files{};  // every pin file read, machine paths
  std::vector<ProjectPin> pins{};    // the lines pinning torch, torchvision, torchaudio or a known add-on
};

// One Python environment's package folder (a venv, conda, pyenv, the user's or the system's
// site-packages).
struct PythonEnv {
  std::string path{};            // the environment's prefix ("/home/alice/.venv", "/usr")
  std::string kind{};            // "venv", "conda", "pyenv", "user", "system", "portable", "other"
  std::string python_version{};  // "3.10"; "" when nothing says
  std::string site_packages{};   // the folder searched
  std::optional<TorchInstall> torch{};
  std::string interpreter{};                      // the python that uses this folder ("" when none was found)
  std::string python_version_source{};            // "pyvenv.cfg", "lib folder", "interpreter name"
  std::vector<std::string> found_by{};            // "VIRTUAL_ENV", "PATH", "--python-env", "conda", ...
  bool active = false;                            // VIRTUAL_ENV or CONDA_PREFIX names it
  std::vector<FrameworkInstall> frameworks{};     // besides torch
  std::vector<GpuLibraryFolder> gpu_libraries{};  // folders of GPU libraries in it
  std::optional<PythonLiveRun> live{};            // check --live only
  std::optional<PythonProject> project{};         // absent when no pin file was found
};

// The merged view: one entry per GPU, PCI first, enriched by KFD / NVML.
struct Gpu {
  std::string pci_address;
  GpuVendor vendor = GpuVendor::kUnknown;
  std::string name;
  std::string architecture;  // "gfx1100", "sm_90"
  std::string family;        // "RDNA3", "Hopper", when known
  std::optional<bool> integrated;
  std::optional<uint64_t> vram_bytes;
  std::optional<uint32_t> compute_units;  // CUs (AMD) or SMs (NVIDIA)
  std::string driver;
  std::optional<uint32_t> kfd_node;
  std::optional<uint32_t> nvml_index;
};

// Who ran the probe (recorded trees: who ran `gather`): fixes name the user, and say when an administrator
// must act for them.
struct UserInfo {
  std::string name;                      // "" when unknown
  std::vector<std::string> group_names;  // supplementary groups, when known
  bool is_admin = false;                 // root on Linux, elevated on Windows
};

struct Snapshot {
  int schema_version = kSnapshotSchemaVersion;
  std::string tool_version;
  std::string sysroot = "/";
  bool live_machine = true;  // false when read from a sysroot or loaded from a file made elsewhere
  std::string host_name;
  UserInfo user;
  OsInfo os;
  CpuInfo cpu;
  MemoryInfo memory;
  DiskInfo disk;
  std::vector<PciDevice> pci_devices;
  AmdInfo amd;
  NvidiaInfo nvidia;
  std::vector<RuntimeInstall> runtimes;
  std::map<std::string, std::string> environment;  // only the variables that matter
  std::vector<Gpu> gpus;
  std::vector<PythonEnv>
      python_envs;      // environments found: --python-env, active ones, PATH, ... (python_env_finder.h)
  WindowsInfo windows;  // native Windows only (os.family is OsFamily::kWindows)
  // How the GPUs reach each other (topo/ fills it); absent when not probed: no GPU, or a snapshot saved
  // before it was part of the Snapshot.
  std::optional<Topology> topology;
  std::vector<std::string> looked_at;  // what was examined (for "no GPU found")
  std::vector<std::string> warnings;   // unreadable or malformed inputs, each one line
};

const char* ToString(GpuVendor v);     // "amd", "nvidia": as the JSON writes it
const char* VendorLabel(GpuVendor v);  // "AMD", "NVIDIA": as reports show it
GpuVendor GpuVendorFromString(const std::string& s);
GpuVendor GpuVendorFromPciId(uint32_t vendor_id);
const char* ToString(NvidiaKernelModule m);                             // "open", "proprietary", "unknown"
NvidiaKernelModule NvidiaKernelModuleFromString(const std::string& s);  // kUnknown for anything else

}  // namespace gpudoctor
