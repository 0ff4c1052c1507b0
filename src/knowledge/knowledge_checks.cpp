// Whole-database checks: unique ids per section and references across files (see knowledge_checks.h).
#include "knowledge/knowledge_checks.h"

#include <algorithm>
#include <string_view>

#include "knowledge/entry_reader.h"
#include "knowledge/knowledge_invariants.h"

namespace gpudoctor {
namespace {

class Checker {
 public:
  Checker(KnowledgeDb& db, const std::map<std::string, std::string>& names,
          std::vector<KnowledgeError>& errors)
      : db_(db), names_(names), errors_(errors) {}

  void Add(const Origin& at, std::string message) {
    auto it = names_.find(at.file);
    errors_.push_back(KnowledgeError{it == names_.end() ? at.file : it->second, at.line, std::move(message)});
  }

  std::string Where(const Origin& at) const {
    auto it = names_.find(at.file);
    return (it == names_.end() ? at.file : it->second) + ":" + std::to_string(at.line);
  }

  template <typename T, typename KeyFn>
  void Unique(const std::vector<T>& items, std::string_view what, KeyFn key) {
    std::map<std::string, const T*> seen;
    for (const T& item : items) {
      std::string k = key(item);
      auto [it, inserted] = seen.emplace(k, &item);
      if (!inserted) {
        Add(item.provenance.origin, std::string(what) + " '" + k + "' is defined twice (first at " +
                                        Where(it->second->provenance.origin) + ")");
      }
    }
  }

  void Gfx(const Origin& at, std::string_view gfx, std::string_view field) {
    if (db_.FindGfxTarget(gfx) == nullptr) {
      Add(at, std::string(field) + " names '" + std::string(gfx) + "', which is not in gfx_targets.toml");
    }
  }
  void GfxList(const Origin& at, const std::vector<std::string>& list, std::string_view field) {
    for (const std::string& g : list) Gfx(at, g, field);
  }

  void Duplicates();
  void GfxTargets();
  void References();
  void AmdModelReferences();
  void NvidiaReferences();
  void AmdReleaseReferences();
  void Overrides();
  void Torch();
  void Addons();

 private:
  KnowledgeDb& db_;
  const std::map<std::string, std::string>& names_;
  std::vector<KnowledgeError>& errors_;
};

void Checker::Duplicates() {
  Unique(db_.gfx_targets, "gfx target", [](const GpuTarget& t) { return t.name; });
  Unique(db_.gfx_targets, "kfd_version", [](const GpuTarget& t) {
    return t.kfd_version == 0 ? "none:" + t.name : std::to_string(t.kfd_version);
  });
  Unique(db_.amd_devices, "AMD device", [](const AmdPciDevice& d) { return HexId(d.device_id); });
  Unique(db_.amd_models, "AMD model", [](const AmdGpuModel& m) { return m.name; });
  Unique(db_.cuda_archs, "compute capability", [](const CudaArch& a) { return a.cc.ToString(); });
  Unique(db_.nvidia_gpus, "NVIDIA device", [](const NvidiaGpuModel& g) { return HexId(g.device_id); });
  Unique(db_.cuda_minor_compat, "CUDA", [](const CudaMinorCompat& c) { return c.cuda.ToString(); });
  Unique(db_.cuda_toolkit_drivers, "CUDA toolkit",
         [](const CudaToolkitDriver& c) { return c.cuda.ToString(); });
  Unique(db_.nvidia_driver_branches, "driver branch", [](const NvidiaDriverBranch& b) { return b.branch; });
  Unique(db_.nvidia_windows_branches, "Windows numbering of branch",
         [](const NvidiaWindowsBranch& w) { return w.branch; });
  Unique(db_.nvidia_open_modules_only, "open-modules-only architecture",
         [](const NvidiaOpenModulesOnly& o) { return o.architecture; });
  Unique(db_.nvlsm_architectures, "nvlsm architecture",
         [](const NvlsmArchitecture& n) { return n.architecture; });
  Unique(db_.rocm_releases, "ROCm series", [](const RocmRelease& r) { return r.series.ToString(); });
  Unique(db_.hip_sdks_windows, "HIP SDK", [](const HipSdkWindows& h) { return h.version.ToString(); });
  Unique(db_.rocm_wsl, "WSL note", [](const RocmWslNote& w) { return w.id; });
  Unique(db_.therock_status, "TheRock platform", [](const TheRockStatus& s) { return s.platform; });
  Unique(db_.therock_families, "TheRock family", [](const TheRockFamily& f) { return f.name; });
  Unique(db_.therock_versions, "TheRock version",
         [](const TheRockVersion& v) { return v.version.ToString(); });
  Unique(db_.torch_releases, "torch release", [](const TorchRelease& t) { return t.version.ToString(); });
  Unique(db_.torch_wheels, "torch wheel",
         [](const TorchWheel& w) { return w.torch.ToString() + " " + w.variant; });
  Unique(db_.torch_routes, "route", [](const TorchRoute& r) { return r.id; });
  Unique(db_.override_pitfalls, "pitfall", [](const OverridePitfall& p) { return p.id; });
  Unique(db_.addon_libraries, "add-on", [](const AddonLibrary& a) { return a.name; });
  Unique(db_.addon_torch_builds, "add-on release",
         [](const AddonTorchBuild& b) { return b.addon + " " + b.version; });
  // Each physical gfx has at most one override rule.
  std::map<std::string, const OverrideRule*> seen;
  for (const OverrideRule& r : db_.override_rules) {
    for (const std::string& g : r.gfx) {
      auto [it, inserted] = seen.emplace(g, &r);
      if (!inserted) {
        Add(r.provenance.origin, "override rule for '" + g + "' is defined twice (first at " +
                                     Where(it->second->provenance.origin) + ")");
      }
    }
  }
}

void Checker::GfxTargets() {
  for (const GpuTarget& t : db_.gfx_targets) {
    const Origin& at = t.provenance.origin;
    auto decoded = GfxNameFromKfdVersion(t.kfd_version);
    if (t.kfd_version != 0 && decoded != t.name) {
      Add(at, "kfd_version " + std::to_string(t.kfd_version) + " decodes to '" + decoded.value_or("?") +
                  "', not '" + t.name + "'");
    }
    if (t.override_value.empty()) continue;
    auto target_name = GfxNameFromOverride(t.override_value);
    const GpuTarget* target = target_name ? db_.FindGfxTarget(*target_name) : nullptr;
    if (target == nullptr) {
      Add(at, "override '" + t.override_value + "' does not select a known gfx target");
    } else if (target == &t) {
      Add(at, "override '" + t.override_value + "' selects the target itself");
    } else if (target->generic != t.generic) {
      Add(at, "override '" + t.override_value + "' selects " + target->name + ", outside generic family '" +
                  t.generic + "'");
    }
  }
}

void Checker::References() {
  AmdModelReferences();
  NvidiaReferences();
  AmdReleaseReferences();
}

// AMD's PCI devices and models: every gfx a known target, and a model's gfx the same as its PCI device's.
void Checker::AmdModelReferences() {
  for (const AmdPciDevice& d : db_.amd_devices) Gfx(d.provenance.origin, d.gfx, "gfx");
  for (const AmdGpuModel& m : db_.amd_models) {
    Gfx(m.provenance.origin, m.gfx, "gfx");
    for (const AmdPciDevice& d : db_.amd_devices) {
      bool named =
          d.name == m.name || std::any_of(d.revisions.begin(), d.revisions.end(),
                                          [&](const AmdRevisionName& r) { return r.name == m.name; });
      if (named && d.gfx != m.gfx) {
        Add(m.provenance.origin, "gfx '" + m.gfx + "' differs from PCI device " + HexId(d.device_id) + " ('" +
                                     d.gfx + "', " + Where(d.provenance.origin) + ")");
      }
    }
  }
}

// NVIDIA's tables: every compute capability, architecture and driver branch named is one the base has; a
// Windows driver number belongs to one branch.
void Checker::NvidiaReferences() {
  for (const NvidiaGpuModel& g : db_.nvidia_gpus) {
    if (db_.FindCudaArch(g.cc) == nullptr)
      Add(g.provenance.origin, "cc " + g.cc.ToString() + " is not a [[cuda_arch]]");
  }
  auto known_architecture = [&](const std::string& name) {
    return std::any_of(db_.cuda_archs.begin(), db_.cuda_archs.end(),
                       [&](const CudaArch& a) { return a.architecture == name; });
  };
  for (const NvidiaDriverBranch& b : db_.nvidia_driver_branches) {
    for (const std::string& a : b.last_for)
      if (!known_architecture(a))
        Add(b.provenance.origin, "last_for names '" + a + "', which no [[cuda_arch]] has");
  }
  for (const NvidiaWindowsBranch& w : db_.nvidia_windows_branches) {
    bool known = std::any_of(db_.nvidia_driver_branches.begin(), db_.nvidia_driver_branches.end(),
                             [&](const NvidiaDriverBranch& b) { return b.branch == w.branch; });
    if (!known) Add(w.provenance.origin, "branch '" + w.branch + "' is not an [[nvidia_driver_branch]]");
    for (const NvidiaWindowsBranch& other : db_.nvidia_windows_branches) {
      if (&other == &w) continue;
      for (uint32_t m : w.majors)
        if (std::find(other.majors.begin(), other.majors.end(), m) != other.majors.end())
          Add(w.provenance.origin, "Windows drivers " + std::to_string(m) + ".xx are also listed for " +
                                       other.branch + ": a driver number belongs to one branch");
    }
  }
  for (const NvidiaOpenModulesOnly& o : db_.nvidia_open_modules_only) {
    if (!known_architecture(o.architecture))
      Add(o.provenance.origin, "architecture '" + o.architecture + "' is not one a [[cuda_arch]] names");
    const bool branch_known =
        std::any_of(db_.nvidia_driver_branches.begin(), db_.nvidia_driver_branches.end(),
                    [&](const NvidiaDriverBranch& b) { return b.branch == o.first_branch; });
    if (!o.first_branch.empty() && !branch_known)
      Add(o.provenance.origin, "first_branch '" + o.first_branch + "' is not a [[nvidia_driver_branch]]");
  }
  for (const NvlsmArchitecture& n : db_.nvlsm_architectures)
    if (!known_architecture(n.architecture))
      Add(n.provenance.origin, "architecture '" + n.architecture + "' is not one a [[cuda_arch]] names");
}

// AMD's release tables (kernel floors, ROCm releases, the HIP SDK, WSL, TheRock, torch routes and builds):
// every gfx a known target, and the versions they name known.
void Checker::AmdReleaseReferences() {
  for (const KernelFloor& k : db_.kernel_floors) GfxList(k.provenance.origin, k.gfx, "gfx");
  for (const RocmRelease& r : db_.rocm_releases) {
    const Origin& at = r.provenance.origin;
    GfxList(at, r.gfx, "gfx");
    for (const std::string& g : r.deprecated_gfx) {
      if (std::find(r.gfx.begin(), r.gfx.end(), g) == r.gfx.end())
        Add(at, "deprecated_gfx '" + g + "' is not in gfx");
    }
    for (const auto& [g, v] : r.since) {
      if (std::find(r.gfx.begin(), r.gfx.end(), g) == r.gfx.end())
        Add(at, "since names '" + g + "', which is not in gfx");
      if (!v.HasPrefix(r.series)) Add(at, "since." + g + " = " + v.ToString() + " is outside the series");
    }
  }
  for (const HipSdkWindows& h : db_.hip_sdks_windows) {
    GfxList(h.provenance.origin, h.gfx_sdk, "gfx_sdk");
    GfxList(h.provenance.origin, h.gfx_runtime, "gfx_runtime");
    GfxList(h.provenance.origin, h.gfx_unsupported, "gfx_unsupported");
  }
  for (const RocmWslNote& w : db_.rocm_wsl) GfxList(w.provenance.origin, w.gfx, "gfx");
  for (const TheRockStatus& s : db_.therock_status) {
    GfxList(s.provenance.origin, s.release_ready, "release_ready");
    GfxList(s.provenance.origin, s.build_only, "build_only");
  }
  for (const TheRockFamily& f : db_.therock_families) GfxList(f.provenance.origin, f.gfx, "gfx");
  for (const TorchRoute& r : db_.torch_routes) GfxList(r.provenance.origin, r.gfx, "gfx");
  for (const TorchBuildGfx& b : db_.torch_build_gfx) {
    GfxList(b.provenance.origin, b.gfx, "gfx");
    if (db_.FindTorchRelease(b.first_torch) == nullptr)
      Add(b.provenance.origin, "first_torch " + b.first_torch.ToString() + " has no [[torch_release]]");
  }
}

void Checker::Overrides() {
  for (const OverrideRule& r : db_.override_rules) {
    const Origin& at = r.provenance.origin;
    auto target = GfxNameFromOverride(r.value);
    if (target && db_.FindGfxTarget(*target) == nullptr)
      Add(at, "value '" + r.value + "' selects unknown " + *target);
    for (const std::string& g : r.gfx) {
      const GpuTarget* t = db_.FindGfxTarget(g);
      if (t == nullptr) {
        Gfx(at, g, "gfx");
        continue;
      }
      if (t->override_value != r.value) {
        Add(at, "value '" + r.value + "' disagrees with gfx_targets.toml, which gives " + g + " override '" +
                    t->override_value + "'");
      }
      if (r.native_wheels.empty()) continue;
      bool native = std::any_of(db_.torch_wheels.begin(), db_.torch_wheels.end(), [&](const TorchWheel& w) {
        return w.variant == r.native_wheels && WheelHasGfx(w, g);
      });
      if (!native) Add(at, "native_wheels '" + r.native_wheels + "' has no wheel compiled for " + g);
    }
  }
  for (const OverridePitfall& p : db_.override_pitfalls) {
    GfxList(p.provenance.origin, p.gfx, "gfx");
    for (const std::string& v : p.values) {
      if (!GfxNameFromOverride(v))
        Add(p.provenance.origin, "values entry '" + v + "' is not an override value");
    }
  }
  // [[fix_ranking]]: known targets, each in one row of its situation, and one row naming none.
  for (const FixRanking& k : db_.fix_rankings) {
    GfxList(k.provenance.origin, k.gfx, "gfx");
    for (const FixRanking& other : db_.fix_rankings) {
      if (&other == &k) break;
      if (other.situation != k.situation) continue;
      if (k.gfx.empty() && other.gfx.empty())
        Add(k.provenance.origin, "a second row for every target in this situation (the first is at line " +
                                     std::to_string(other.provenance.origin.line) + ")");
      for (const std::string& g : k.gfx)
        if (std::find(other.gfx.begin(), other.gfx.end(), g) != other.gfx.end())
          Add(k.provenance.origin,
              g + " is ranked twice (also at line " + std::to_string(other.provenance.origin.line) + ")");
    }
  }
}

void Checker::Torch() {
  for (TorchWheel& w : db_.torch_wheels) {
    GfxList(w.provenance.origin, w.gfx, "gfx");
    for (const CompiledCudaArch& a : w.cuda_archs) {
      if (db_.FindCudaArch(a.cc) == nullptr && a.cc.major() >= 5) {
        Add(w.provenance.origin, "cuda_archs names " + a.cc.ToString() + ", which is not a [[cuda_arch]]");
      }
    }
    const TorchRelease* rel = db_.FindTorchRelease(w.torch);
    if (rel == nullptr) {
      Add(w.provenance.origin, "torch " + w.torch.ToString() + " has no [[torch_release]]");
      continue;
    }
    w.python = rel->python;
    w.release_date = rel->date;
  }
}

// Every add-on row names an [[addon_library]]; a distribution belongs to one add-on; the torch of a
// release is a known torch release, a GPU floor a known compute capability; the CUDA ranges of one add-on
// do not overlap.
void Checker::Addons() {
  std::map<std::string, const AddonLibrary*> owner;
  for (const AddonLibrary& a : db_.addon_libraries) {
    for (const std::string& d : a.distributions) {
      auto [it, inserted] = owner.emplace(d, &a);
      if (!inserted)
        Add(a.provenance.origin, "distribution '" + d + "' belongs to add-on " + it->second->name);
    }
  }
  auto known = [&](const std::string& addon, const Provenance& p) {
    bool found = std::any_of(db_.addon_libraries.begin(), db_.addon_libraries.end(),
                             [&](const AddonLibrary& a) { return a.name == addon; });
    if (!found) Add(p.origin, "add-on '" + addon + "' has no [[addon_library]]");
  };
  for (const AddonGpuFloor& f : db_.addon_gpu_floors) {
    known(f.addon, f.provenance);
    if (db_.FindCudaArch(f.cc) == nullptr)
      Add(f.provenance.origin, "cc " + f.cc.ToString() + " is not a [[cuda_arch]]");
  }
  for (const AddonTorchBuild& b : db_.addon_torch_builds) {
    known(b.addon, b.provenance);
    if (db_.FindTorchRelease(b.torch) == nullptr)
      Add(b.provenance.origin, "torch " + b.torch.ToString() + " has no [[torch_release]]");
  }
  for (const AddonCudaBuild& c : db_.addon_cuda_builds) {
    known(c.addon, c.provenance);
    for (const AddonCudaBuild& other : db_.addon_cuda_builds) {
      if (&other == &c || other.addon != c.addon || c.from < other.from) continue;
      if (!other.until || c.from < *other.until)
        Add(c.provenance.origin, "release " + c.from.ToString() + " of " + c.addon + " is in the range at " +
                                     Where(other.provenance.origin) + " too");
    }
  }
}

}  // namespace

void CheckKnowledge(KnowledgeDb& db, const std::map<std::string, std::string>& display_names,
                    bool cross_checks, std::vector<KnowledgeError>& errors) {
  Checker c(db, display_names, errors);
  c.Duplicates();
  if (!cross_checks) return;
  c.GfxTargets();
  c.References();
  c.Overrides();
  c.Torch();
  c.Addons();
  CheckInvariants(db, display_names, errors);
}

}  // namespace gpudoctor
