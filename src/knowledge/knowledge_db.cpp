// Lookups over the knowledge base and the small decoding rules they rely on (KFD gfx_target_version,
// HSA_OVERRIDE_GFX_VERSION, NVIDIA's cubin/PTX compatibility). See knowledge_db.h.
#include "knowledge/knowledge_db.h"

#include <algorithm>
#include <cstdio>

namespace gpudoctor {
namespace {

template <typename T, typename Pred>
const T* FindIf(const std::vector<T>& items, Pred pred) {
  auto it = std::find_if(items.begin(), items.end(), pred);
  return it == items.end() ? nullptr : &*it;
}

// Lower-case hex digit of 0..15.
char HexDigit(uint32_t v) {
  return static_cast<char>(v < 10 ? '0' + v : 'a' + (v - 10));
}

// gfx name from the three numbers KFD and libhsakmt use: major decimal, minor and step one hex digit each.
std::optional<std::string> GfxName(uint32_t major, uint32_t minor, uint32_t step) {
  if (major == 0 || minor > 15 || step > 15) return std::nullopt;
  return "gfx" + std::to_string(major) + HexDigit(minor) + HexDigit(step);
}

}  // namespace

const char* ToString(CcSupport s) {
  switch (s) {
    case CcSupport::kNone:
      return "none";
    case CcSupport::kExactCubin:
      return "exact cubin";
    case CcSupport::kCompatibleCubin:
      return "compatible cubin";
    case CcSupport::kPtxJit:
      return "PTX JIT";
  }
  return "none";
}

std::optional<std::string> GfxNameFromKfdVersion(uint32_t kfd_version) {
  if (kfd_version == 0) return std::nullopt;
  return GfxName(kfd_version / 10000, (kfd_version / 100) % 100, kfd_version % 100);
}

std::optional<std::string> GfxNameFromOverride(std::string_view value) {
  auto v = Version::Parse(value);
  if (!v || v->parts().size() != 3) return std::nullopt;
  // libhsakmt's limits; names beyond one hex digit per part do not exist.
  if (v->major() > 63 || v->minor() > 255 || v->patch() > 255) return std::nullopt;
  return GfxName(v->major(), v->minor(), v->patch());
}

std::string SmName(const Version& cc) {
  return "sm_" + std::to_string(cc.major()) + std::to_string(cc.minor());
}

CcSupport WheelSupportsCc(const TorchWheel& wheel, const Version& cc) {
  CcSupport best = CcSupport::kNone;
  for (const CompiledCudaArch& a : wheel.cuda_archs) {
    if (a.cc == cc) return CcSupport::kExactCubin;
    // A cubin for X.y runs on X.z when z >= y.
    if (a.cc.major() == cc.major() && a.cc.minor() <= cc.minor()) best = CcSupport::kCompatibleCubin;
    // PTX compiles forward to any newer GPU.
    if (a.ptx && a.cc < cc && best == CcSupport::kNone) best = CcSupport::kPtxJit;
  }
  return best;
}

bool WheelHasGfx(const TorchWheel& wheel, std::string_view gfx) {
  return std::find(wheel.gfx.begin(), wheel.gfx.end(), gfx) != wheel.gfx.end();
}

const GpuTarget* KnowledgeDb::FindGfxTarget(std::string_view name) const {
  return FindIf(gfx_targets, [&](const GpuTarget& t) { return t.name == name; });
}

const GpuTarget* KnowledgeDb::FindGfxTargetByKfdVersion(uint32_t kfd_version) const {
  if (kfd_version == 0) return nullptr;  // a CPU node, or a target KFD has no version for
  return FindIf(gfx_targets, [&](const GpuTarget& t) { return t.kfd_version == kfd_version; });
}

std::optional<AmdGpuMatch> KnowledgeDb::FindAmdModel(uint32_t device_id,
                                                     std::optional<uint32_t> revision) const {
  const AmdPciDevice* d =
      FindIf(amd_devices, [&](const AmdPciDevice& x) { return x.device_id == device_id; });
  if (d == nullptr) return std::nullopt;
  AmdGpuMatch m;
  m.device = d;
  m.name = d->name;
  if (revision) {
    if (const AmdRevisionName* r =
            FindIf(d->revisions, [&](const AmdRevisionName& x) { return x.revision == *revision; })) {
      m.name = r->name;
      m.revision_known = true;
    }
  }
  m.model = FindAmdModelByName(m.name);
  m.target = FindGfxTarget(d->gfx);
  return m;
}

const AmdGpuModel* KnowledgeDb::FindAmdModelByName(std::string_view name) const {
  return FindIf(amd_models, [&](const AmdGpuModel& m) { return m.name == name; });
}

const NvidiaGpuModel* KnowledgeDb::FindNvidiaModel(uint32_t device_id) const {
  return FindIf(nvidia_gpus, [&](const NvidiaGpuModel& g) { return g.device_id == device_id; });
}

const CudaArch* KnowledgeDb::FindCudaArch(const Version& cc) const {
  return FindIf(cuda_archs, [&](const CudaArch& a) { return a.cc == cc; });
}

std::optional<CudaDriverFloors> KnowledgeDb::CudaDriverFloor(const Version& cuda) const {
  const CudaMinorCompat* compat = FindIf(
      cuda_minor_compat, [&](const CudaMinorCompat& c) { return c.cuda <= cuda && cuda <= c.cuda_max; });
  if (compat == nullptr) return std::nullopt;
  CudaDriverFloors f;
  f.cuda = cuda;
  f.minor_compat = compat;
  f.toolkit = CudaToolkitDriverOf(cuda);
  return f;
}

const CudaToolkitDriver* KnowledgeDb::CudaToolkitDriverOf(const Version& cuda) const {
  Version minor = *Version::Parse(std::to_string(cuda.major()) + "." + std::to_string(cuda.minor()));
  return FindIf(cuda_toolkit_drivers, [&](const CudaToolkitDriver& t) { return t.cuda == minor; });
}

uint32_t KnowledgeDb::DriverBranchNumber(const Version& driver, bool windows) const {
  if (!windows) return driver.major();
  for (const NvidiaWindowsBranch& w : nvidia_windows_branches) {
    if (std::find(w.majors.begin(), w.majors.end(), driver.major()) == w.majors.end()) continue;
    auto number = Version::Parse(std::string_view(w.branch).substr(1));  // "R580" -> 580
    if (number) return number->major();
  }
  return driver.major();
}

const RocmRelease* KnowledgeDb::FindRocmRelease(const Version& version) const {
  return FindIf(rocm_releases, [&](const RocmRelease& r) { return version.HasPrefix(r.series); });
}

std::vector<const TheRockFamily*> KnowledgeDb::FindTheRockFamilies(std::string_view gfx) const {
  std::vector<const TheRockFamily*> out;
  for (const TheRockFamily& f : therock_families) {
    if (std::find(f.gfx.begin(), f.gfx.end(), gfx) != f.gfx.end()) out.push_back(&f);
  }
  return out;
}

const TorchRelease* KnowledgeDb::FindTorchRelease(const Version& version) const {
  return FindIf(torch_releases, [&](const TorchRelease& t) { return version.HasPrefix(t.version); });
}

const TorchPypiDefault* KnowledgeDb::FindTorchPypiDefault(const Version& version) const {
  return FindIf(torch_pypi_defaults, [&](const TorchPypiDefault& d) { return version.HasPrefix(d.torch); });
}

const NvidiaDriverInstall* KnowledgeDb::FindNvidiaDriverInstall(
    std::string_view id, const std::vector<std::string>& id_like) const {
  auto naming = [&](std::string_view distro) {
    return FindIf(nvidia_driver_installs, [&](const NvidiaDriverInstall& n) {
      return std::find(n.distros.begin(), n.distros.end(), distro) != n.distros.end();
    });
  };
  if (!id.empty())
    if (const NvidiaDriverInstall* own = naming(id)) return own;
  for (const std::string& like : id_like)
    if (const NvidiaDriverInstall* parent = naming(like)) return parent;
  return naming("*");
}

const FabricManagerInstall* KnowledgeDb::FindFabricManagerInstall(
    std::string_view id, const std::vector<std::string>& id_like) const {
  auto naming = [&](std::string_view distro) {
    return FindIf(fabric_manager_installs, [&](const FabricManagerInstall& f) {
      return std::find(f.distros.begin(), f.distros.end(), distro) != f.distros.end();
    });
  };
  if (!id.empty())
    if (const FabricManagerInstall* own = naming(id)) return own;
  for (const std::string& like : id_like)
    if (const FabricManagerInstall* parent = naming(like)) return parent;
  return naming("*");
}

std::vector<const TorchWheel*> KnowledgeDb::FindTorchWheels(const Version& version) const {
  std::vector<const TorchWheel*> out;
  for (const TorchWheel& w : torch_wheels) {
    if (version.HasPrefix(w.torch)) out.push_back(&w);
  }
  return out;
}

const TorchWheel* KnowledgeDb::FindTorchWheel(const Version& version, std::string_view variant) const {
  return FindIf(torch_wheels,
                [&](const TorchWheel& w) { return version.HasPrefix(w.torch) && w.variant == variant; });
}

const TorchRoute* KnowledgeDb::FindRoute(std::string_view id) const {
  return FindIf(torch_routes, [&](const TorchRoute& r) { return r.id == id; });
}

const TorchCompanion* KnowledgeDb::FindTorchCompanion(const Version& torch) const {
  return FindIf(torch_companions, [&](const TorchCompanion& c) { return torch.HasPrefix(c.torch); });
}

const OverrideRule* KnowledgeDb::FindOverrideRule(std::string_view gfx) const {
  return FindIf(override_rules, [&](const OverrideRule& r) {
    return std::find(r.gfx.begin(), r.gfx.end(), gfx) != r.gfx.end();
  });
}

const FixRanking* KnowledgeDb::FindFixRanking(FixSituation situation, std::string_view gfx) const {
  const FixRanking* any = nullptr;
  for (const FixRanking& r : fix_rankings) {
    if (r.situation != situation) continue;
    if (std::find(r.gfx.begin(), r.gfx.end(), gfx) != r.gfx.end()) return &r;
    if (r.gfx.empty() && any == nullptr) any = &r;
  }
  return any;
}

std::string KnowledgeDb::FirstNativeWheel(const OverrideRule& rule, std::string_view gfx) const {
  if (rule.native_wheels.empty()) return "";
  const TorchWheel* first = nullptr;
  for (const TorchWheel& w : torch_wheels) {
    if (w.variant == rule.native_wheels && WheelHasGfx(w, gfx) && (!first || w.torch < first->torch))
      first = &w;
  }
  return first ? "torch " + first->torch.ToString() + " " + first->variant : rule.native_wheels;
}

const OverridePitfall* KnowledgeDb::FindPitfall(std::string_view id) const {
  return FindIf(override_pitfalls, [&](const OverridePitfall& p) { return p.id == id; });
}

const OverridePitfall* KnowledgeDb::FindNativeWrongPitfall(std::string_view gfx) const {
  return FindIf(override_pitfalls, [&](const OverridePitfall& p) {
    return p.native_wrong && std::find(p.gfx.begin(), p.gfx.end(), gfx) != p.gfx.end();
  });
}

template <typename Fn>
void KnowledgeDb::ForEachProvenance(Fn&& fn) const {
  auto each = [&](std::string_view section, const auto& items) {
    for (const auto& item : items) fn(section, item.provenance);
  };
  each("gfx_target", gfx_targets);
  each("amd_device", amd_devices);
  each("amd_model", amd_models);
  each("cuda_arch", cuda_archs);
  each("nvidia_gpu", nvidia_gpus);
  each("cuda_minor_compat", cuda_minor_compat);
  each("cuda_toolkit_driver", cuda_toolkit_drivers);
  each("nvidia_driver_branch", nvidia_driver_branches);
  each("nvidia_open_modules_only", nvidia_open_modules_only);
  each("nvidia_driver_install", nvidia_driver_installs);
  each("fabric_manager_install", fabric_manager_installs);
  each("nvlsm_architecture", nvlsm_architectures);
  each("nvidia_windows_branch", nvidia_windows_branches);
  each("rocm_release", rocm_releases);
  each("kernel_floor", kernel_floors);
  each("hip_sdk_windows", hip_sdks_windows);
  each("rocm_wsl", rocm_wsl);
  each("therock_status", therock_status);
  each("therock_family", therock_families);
  each("therock_version", therock_versions);
  each("torch_release", torch_releases);
  each("torch_wheel", torch_wheels);
  each("torch_route", torch_routes);
  each("torch_companion", torch_companions);
  each("torch_build_gfx", torch_build_gfx);
  each("torch_pypi_default", torch_pypi_defaults);
  each("package_index", package_indexes);
  each("override_rule", override_rules);
  each("override_pitfall", override_pitfalls);
  each("fix_ranking", fix_rankings);
  each("shared_library", shared_libraries);
  each("cxx_runtime_version", cxx_runtime_versions);
  each("glibc_release", glibc_releases);
  each("status_code", status_codes);
  each("component", components);
  each("addon_library", addon_libraries);
  each("addon_gpu_floor", addon_gpu_floors);
  each("addon_torch_build", addon_torch_builds);
  each("addon_cuda_build", addon_cuda_builds);
}

std::string KnowledgeDb::AsOf() const {
  const std::string* newest = nullptr;
  ForEachProvenance([&](std::string_view, const Provenance& p) {
    if (newest == nullptr || p.checked > *newest) newest = &p.checked;
  });
  return newest == nullptr ? std::string() : *newest;
}

void KnowledgeDb::VisitProvenance(const std::function<void(std::string_view, const Provenance&)>& fn) const {
  ForEachProvenance(fn);
}

}  // namespace gpudoctor
