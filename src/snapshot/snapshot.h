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

namespace gpudoctor {

// Bump on any incompatible change; docs/snapshot-schema.md describes each version.
inline constexpr int kSnapshotSchemaVersion = 1;

enum class GpuVendor { kUnknown, kAmd, kNvidia, kIntel, kOther };

struct OsInfo {
  std::string family;  // "linux" or "windows"
  std::string distro_id;       // os-release ID ("debian", "ubuntu")
  std::string distro_name;     // PRETTY_NAME
  std::string distro_version;  // VERSION_ID
  std::string kernel_release;  // "6.8.0-45-generic"
  std::string kernel_version_text;  // the full /proc/version line
  bool wsl = false;
  std::vector<std::string> wsl_evidence;  // what showed it ("/dev/dxg exists", ...)
  std::optional<std::string> container;   // "docker", "podman", "kubernetes", "lxc", ... when detected
  std::vector<std::string> container_evidence;
  std::optional<uint32_t> windows_build;  // native Windows only (later issue)
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
  std::string driver;       // bound kernel driver: "amdgpu", "nvidia", "nouveau", "radeon", "vfio-pci", "" for none
  std::optional<int32_t> numa_node;
  PcieLink link;
  std::string vendor_name;  // "AMD", "NVIDIA", ...
  std::string name;         // marketing name when known ("Radeon RX 7900 XTX")
  std::string name_source;  // "amdgpu.ids", "pci.ids", "gpudoctor", "nvml", "" when unknown
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
  std::optional<bool> accessible;  // read-write for this user, when it can be told
  std::string reason;              // why not, or which group grants it
  std::optional<std::string> group;  // owning group name
};

struct AmdInfo {
  std::vector<KfdNode> kfd_nodes;  // GPU nodes only
  bool kfd_topology_present = false;
  std::optional<std::string> amdgpu_module_version;  // /sys/module/amdgpu/version (DKMS only)
  bool amdgpu_module_loaded = false;
  std::vector<DeviceNodeAccess> device_nodes;  // /dev/kfd and render nodes
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
  std::string library;      // "nvml", "cuda"
  std::string status;       // "loaded", "absent", "broken", "not-probed"
  std::string loaded_path;  // which file
  std::string detail;       // the dlerror / API error text, missing symbols
};

struct NvidiaInfo {
  std::optional<std::string> driver_version;  // "580.159.03" from /proc/driver/nvidia/version or NVML
  std::string driver_version_source;
  std::optional<uint32_t> cuda_driver_version;  // 13000 = CUDA 13.0 (cuDriverGetVersion)
  std::vector<NvidiaDevice> devices;
  std::vector<LibraryProbe> libraries;
};

// A GPU runtime or toolkit found on disk.
struct RuntimeInstall {
  std::string kind;  // "rocm", "hip-runtime", "cuda-toolkit", "libcuda", "nvml"
  std::string path;
  std::string version;  // "" when unknown
  std::string version_source;
};

// A PyTorch found in a Python environment, read from its torch/version.py (no Python is run).
struct TorchInstall {
  std::string version;   // "2.7.1+cu128"
  std::string cuda;      // "12.8"; "" on ROCm and CPU builds
  std::string hip;       // "6.2.41133-dd7f95766"; "" on CUDA and CPU builds
  std::string location;  // the torch folder
};

// One Python environment's package folder (a venv, conda, the user's or the system's site-packages).
struct PythonEnv {
  std::string path;            // the environment's prefix ("/home/alice/.venv", "/usr")
  std::string kind;            // "venv", "conda", "user", "system"
  std::string python_version;  // "3.10" from the folder name; "" when the folder does not say
  std::string site_packages;   // the folder searched
  std::optional<TorchInstall> torch;
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

struct Snapshot {
  int schema_version = kSnapshotSchemaVersion;
  std::string tool_version;
  std::string sysroot = "/";
  bool live_machine = true;  // false when read from a sysroot or loaded from a file made elsewhere
  std::string host_name;
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
  std::vector<PythonEnv> python_envs;  // environments found, active ones (VIRTUAL_ENV, CONDA_PREFIX) first
  std::vector<std::string> looked_at;  // what was examined (for "no GPU found")
  std::vector<std::string> warnings;   // unreadable or malformed inputs, each one line
};

const char* ToString(GpuVendor v);
GpuVendor GpuVendorFromString(const std::string& s);
GpuVendor GpuVendorFromPciId(uint32_t vendor_id);

}  // namespace gpudoctor
