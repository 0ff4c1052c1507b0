// The entries of the knowledge base (data/*.toml) as plain structs: GPUs, gfx targets, ROCm and CUDA
// releases, PyTorch wheels and routes, HSA override rules. Loaded by knowledge_loader.h, queried
// through KnowledgeDb (knowledge_db.h); no TOML type appears here.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/os.h"
#include "core/severity.h"
#include "core/shell_commands.h"
#include "knowledge/version.h"

namespace gpudoctor {

// Where an entry came from and how sure we are of it. Every entry carries one.
struct Origin {
  std::string file;  // base name: "gpus_amd.toml" (the same for embedded and --db files)
  uint32_t line = 0;
  bool operator==(const Origin&) const = default;
};

struct Provenance {
  std::vector<std::string> sources;  // URLs, at least one
  bool confirmed = true;             // false: not verified against a primary source
  std::string note;                  // what is unsure or special
  std::string checked;               // "YYYY-MM-DD": when a person last verified it against the source
  Origin origin;
  bool operator==(const Provenance&) const = default;
};

// ---- AMD -----------------------------------------------------------------------------------------

enum class GfxFamily {
  kGcn1,
  kGcn2,
  kGcn3,
  kGcn4,
  kGcn5,
  kGcn5_1,
  kCdna1,
  kCdna2,
  kCdna3,
  kCdna4,
  kCdnaNext,
  kRdna1,
  kRdna2,
  kRdna3,
  kRdna3_5,
  kRdna4,
};
const char* ToString(GfxFamily f);  // "RDNA3.5"
std::optional<GfxFamily> GfxFamilyFromString(std::string_view s);

// One LLVM gfx processor (data/gfx_targets.toml).
struct GpuTarget {
  std::string name;  // "gfx1031"
  GfxFamily family = GfxFamily::kGcn2;
  uint32_t kfd_version = 0;        // 100301, as KFD topology reports it; 0: KFD has no such target
  std::vector<std::string> gc_ip;  // "10.3.2"
  std::string generic;             // "gfx10-3-generic", "" when none
  std::string override_value;      // HSA_OVERRIDE_GFX_VERSION that borrows a sibling ("10.3.0"), "" when none
  uint32_t wave_size = 64;
  std::vector<std::string> chips;
  Provenance provenance;
  bool operator==(const GpuTarget&) const = default;
};

struct AmdRevisionName {
  uint32_t revision = 0;
  std::string name;  // "Radeon RX 7900 XTX"
  bool operator==(const AmdRevisionName&) const = default;
};

// One AMD PCI device id (data/gpus_amd*.toml).
struct AmdPciDevice {
  uint32_t device_id = 0;
  std::string name;  // used when the revision is not listed
  std::string chip;  // "Navi 31"
  std::string gfx;   // "gfx1100"
  bool integrated = false;
  std::vector<AmdRevisionName> revisions;
  Provenance provenance;
  bool operator==(const AmdPciDevice&) const = default;
};

// Figures of one AMD model, found by marketing name (data/gpus_amd_specs.toml). Missing = unknown.
struct AmdGpuModel {
  std::string name;
  std::string gfx;
  std::vector<uint32_t> vram_gib;  // several when the model ships in several sizes; empty for APUs
  std::string memory;              // "GDDR6", "HBM3", "shared"
  std::optional<uint32_t> compute_units;
  std::optional<double> fp32_tflops;
  std::optional<double> tf32_tflops;  // dense, on matrix units (CDNA3+ xf32); absent where there is none
  std::optional<double> fp16_tflops;  // dense, on matrix units when present
  std::optional<double> bf16_tflops;
  std::optional<double> bandwidth_gbs;
  std::vector<std::string> derived;  // fields computed by formula rather than read from a vendor
  Provenance provenance;
  bool operator==(const AmdGpuModel&) const = default;
};

// ---- NVIDIA --------------------------------------------------------------------------------------

struct CudaArch {
  Version cc;  // 8.9
  std::string architecture;
  std::string examples;
  std::optional<Version> first_cuda;  // the first CUDA toolkit whose nvcc compiles for it (11.8 for 8.9)
  std::optional<Version> last_cuda;   // the last one, where a later toolkit dropped it (12.9 for 6.1)
  Provenance provenance;
  bool operator==(const CudaArch&) const = default;
};

struct NvidiaGpuModel {
  uint32_t device_id = 0;
  std::string name;
  std::string chip;  // "GA106" for ids read from [[nvidia_chip]]; empty for [[nvidia_gpu]] entries
  Version cc;
  bool integrated = false;  // an SoC GPU sharing the system's memory (GB10, Jetson Thor), from its chip
  std::optional<uint32_t> vram_gib;
  std::string memory;
  std::optional<uint32_t> sms;
  std::optional<double> fp32_tflops;
  std::optional<double> tf32_tflops;  // dense Tensor Core rate (Ampere and later)
  std::optional<double> fp16_tflops;  // dense Tensor Core rate, FP32 accumulate
  std::optional<double> bf16_tflops;
  std::optional<double> bandwidth_gbs;
  Provenance provenance;
  bool operator==(const NvidiaGpuModel&) const = default;
};

// Minor-version compatibility: the oldest driver that runs any runtime from `cuda` to `cuda_max`.
struct CudaMinorCompat {
  Version cuda;
  Version cuda_max;
  Version linux_driver;
  Version windows_driver;
  Provenance provenance;
  bool operator==(const CudaMinorCompat&) const = default;
};

// The driver shipped with a toolkit (latest update of the minor; GA where known).
struct CudaToolkitDriver {
  Version cuda;
  std::optional<Version> linux_driver;
  std::optional<Version> windows_driver;
  std::optional<Version> ga_linux;
  std::optional<Version> ga_windows;
  Provenance provenance;
  bool operator==(const CudaToolkitDriver&) const = default;
};

struct NvidiaDriverBranch {
  std::string branch;  // "R580"
  std::string kind;    // "LTSB", "production"
  uint32_t cuda_major = 0;
  std::string eol;  // "2028-08"
  // Architectures (as [[cuda_arch]] names them) for which this is the last branch: newer drop them.
  std::vector<std::string> last_for;
  Provenance provenance;
  bool operator==(const NvidiaDriverBranch&) const = default;
};

// The leading numbers NVIDIA gives Windows drivers of a branch: a Windows driver's first number is not
// always its branch (R580 ships as 580.xx and 581.xx on Windows; Linux drivers of R580 are 580.xx).
struct NvidiaWindowsBranch {
  std::string branch;            // "R580", a [[nvidia_driver_branch]]
  std::vector<uint32_t> majors;  // {580, 581}
  Provenance provenance;
  bool operator==(const NvidiaWindowsBranch&) const = default;
};

// An architecture (as [[cuda_arch]] names it) that only NVIDIA's open kernel modules drive: with the
// proprietary flavour loaded the GPU fails to initialize (Blackwell).
struct NvidiaOpenModulesOnly {
  std::string architecture;  // "Blackwell"
  std::string first_branch;  // "R570": the first driver branch that drives it; "" when not recorded
  Provenance provenance;
  bool operator==(const NvidiaOpenModulesOnly&) const = default;
};

// How a distribution installs NVIDIA Fabric Manager, which NVSwitch systems (HGX/DGX A100, H100, H200, B200)
// need before CUDA runs, at exactly the driver's version: chosen like NvidiaDriverInstall (os-release ID,
// then ID_LIKE, then the "*" row). In lines BRANCH stands for the driver's branch ("570") and VERSION for the
// driver's version ("570.124.06").
struct FabricManagerInstall {
  std::vector<std::string> distros;  // os-release IDs; "*" = any other
  std::string name;                  // "Debian and Ubuntu (apt)"
  std::string package;               // "nvidia-fabricmanager-BRANCH"
  std::vector<std::string> lines;    // in order: a command ("sudo ..."), or an instruction in words
  Provenance provenance;
  bool operator==(const FabricManagerInstall&) const = default;
};

// A GPU architecture whose NVSwitch systems also need the NVLink Subnet Manager (nvlsm) beside Fabric
// Manager (fourth-generation NVSwitches: Blackwell HGX B200/B100).
struct NvlsmArchitecture {
  std::string architecture;  // "Blackwell"
  std::string package;       // "nvlsm"
  Provenance provenance;
  bool operator==(const NvlsmArchitecture&) const = default;
};

// How a distribution installs (or upgrades) NVIDIA's driver: the commands of its own documentation,
// chosen by os-release ID, then ID_LIKE; the row naming "*" is for any other distribution.
struct NvidiaDriverInstall {
  std::vector<std::string> distros;  // os-release IDs: "ubuntu", "fedora"; "*" = any other
  std::string name;                  // "Ubuntu and its derivatives"
  std::vector<std::string> lines;    // in order: a command, or an instruction in words
  // The same for replacing the proprietary kernel modules with the open ones of the installed branch
  // (BRANCH stands for its number); empty: the "*" row's words.
  std::vector<std::string> open_lines;
  std::string link;  // the distribution's page for it
  Provenance provenance;
  bool operator==(const NvidiaDriverInstall&) const = default;
};

// ---- ROCm ----------------------------------------------------------------------------------------

struct RocmPointRelease {
  Version version;
  std::string date;  // "2024-08-02" or "2025-04"
  bool confirmed = true;
  bool operator==(const RocmPointRelease&) const = default;
};

// One Linux minor series ("6.4" covers 6.4.x).
struct RocmRelease {
  Version series;
  std::vector<std::string> gfx;
  std::vector<std::string> deprecated_gfx;
  std::map<std::string, Version> since;  // gfx -> point release that added it
  std::vector<std::string> os;           // "ubuntu:24.04.2"
  std::vector<RocmPointRelease> points;
  Provenance provenance;
  bool operator==(const RocmRelease&) const = default;
};

// The oldest Linux kernel a GPU computes stably on under ROCm (older ones hang it).
struct KernelFloor {
  std::vector<std::string> gfx;  // "gfx1151"
  Version min_kernel;            // 6.18.4
  std::string why;
  Provenance provenance;
  bool operator==(const KernelFloor&) const = default;
};

struct HipSdkWindows {
  Version version;
  std::vector<std::string> os;
  std::vector<std::string> gfx_sdk;
  std::vector<std::string> gfx_runtime;
  std::vector<std::string> gfx_unsupported;
  Provenance provenance;
  bool operator==(const HipSdkWindows&) const = default;
};

struct RocmWslNote {
  std::string id;
  Version rocm;  // applies from this ROCm on
  std::string driver;
  std::string setup;
  std::vector<std::string> gfx;
  Provenance provenance;
  bool operator==(const RocmWslNote&) const = default;
};

struct TheRockStatus {
  std::string platform;  // "linux", "windows"
  std::vector<std::string> release_ready;
  std::vector<std::string> build_only;
  Provenance provenance;
  bool operator==(const TheRockStatus&) const = default;
};

struct TheRockFamily {
  std::string name;  // "gfx110X-all"
  std::vector<std::string> gfx;
  bool legacy_index = false;  // has a https://rocm.nightlies.amd.com/v2/<name>/ index
  Provenance provenance;
  bool operator==(const TheRockFamily&) const = default;
};

struct TheRockVersion {
  Version version;
  std::string date;
  std::string stream;  // "preview", "production"
  Provenance provenance;
  bool operator==(const TheRockVersion&) const = default;
};

// ---- PyTorch -------------------------------------------------------------------------------------

struct TorchRelease {
  Version version;  // "2.7"
  std::string date;
  std::vector<std::string> python;
  Provenance provenance;
  bool operator==(const TorchRelease&) const = default;
};

// The CUDA build of a torch release that `pip install torch` takes from PyPI on Linux x86_64 (the
// Windows and macOS PyPI wheels are CPU-only).
struct TorchPypiDefault {
  Version torch;        // "2.11": a release series
  std::string variant;  // "cu130": the download.pytorch.org variant it equals
  Version cuda;         // 13.0
  Provenance provenance;
  bool operator==(const TorchPypiDefault&) const = default;
};

// One entry of TORCH_CUDA_ARCH_LIST: a cubin for `cc`, plus PTX when `ptx`.
struct CompiledCudaArch {
  Version cc;
  bool ptx = false;
  bool operator==(const CompiledCudaArch&) const = default;
};

struct TorchWheel {
  Version torch;
  std::string variant;  // "cu128", "rocm6.4"
  std::optional<Version> cuda;
  std::optional<Version> rocm;
  std::string index_url;
  std::vector<CompiledCudaArch> cuda_archs;
  std::vector<std::string> gfx;
  std::vector<std::string> python;  // from the torch release
  std::string release_date;         // from the torch release
  Provenance provenance;
  bool operator==(const TorchWheel&) const = default;
};

// When targets joined PyTorch's ROCm wheel builds (PYTORCH_ROCM_ARCH in .ci/docker/manywheel/build.sh):
// download.pytorch.org ROCm wheels of an older torch release lack them.
struct TorchBuildGfx {
  std::vector<std::string> gfx;  // "gfx1200"
  Version first_torch;           // "2.7": the first release whose builds carry them
  Provenance provenance;
  bool operator==(const TorchBuildGfx&) const = default;
};

// A package index or download folder that install commands and wheels may name (URL prefix).
struct PackageIndex {
  std::string url;   // "https://download.pytorch.org/whl/": every index URL in the data starts with one
  std::string what;  // who serves it
  Provenance provenance;
  bool operator==(const PackageIndex&) const = default;
};

// The torchvision and torchaudio releases built for one torch release series: their C++ extensions
// are linked against that torch, so another pairing fails at import or at the first operator.
struct TorchCompanion {
  Version torch;                     // "2.7"
  std::vector<Version> torchvision;  // series that match ("0.22")
  std::vector<Version> torchaudio;   // "2.7"; "2.11" for torch 2.11 and later (stable ABI)
  Provenance provenance;
  bool operator==(const TorchCompanion&) const = default;
};

// ---- Add-on libraries (addon_libraries.toml) -------------------------------------------------------

// A package that brings GPU code of its own on top of torch, ONNX Runtime or JAX (xformers, flash-attn,
// vllm, triton, deepspeed, onnxruntime-gpu, bitsandbytes, jax), and what `check` needs to judge it.
struct AddonLibrary {
  std::string name;                        // "xformers": what the other addon_* sections call it
  std::vector<std::string> distributions;  // its distributions, PEP 503 normalized ("onnxruntime-gpu")
  bool pins_torch = false;   // its GPU wheels' METADATA requires one torch release (`torch==2.5.1`)
  bool torch_index = false;  // download.pytorch.org/whl/<variant> carries its build for each torch variant
  std::vector<std::string>
      shadowed_by;  // distributions whose files overwrite its own when installed beside it
  // What proves a GPU build ('*' matches any run of characters): files in its package folder
  // ("libbitsandbytes_cuda*"), GPU library folders the probe records (Snapshot gpu_libraries providers:
  // "bitsandbytes", "jax_plugins/xla_cuda*"), plugin distributions ("jax-cuda*-plugin"), a local
  // version tag of its own distributions ("cuda" in jaxlib 0.4.16+cuda12.cudnn89).
  std::vector<std::string> gpu_files;
  std::vector<std::string> gpu_folders;
  std::vector<std::string> gpu_plugins;
  std::vector<std::string> gpu_version_tags;
  // How bad a build without GPU code is on a machine with an AMD or NVIDIA GPU; unset: not judged.
  std::optional<Severity> cpu_only;
  std::vector<Platform> gpu_platforms;  // where GPU builds of it exist (jax: linux, wsl)
  std::string
      install_cuda;  // the pip requirement of its CUDA build, "{cuda}" = the CUDA major: "jax[cuda{cuda}]"
  std::string install_rocm;  // the pip requirement of its ROCm build on Linux: "jax[rocm7-local]"
  Provenance provenance;
  bool operator==(const AddonLibrary&) const = default;
};

// The oldest NVIDIA GPU (compute capability) an add-on's code runs on, from one release on.
struct AddonGpuFloor {
  std::string addon;  // an [[addon_library]] name
  Version cc;         // "8.0"
  std::optional<Version>
      from;  // the first release it applies to ("2.0" for flash-attn); unset: every release
  Severity severity = Severity::kWarning;  // warning: it cannot run there; info: a part cannot
  std::string part;  // what cannot run when only a part of it needs the GPU ("its FlashAttention kernels")
  std::string fallback;  // what runs instead ("memory_efficient_attention uses its CUTLASS kernels")
  Provenance provenance;
  bool operator==(const AddonGpuFloor&) const = default;
};

// The torch release one release of an add-on was built for (its wheels pin it: `torch==2.5.1`).
struct AddonTorchBuild {
  std::string addon;    // an [[addon_library]] name
  std::string version;  // the add-on's release as written ("0.0.28.post3")
  Version torch;        // "2.5.1"
  Provenance provenance;
  bool operator==(const AddonTorchBuild&) const = default;
};

// The CUDA (and cuDNN) the builds of an add-on's releases [from, until) on PyPI were made with.
struct AddonCudaBuild {
  std::string addon;             // an [[addon_library]] name
  Version from;                  // the first release ("1.19")
  std::optional<Version> until;  // the first release after the range; unset: open-ended
  Version cuda;                  // "11.8", "12"
  std::optional<Version> cudnn;  // "8", "9"
  Provenance provenance;
  bool operator==(const AddonCudaBuild&) const = default;
};

enum class RouteVendor { kAmd, kNvidia, kAny };
enum class RouteStatus { kOfficial, kPreview, kNightly, kCommunity, kLegacy, kSuperseded };
const char* ToString(RouteStatus s);

struct TorchRoute {
  std::string id;
  std::string name;
  RouteVendor vendor = RouteVendor::kAny;
  RouteStatus status = RouteStatus::kOfficial;
  std::vector<Platform> os;
  std::vector<std::string> gfx;
  bool gfx_any = false;
  std::string wheels;  // "rocm", "cuda", ""
  std::vector<std::string> python;
  std::string driver;
  ShellCommands install;  // placeholders {variant} {gfx} {family} {rocm}
  Provenance provenance;
  bool operator==(const TorchRoute&) const = default;
};

// ---- HSA_OVERRIDE_GFX_VERSION --------------------------------------------------------------------

enum class OverrideVerdict { kWorks, kRisky, kUnverified };
enum class PitfallWhen { kListed, kCrossFamily, kNativeTarget, kWindows, kMixedGpus, kInvalidValue };

struct OverrideRule {
  std::vector<std::string> gfx;  // physical targets
  std::string value;             // "10.3.0"
  OverrideVerdict verdict = OverrideVerdict::kUnverified;
  std::string native_wheels;  // first pytorch.org variant with the gfx itself, "" when none
  Provenance provenance;
  bool operator==(const OverrideRule&) const = default;
};

struct OverridePitfall {
  std::string id;
  PitfallWhen when = PitfallWhen::kListed;
  std::vector<std::string> gfx;     // for kListed
  std::vector<std::string> values;  // for kListed
  Severity severity = Severity::kWarning;
  std::string problem;
  std::string fix;
  std::vector<std::string> symptoms;
  // The GPU's own code (a native build) is wrong too: no install route is safe for it.
  bool native_wrong = false;
  Provenance provenance;
  bool operator==(const OverridePitfall&) const = default;
};

// The kinds of fix for a GPU whose installed build lacks the GPU's own code, as [[fix_ranking]] orders them.
enum class TargetFixKind {
  kNativeBuild,     // an official or preview build compiled for the target (pytorch.org's, AMD's wheels)
  kOverride,        // HSA_OVERRIDE_GFX_VERSION from the target's [[override_rule]]
  kCommunityBuild,  // a nightly or community build that carries the target (TheRock nightlies, ZLUDA)
};
enum class FixSituation {
  kCodeLacksTarget,  // the installed build has no code for the GPU's own target (hipErrorNoBinaryForGpu)
};

// [[fix_ranking]]: the order check and explain give the fixes in, per situation and GPU target.
struct FixRanking {
  FixSituation situation = FixSituation::kCodeLacksTarget;
  std::vector<std::string> gfx;      // the targets the row is for; empty: every target without a row
  std::vector<TargetFixKind> order;  // best first; a kind absent here is not offered
  Provenance provenance;
  bool operator==(const FixRanking&) const = default;
};

// ---- Shared libraries (shared_libraries.toml) ----------------------------------------------------

// A shared library or DLL that GPU software loads, the component that ships it and how each install route
// provides it: the loader model `explain` and `check` read a loader failure with.
struct SharedLibrary {
  // File names; '*' stands for the version digits ("libcudart.so.*", "cudart64_*.dll"), at most one.
  std::vector<std::string> names;
  std::string component;  // "the CUDA runtime (cudart)"
  std::string family;     // "cuda", "cudnn", "nccl", "nvidia_driver", "rocm", "amd_driver", "cxx", ...
  // What the version in the file name means, "{v}" standing for it: "CUDA {v}", "cuDNN {v}"; "" for none.
  std::string version_label;
  std::string pip;      // the pip package, "{v}" standing for the version: "nvidia-cublas-cu{v}"; "" for none
  std::string conda;    // the conda package (conda-forge), "" for none
  std::string system;   // what provides it in a system install: "the CUDA {v} toolkit", "apt install libgl1"
  bool driver = false;  // part of the GPU driver: never from pip or conda; a container gets it mapped in
  Provenance provenance;
  bool operator==(const SharedLibrary&) const = default;
};

// ---- Status codes (status_codes.toml) -----------------------------------------------------------

// What a status code of a GPU API means (VK_ERROR_INCOMPATIBLE_DRIVER, CL_OUT_OF_RESOURCES, CUFFT_*, NVML_*,
// DXGI_ERROR_*), whichever program printed it: the status-code model `explain` reads a quoted code with.
struct StatusCode {
  std::string api;               // "vulkan", "opencl", "level_zero", "sycl", "cufft", "nvml", "dxgi", ...
  std::string code;              // the name as the API's header spells it: "VK_ERROR_INCOMPATIBLE_DRIVER"
  std::optional<int64_t> value;  // its number (-9; 0x887A0005 for an HRESULT); none when not recorded
  std::string meaning;           // what it means for someone setting up a GPU, and what to check first
  Provenance provenance;
  bool operator==(const StatusCode&) const = default;
};

// A component of the GPU stack that a failing line may name ("vulkan", "cudnn", "nccl"): what it is and the
// command that shows its state, for a failure no catalog entry knows (components.toml).
struct StackComponent {
  std::string name;                 // "Vulkan"
  std::vector<std::string> tokens;  // words that name it in a log, matched whole and case-insensitively
  std::string what;                 // "the Vulkan loader and the GPU's Vulkan driver (ICD)"
  std::string state;                // the command that shows its state: "vulkaninfo --summary"
  Provenance provenance;
  bool operator==(const StackComponent&) const = default;
};

// The newest libstdc++ symbol version (GLIBCXX_3.4.N, CXXABI_1.3.N) each GCC release adds: a binary that
// asks for one needs a libstdc++ at least as new as that GCC's.
struct CxxRuntimeVersion {
  std::string symbol_version;  // "GLIBCXX_3.4.30"
  std::string gcc;             // "12.1"
  Provenance provenance;
  bool operator==(const CxxRuntimeVersion&) const = default;
};

// The glibc version of common distributions: a binary asking for GLIBC_2.N runs on those with >= N.
struct GlibcRelease {
  Version glibc;                           // "2.35"
  std::vector<std::string> distributions;  // "Ubuntu 22.04"
  Provenance provenance;
  bool operator==(const GlibcRelease&) const = default;
};

}  // namespace gpudoctor
