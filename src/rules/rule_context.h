// What every rule works from: the Snapshot and the knowledge base, plus the facts several layers
// need, computed once and purely — which OS route applies, each compute GPU with its DB entry, the
// PyTorch in use and its wheel, the route that fits a GPU. No I/O here either.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/os.h"
#include "core/strings.h"  // JoinList
#include "knowledge/id_range_guess.h"
#include "knowledge/knowledge_db.h"
#include "knowledge/torch_wheel_lookup.h"  // BestCudaWheel
#include "rules/finding.h"
#include "rules/rules.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// One AMD or NVIDIA GPU, as the rules see it.
struct GpuView {
  const Gpu* gpu = nullptr;
  const PciDevice* pci = nullptr;  // nullptr when the GPU was seen only through NVML
  GpuVendor vendor = GpuVendor::kUnknown;
  std::string label;  // "0000:03:00.0 Radeon RX 6700 XT (gfx1031)"
  bool integrated = false;
  // AMD
  std::string gfx;                      // "gfx1031"
  const GpuTarget* target = nullptr;    // from gfx_targets.toml
  std::optional<AmdGpuMatch> amd;       // PCI id found in the DB
  std::optional<uint32_t> amd_ordinal;  // index among the AMD KFD GPU nodes, in KFD order
  // NVIDIA
  std::optional<Version> cc;  // compute capability, from NVML or the DB
  const NvidiaGpuModel* nvidia_model = nullptr;
  // Where the gfx target or compute capability came from: "KFD", "NVML", "the knowledge base",
  // "neighbouring PCI ids" (id_guess), "the snapshot"; "" when unknown.
  std::string arch_source;
  std::optional<IdRangeGuess> id_guess;  // set when the architecture was guessed from the id's range
  // The PCI id is in the knowledge base (so the name is known).
  bool name_known() const { return amd.has_value() || nvidia_model != nullptr; }
  // The gfx target or compute capability is known, from the driver, the tables or the id's range.
  bool arch_known() const { return vendor == GpuVendor::kAmd ? !gfx.empty() : cc.has_value(); }
};

enum class TorchBuild { kCuda, kRocm, kCpu, kUnknown };

// The PyTorch the user most likely runs (the active environment's, else the first found).
struct TorchView {
  const PythonEnv* env = nullptr;
  std::optional<Version> version;  // 2.7.1 (the part before '+')
  std::string variant;             // "cu128", "rocm6.2", "cpu", "" when the version has no local tag
  TorchBuild build = TorchBuild::kUnknown;
  std::optional<Version> cuda;        // torch.version.cuda
  std::optional<Version> rocm;        // from the variant ("rocm6.2") or torch.version.hip's major.minor
  const TorchWheel* wheel = nullptr;  // the knowledge base's record of this exact build
  // The GPU code read from its libraries (TorchInstall::gpu_code); it outranks the wheel record.
  std::vector<std::string> cubins;       // "sm_90", "sm_90a"
  std::vector<std::string> ptx;          // "compute_120"
  std::vector<std::string> amd;          // processors: "gfx1030", "gfx11-generic"
  std::string code_files;                // "libtorch_hip.so", the libraries that held them
  std::vector<std::string> tensile_gfx;  // rocBLAS / hipBLASLt kernel files' targets, when a folder was read
  std::string tensile_folders;           // "rocblas, hipblaslt"
  bool HasCudaCode() const { return !cubins.empty() || !ptx.empty(); }
  bool HasAmdCode() const { return !amd.empty(); }
};

// The route that fits a GPU, with its placeholders filled.
struct RouteChoice {
  const TorchRoute* route = nullptr;
  std::string variant;  // the torch_wheel variant the command installs ("rocm7.2", "cu126"), "" when none
  const TorchWheel* wheel = nullptr;
  ShellCommands install;
};

struct RuleContext {
  const Snapshot& snap;
  const KnowledgeDb& db;
  const RuleOptions& options;
  Platform platform = Platform::kLinux;
  std::vector<GpuView> gpus;  // AMD and NVIDIA GPUs, dGPUs first, then in PCI order
  std::optional<TorchView> torch;
  std::optional<Version> nvidia_driver;
  std::optional<std::string> override_value;  // HSA_OVERRIDE_GFX_VERSION as set

  RuleContext(const Snapshot& snapshot, const KnowledgeDb& knowledge, const RuleOptions& opts);

  bool HasVendor(GpuVendor v) const;
  std::optional<std::string> Env(const std::string& name) const;
  const char* PlatformName() const;  // "Linux", "WSL2", "Windows"
};

// The first AMD GPU whose gfx target is known; nullptr when there is none.
const GpuView* PrimaryAmd(const RuleContext& ctx);

// Parses "2.7.1+cu128" against the DB.
TorchView MakeTorchView(const PythonEnv& env, const KnowledgeDb& db);

// The best route for a GPU on this platform (official first, then preview, nightly, community,
// legacy), and the alternatives after it. Empty when none fits.
std::vector<RouteChoice> RoutesFor(const RuleContext& ctx, const GpuView& gpu);
// Fills {variant} {gfx} {family} {rocm} in a route's commands.
ShellCommands FillPlaceholders(const ShellCommands& commands, const std::string& variant,
                               const std::string& gfx, const std::string& family, const std::string& rocm);
// Runs a pip command with the environment's own interpreter: bash's `python3 -m pip` in a venv or conda
// env; on Windows PowerShell's and cmd's `py -m pip` with the environment's python.exe (any kind: the
// launcher's default Python may be another one).
ShellCommands ForEnvironment(ShellCommands commands, const PythonEnv* env);

// How the cubins and PTX read from torch's libraries reach a GPU of compute capability `cc`: a plain
// sm_XY cubin runs on X.Z with Z >= Y; an arch- or family-specific one (sm_90a, sm_100f) only on its
// own cc; plain PTX compute_XY is compiled by the driver on any cc >= X.Y.
CcSupport CodeSupportsCc(const TorchView& t, const Version& cc);
// Whether the AMD code read from torch's libraries runs on `gfx` (its own target, or the LLVM generic
// target `generic` of its family, e.g. gfx11-generic).
bool CodeHasGfx(const TorchView& t, const std::string& gfx, const std::string& generic);
// "sm_75 sm_80 sm_86 + PTX compute_120" / "gfx900 gfx1030": the code read, for evidence lines.
std::string CodeList(const TorchView& t);

// A finding with the common fields set.
Finding MakeFinding(std::string id, Layer layer, Severity severity, std::string subject, std::string title);
std::string FirstSource(const Provenance& p);
// The finding rests on the entry `p`: it becomes the finding's source, and an entry nobody has compared
// with its source (confirmed = false) is named in Finding::unconfirmed.
void Cite(Finding& f, const Provenance& p);
// The finding rests on `p` too (not its source): only the unconfirmed mark.
void RestsOn(Finding& f, const Provenance& p);
bool Contains(const std::vector<std::string>& list, const std::string& item);
// Ubuntu and the distributions built on its packages (os-release ID "ubuntu", "pop", "linuxmint").
bool IsUbuntuFamily(const std::string& distro_id);

}  // namespace gpudoctor
