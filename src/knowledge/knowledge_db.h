// KnowledgeDb: every entry of the knowledge base plus the lookups rules need ("which gfx is this
// KFD node", "what is PCI 1002:744c rev c8", "which wheels exist for torch 2.7", "what driver does
// CUDA 12.8 need"). Pure data and pure functions; loading lives in knowledge_loader.h.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "knowledge/knowledge_types.h"
#include "knowledge/version.h"

namespace gpudoctor {

// A PCI device resolved to its name, figures and target.
struct AmdGpuMatch {
  const AmdPciDevice* device = nullptr;
  std::string name;                    // by revision when listed, else the device's name
  bool revision_known = false;         // false: the name is the device-level fallback
  const AmdGpuModel* model = nullptr;  // figures, when a model of that name is recorded
  const GpuTarget* target = nullptr;
};

// Both driver floors for one CUDA version (see data/cuda_drivers.toml).
struct CudaDriverFloors {
  Version cuda;
  const CudaMinorCompat* minor_compat = nullptr;  // loads at all (any runtime of the major)
  const CudaToolkitDriver* toolkit = nullptr;     // the toolkit's own driver, when recorded
};

// How a wheel's CUDA code reaches a GPU of a given compute capability.
enum class CcSupport {
  kNone,             // no cubin that runs there and no usable PTX
  kExactCubin,       // a cubin for exactly this cc
  kCompatibleCubin,  // a cubin for X.y with y < z on an X.z GPU (same major)
  kPtxJit,           // only PTX of an older cc, compiled by the driver at load time
};
const char* ToString(CcSupport s);

struct KnowledgeDb {
  std::vector<std::string> files;  // base names of the files loaded, sorted
  // Where the files came from: "embedded", or "DIR over embedded" for --db DIR (db show prints it).
  std::string origin = "embedded";

  std::vector<GpuTarget> gfx_targets;
  std::vector<AmdPciDevice> amd_devices;
  std::vector<AmdGpuModel> amd_models;
  std::vector<CudaArch> cuda_archs;
  std::vector<NvidiaGpuModel> nvidia_gpus;
  std::vector<CudaMinorCompat> cuda_minor_compat;
  std::vector<CudaToolkitDriver> cuda_toolkit_drivers;
  std::vector<NvidiaDriverBranch> nvidia_driver_branches;
  std::vector<NvidiaOpenModulesOnly> nvidia_open_modules_only;
  std::vector<NvidiaDriverInstall> nvidia_driver_installs;
  std::vector<FabricManagerInstall> fabric_manager_installs;
  std::vector<NvlsmArchitecture> nvlsm_architectures;
  std::vector<NvidiaWindowsBranch> nvidia_windows_branches;
  std::vector<RocmRelease> rocm_releases;
  std::vector<KernelFloor> kernel_floors;
  std::vector<HipSdkWindows> hip_sdks_windows;
  std::vector<RocmWslNote> rocm_wsl;
  std::vector<TheRockStatus> therock_status;
  std::vector<TheRockFamily> therock_families;
  std::vector<TheRockVersion> therock_versions;
  std::vector<TorchRelease> torch_releases;
  std::vector<TorchWheel> torch_wheels;
  std::vector<TorchRoute> torch_routes;
  std::vector<TorchCompanion> torch_companions;
  std::vector<TorchBuildGfx> torch_build_gfx;
  std::vector<TorchPypiDefault> torch_pypi_defaults;
  std::vector<PackageIndex> package_indexes;
  std::vector<AddonLibrary> addon_libraries;
  std::vector<AddonGpuFloor> addon_gpu_floors;
  std::vector<AddonTorchBuild> addon_torch_builds;
  std::vector<AddonCudaBuild> addon_cuda_builds;
  std::vector<OverrideRule> override_rules;
  std::vector<OverridePitfall> override_pitfalls;
  std::vector<FixRanking> fix_rankings;
  std::vector<SharedLibrary> shared_libraries;
  std::vector<CxxRuntimeVersion> cxx_runtime_versions;
  std::vector<GlibcRelease> glibc_releases;
  std::vector<StatusCode> status_codes;
  std::vector<StackComponent> components;

  bool operator==(const KnowledgeDb&) const = default;

  const GpuTarget* FindGfxTarget(std::string_view name) const;
  const GpuTarget* FindGfxTargetByKfdVersion(uint32_t kfd_version) const;
  std::optional<AmdGpuMatch> FindAmdModel(uint32_t device_id, std::optional<uint32_t> revision) const;
  const AmdGpuModel* FindAmdModelByName(std::string_view name) const;

  const NvidiaGpuModel* FindNvidiaModel(uint32_t device_id) const;
  const CudaArch* FindCudaArch(const Version& cc) const;
  // The floors for a CUDA runtime version ("12.8", "13.0"); nullopt when no minor-compat row covers it.
  std::optional<CudaDriverFloors> CudaDriverFloor(const Version& cuda) const;
  // The toolkit row of `cuda`'s major.minor ("12.8.1" -> the 12.8 row), or nullptr: also before CUDA 11,
  // where no minor-version compatibility (and so no CudaDriverFloor) exists.
  const CudaToolkitDriver* CudaToolkitDriverOf(const Version& cuda) const;
  // The branch number a driver belongs to (580 for R580): on Linux its first number; on Windows the
  // branch whose [[nvidia_windows_branch]] lists that first number (581.57 -> 580), else its first number.
  uint32_t DriverBranchNumber(const Version& driver, bool windows) const;

  // The Linux series covering `version` ("6.4.2" -> series 6.4).
  const RocmRelease* FindRocmRelease(const Version& version) const;
  std::vector<const TheRockFamily*> FindTheRockFamilies(std::string_view gfx) const;

  const TorchRelease* FindTorchRelease(const Version& version) const;
  // The PyPI Linux wheel's CUDA build of the release series of `version` ("2.9.1" -> the 2.9 row), or
  // nullptr when none is recorded.
  const TorchPypiDefault* FindTorchPypiDefault(const Version& version) const;
  // How this distribution installs NVIDIA's driver: the row naming `id`, else one naming an ID_LIKE
  // entry (in its order), else the "*" row; nullptr when there is none.
  const NvidiaDriverInstall* FindNvidiaDriverInstall(std::string_view id,
                                                     const std::vector<std::string>& id_like) const;
  // The Fabric Manager install of this distribution: its os-release ID's row, else ID_LIKE's, else "*".
  const FabricManagerInstall* FindFabricManagerInstall(std::string_view id,
                                                       const std::vector<std::string>& id_like) const;
  // Wheels of the release series of `version` ("2.7" and "2.7.1" both give the 2.7 wheels).
  std::vector<const TorchWheel*> FindTorchWheels(const Version& version) const;
  const TorchWheel* FindTorchWheel(const Version& version, std::string_view variant) const;
  const TorchRoute* FindRoute(std::string_view id) const;
  // The torchvision / torchaudio series built for the torch series of `torch` ("2.7.1" -> the 2.7 row).
  const TorchCompanion* FindTorchCompanion(const Version& torch) const;

  const OverrideRule* FindOverrideRule(std::string_view gfx) const;
  // The first wheel that carries `gfx` among the rule's native_wheels variant ("torch 2.13 rocm7.2": older
  // torch releases of the same variant may lack it), or the variant alone when no wheel record has it; ""
  // when the rule names none.
  std::string FirstNativeWheel(const OverrideRule& rule, std::string_view gfx) const;
  const OverridePitfall* FindPitfall(std::string_view id) const;
  // The [[fix_ranking]] row for `gfx` in `situation`: the one naming the target, else the row naming none;
  // nullptr when neither exists.
  const FixRanking* FindFixRanking(FixSituation situation, std::string_view gfx) const;
  // The pitfall saying that even `gfx`'s own code computes wrong results (gfx1033), or nullptr.
  const OverridePitfall* FindNativeWrongPitfall(std::string_view gfx) const;

  // The library a file name or path names ("libcublasLt.so.11", ".../torch/lib/c10.dll", case ignored on
  // DLLs), with the version its '*' stands for in `version` ("11"; Windows DLL digits read as the CUDA major:
  // "110" -> "11"); nullptr when no row names it.
  const SharedLibrary* FindSharedLibrary(std::string_view file, std::string* version = nullptr) const;
  // The GCC release that added a libstdc++ symbol version ("GLIBCXX_3.4.30" -> 12.1), nullptr when unknown.
  const CxxRuntimeVersion* FindCxxRuntimeVersion(std::string_view symbol_version) const;
  // The distributions whose glibc is at least `glibc` (the oldest first), from the rows recorded.
  std::vector<const GlibcRelease*> GlibcAtLeast(const Version& glibc) const;

  // The status code of `api` that `text` names: its full name ("VK_ERROR_DEVICE_LOST"), the name without the
  // API's prefix as some bindings print it ("ERROR_DEVICE_LOST"), or its number ("-5", "0x887A0005",
  // "887A0005"); case ignored. nullptr when the API has no such row.
  const StatusCode* FindStatusCode(std::string_view api, std::string_view text) const;
  bool HasStatusApi(std::string_view api) const;
  // The components whose tokens `text` names as whole words (case ignored), in the order of the rows.
  std::vector<const StackComponent*> ComponentsNamedIn(std::string_view text) const;

  // Calls `fn` with the section name ("amd_device") and provenance of every entry.
  void VisitProvenance(const std::function<void(std::string_view, const Provenance&)>& fn) const;
  // The database's "as of" date: the newest `checked` of any entry ("YYYY-MM-DD"), "" when none has one.
  std::string AsOf() const;

  // Add-on libraries (addon_lookup.cpp). The add-on a distribution belongs to ("onnxruntime_gpu" and
  // "onnxruntime-gpu" alike: names compare PEP 503 normalized), or nullptr.
  const AddonLibrary* FindAddon(std::string_view distribution) const;
  // The GPU floors of `addon` that apply to its release `version` (every floor without `from` when the
  // release is unknown).
  std::vector<const AddonGpuFloor*> AddonGpuFloorsFor(std::string_view addon,
                                                      const std::optional<Version>& version) const;
  // The newest release of `addon` built for exactly `torch` (the last such row of the file), or nullptr.
  const AddonTorchBuild* AddonBuildForTorch(std::string_view addon, const Version& torch) const;
  // The CUDA build of `addon`'s release `version` ([from, until) holds it), or nullptr.
  const AddonCudaBuild* AddonCudaBuildOf(std::string_view addon, const Version& version) const;
  // The newest release range of `addon` built for CUDA `cuda_major`, or nullptr.
  const AddonCudaBuild* NewestAddonCudaBuild(std::string_view addon, uint32_t cuda_major) const;

 private:
  // What VisitProvenance does, with `fn` called directly: AsOf runs on every explain report, and going
  // through std::function for each of the database's entries was a fifth of the explain fuzz target's time.
  template <typename Fn>
  void ForEachProvenance(Fn&& fn) const;
};

// KFD gfx_target_version -> gfx name: 100300 -> "gfx1030", 90010 -> "gfx90a" (major decimal, minor and
// step hex). nullopt for 0 (a CPU node) or a value out of range.
std::optional<std::string> GfxNameFromKfdVersion(uint32_t kfd_version);
// HSA_OVERRIDE_GFX_VERSION as libhsakmt reads it ("major.minor.stepping", decimal, major <= 63,
// minor and stepping <= 255) -> the gfx name it selects ("10.3.0" -> "gfx1030", "9.0.10" -> "gfx90a").
// nullopt for anything libhsakmt rejects.
std::optional<std::string> GfxNameFromOverride(std::string_view value);
// "sm_89" for 8.9.
std::string SmName(const Version& cc);
// Whether code in `wheel` runs on a GPU of compute capability `cc` (NVIDIA's binary compatibility rule).
CcSupport WheelSupportsCc(const TorchWheel& wheel, const Version& cc);
// Whether a ROCm wheel carries code objects for `gfx` (exact target only: ROCm has no PTX fallback).
bool WheelHasGfx(const TorchWheel& wheel, std::string_view gfx);

}  // namespace gpudoctor
