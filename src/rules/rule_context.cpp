// Builds the RuleContext: the compute GPUs with their knowledge-base entries, the PyTorch in use and
// its wheel record, and the route choice shared by the hardware and framework rules.
#include "rules/rule_context.h"

#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "core/windows_path.h"
#include "knowledge/cuda_arch_name.h"
#include "knowledge/torch_wheel_lookup.h"
#include "rules/shell.h"

namespace gpudoctor {
namespace {

const PciDevice* FindPci(const Snapshot& s, const std::string& address) {
  for (const auto& d : s.pci_devices)
    if (d.address == address) return &d;
  return nullptr;
}

int StatusRank(RouteStatus s) {
  switch (s) {
    case RouteStatus::kOfficial:
      return 0;
    case RouteStatus::kPreview:
      return 1;
    case RouteStatus::kNightly:
      return 2;
    case RouteStatus::kCommunity:
      return 3;
    case RouteStatus::kLegacy:
      return 4;
    case RouteStatus::kSuperseded:
      return 5;
  }
  return 5;
}

void ReplaceAll(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
}

GpuView MakeGpuView(const Snapshot& s, const KnowledgeDb& db, const Gpu& g) {
  GpuView v;
  v.gpu = &g;
  v.pci = FindPci(s, g.pci_address);
  v.vendor = g.vendor;
  v.integrated = g.integrated.value_or(false);
  if (g.vendor == GpuVendor::kAmd) {
    v.gfx = g.architecture;
    if (v.pci) v.amd = db.FindAmdModel(v.pci->device_id, v.pci->revision);
    if (v.gfx.empty() && v.amd && v.amd->target) v.gfx = v.amd->target->name;
    if (!v.amd && v.pci) v.id_guess = GuessAmdByIdRange(db, v.pci->device_id);
    if (v.gfx.empty() && v.id_guess) v.gfx = v.id_guess->architecture;
    if (g.kfd_node && !g.architecture.empty()) {
      v.arch_source = "KFD";
    } else if (v.amd && v.amd->device->gfx == v.gfx) {
      v.arch_source = "the knowledge base";
    } else if (v.id_guess && v.id_guess->architecture == v.gfx) {
      v.arch_source = "neighbouring PCI ids";
    } else if (!v.gfx.empty()) {
      v.arch_source = "the snapshot";
    }
    if (v.arch_source != "neighbouring PCI ids") v.id_guess.reset();
    v.target = db.FindGfxTarget(v.gfx);
    if (g.kfd_node) {
      uint32_t ordinal = 0;
      for (const auto& n : s.amd.kfd_nodes) {
        if (n.node_id == *g.kfd_node) v.amd_ordinal = ordinal;
        ++ordinal;
      }
    }
  } else if (g.vendor == GpuVendor::kNvidia) {
    if (v.pci) v.nvidia_model = db.FindNvidiaModel(v.pci->device_id);
    // The probe calls every NVIDIA GPU on PCI discrete; an SoC's (GB10) shares the system's memory.
    if (v.nvidia_model && v.nvidia_model->integrated) v.integrated = true;
    for (const auto& d : s.nvidia.devices) {
      if (d.pci_address == g.pci_address && d.cc_major && d.cc_minor)
        v.cc = Version::Parse(std::to_string(*d.cc_major) + "." + std::to_string(*d.cc_minor));
    }
    if (v.cc) v.arch_source = "NVML";
    if (!v.cc && v.nvidia_model) {
      v.cc = v.nvidia_model->cc;
      v.arch_source = "the knowledge base";
    }
    if (!v.cc && !v.nvidia_model && v.pci) {
      v.id_guess = GuessNvidiaByIdRange(db, v.pci->device_id);
      if (v.id_guess) {
        v.cc = v.id_guess->cc;
        v.arch_source = "neighbouring PCI ids";
      }
    }
  }
  std::string name = g.name;
  if (name.empty() && v.amd) name = v.amd->name;
  if (name.empty() && v.nvidia_model) name = v.nvidia_model->name;
  if (name.empty() && v.pci)
    name = "unknown GPU " + Hex(v.pci->vendor_id, 4) + ":" + Hex(v.pci->device_id, 4);
  v.label = g.pci_address + " " + (name.empty() ? "unknown GPU" : name);
  if (!v.gfx.empty()) v.label += " (" + v.gfx + ")";
  if (v.cc) v.label += " (" + SmName(*v.cc) + ")";
  return v;
}

}  // namespace

RuleContext::RuleContext(const Snapshot& snapshot, const KnowledgeDb& knowledge, const RuleOptions& opts)
    : snap(snapshot), db(knowledge), options(opts) {
  platform = PlatformOf(snap.os.family, snap.os.wsl);
  for (const auto& g : snap.gpus) {
    if (g.vendor == GpuVendor::kAmd || g.vendor == GpuVendor::kNvidia)
      gpus.push_back(MakeGpuView(snap, db, g));
  }
  std::stable_sort(gpus.begin(), gpus.end(),
                   [](const GpuView& a, const GpuView& b) { return !a.integrated && b.integrated; });
  for (const auto& env : snap.python_envs) {
    if (env.torch) {
      torch = MakeTorchView(env, db);
      break;
    }
  }
  if (snap.nvidia.driver_version) nvidia_driver = Version::Parse(*snap.nvidia.driver_version);
  override_value = Env("HSA_OVERRIDE_GFX_VERSION");
}

bool RuleContext::HasVendor(GpuVendor v) const {
  return std::any_of(gpus.begin(), gpus.end(), [&](const GpuView& g) { return g.vendor == v; });
}

std::optional<std::string> RuleContext::Env(const std::string& name) const {
  auto it = snap.environment.find(name);
  if (it == snap.environment.end()) return std::nullopt;
  return it->second;
}

const char* RuleContext::PlatformName() const {
  switch (platform) {
    case Platform::kLinux:
      return "Linux";
    case Platform::kWsl:
      return "WSL2";
    case Platform::kWindows:
      return "Windows";
  }
  return "Linux";
}

TorchView MakeTorchView(const PythonEnv& env, const KnowledgeDb& db) {
  TorchView t;
  t.env = &env;
  const TorchInstall& ti = *env.torch;
  std::string_view text = ti.version;
  size_t plus = text.find('+');
  std::string_view base = text.substr(0, plus);
  // "2.8.0a0" and "2.10.0.dev20250101": keep the leading numbers only.
  size_t end = 0;
  while (end < base.size() && (std::isdigit(static_cast<unsigned char>(base[end])) || base[end] == '.'))
    ++end;
  std::string numbers(base.substr(0, end));
  while (!numbers.empty() && numbers.back() == '.') numbers.pop_back();
  t.version = Version::Parse(numbers);
  if (plus != std::string_view::npos) t.variant = std::string(text.substr(plus + 1));
  if (!ti.cuda.empty()) t.cuda = Version::Parse(ti.cuda);
  if (StartsWith(t.variant, "rocm") && !StartsWith(t.variant, "rocmsdk"))
    t.rocm = Version::Parse(t.variant.substr(4));
  if (!t.rocm && !ti.hip.empty()) {
    auto parts = Split(ti.hip, '.');
    if (parts.size() >= 2) t.rocm = Version::Parse(std::string(parts[0]) + "." + std::string(parts[1]));
  }
  if (!ti.cuda.empty()) {
    t.build = TorchBuild::kCuda;
  } else if (!ti.hip.empty() || StartsWith(t.variant, "rocm")) {
    t.build = TorchBuild::kRocm;
  } else if (t.variant == "cpu" || t.variant.empty()) {
    // A PyPI wheel without a local tag is CPU-only on Windows and macOS, CUDA on Linux; version.py
    // says which: cuda and hip both None means CPU.
    t.build = TorchBuild::kCpu;
  }
  if (t.version && !t.variant.empty()) t.wheel = db.FindTorchWheel(*t.version, t.variant);
  for (const GpuCodeLibrary& lib : ti.gpu_code) {
    if (lib.cuda_cubins.empty() && lib.cuda_ptx.empty() && lib.amd.empty()) continue;
    t.cubins.insert(t.cubins.end(), lib.cuda_cubins.begin(), lib.cuda_cubins.end());
    t.ptx.insert(t.ptx.end(), lib.cuda_ptx.begin(), lib.cuda_ptx.end());
    for (const auto& id : lib.amd) {
      std::string processor(Split(id, ':')[0]);
      if (!Contains(t.amd, processor)) t.amd.push_back(processor);
    }
    std::string_view file(lib.path);
    file = file.substr(file.find_last_of('/') == std::string_view::npos ? 0 : file.find_last_of('/') + 1);
    t.code_files += (t.code_files.empty() ? "" : ", ") + std::string(file);
  }
  for (const KernelLibraryFolder& k : ti.kernel_libraries) {
    for (const auto& gfx : k.gfx)
      if (!Contains(t.tensile_gfx, gfx)) t.tensile_gfx.push_back(gfx);
    t.tensile_folders += (t.tensile_folders.empty() ? "" : ", ") + k.library;
  }
  // gfx900 gfx90a gfx942 gfx1030 gfx1100: shorter names are older generations.
  auto by_generation = [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  };
  std::sort(t.amd.begin(), t.amd.end(), by_generation);
  std::sort(t.tensile_gfx.begin(), t.tensile_gfx.end(), by_generation);
  return t;
}

CcSupport CodeSupportsCc(const TorchView& t, const Version& cc) {
  bool compatible = false;
  for (const auto& name : t.cubins) {
    auto a = ParseCudaArchName(name);
    if (!a) continue;
    if (a->cc == cc) return CcSupport::kExactCubin;
    if (!a->specific && a->cc.major() == cc.major() && a->cc.minor() <= cc.minor()) compatible = true;
  }
  if (compatible) return CcSupport::kCompatibleCubin;
  for (const auto& name : t.ptx) {
    auto a = ParseCudaArchName(name);
    if (a && (a->specific ? a->cc == cc : a->cc <= cc)) return CcSupport::kPtxJit;
  }
  return CcSupport::kNone;
}

bool CodeHasGfx(const TorchView& t, const std::string& gfx, const std::string& generic) {
  return Contains(t.amd, gfx) || (!generic.empty() && Contains(t.amd, generic));
}

std::string CodeList(const TorchView& t) {
  std::string out;
  for (const auto& c : t.cubins) out += (out.empty() ? "" : " ") + c;
  if (!t.ptx.empty()) {
    out += std::string(out.empty() ? "" : " + ") + "PTX";
    for (const auto& p : t.ptx) out += " " + p;
  }
  for (const auto& a : t.amd) out += (out.empty() ? "" : " ") + a;
  return out;
}

ShellCommands FillPlaceholders(const ShellCommands& c, const std::string& variant, const std::string& gfx,
                               const std::string& family, const std::string& rocm) {
  ShellCommands out{c.bash, c.powershell, c.cmd};
  for (std::string* s : {&out.bash, &out.powershell, &out.cmd}) {
    ReplaceAll(*s, "{variant}", variant);
    ReplaceAll(*s, "{gfx}", gfx);
    ReplaceAll(*s, "{family}", family);
    ReplaceAll(*s, "{rocm}", rocm);
  }
  return out;
}

namespace {

// "py -m pip X" / "py -3.12 -m pip X" -> "X"; "" for any other line.
std::string PipArguments(const std::string& line) {
  if (!StartsWith(line, "py ")) return "";
  size_t pos = line.find(" -m pip ");
  return pos == std::string::npos ? "" : line.substr(pos + 8);
}

}  // namespace

ShellCommands ForEnvironment(ShellCommands c, const PythonEnv* env) {
  if (!env) return c;
  if ((env->kind == "venv" || env->kind == "conda") && StartsWith(env->path, "/")) {
    const std::string python = QuoteBash(env->path + "/bin/python");
    if (StartsWith(c.bash, "python3 ")) c.bash = python + c.bash.substr(7);
  }
  // On Windows the `py` launcher runs its default Python, not necessarily the one holding this torch:
  // the environment's own python.exe does (a venv's, a conda environment's, a portable app's).
  if (IsWindowsAbsolutePath(env->interpreter)) {
    if (std::string rest = PipArguments(c.powershell); !rest.empty())
      c.powershell = "& " + QuotePowerShell(env->interpreter) + " -m pip " + rest;
    if (std::string rest = PipArguments(c.cmd); !rest.empty())
      c.cmd = "\"" + env->interpreter + "\" -m pip " + rest;  // a Windows path holds no '"'
  }
  return c;
}

const GpuView* PrimaryAmd(const RuleContext& ctx) {
  for (const auto& g : ctx.gpus)
    if (g.vendor == GpuVendor::kAmd && g.target) return &g;
  return nullptr;
}

std::vector<RouteChoice> RoutesFor(const RuleContext& ctx, const GpuView& gpu) {
  std::vector<RouteChoice> out;
  // A GPU whose own code computes wrong results (gfx1033) has no safe route: an install command would
  // lead the user into silent wrong training (hardware.gpu_wrong_results says why).
  if (gpu.vendor == GpuVendor::kAmd && ctx.db.FindNativeWrongPitfall(gpu.gfx)) return out;
  const Platform os = ctx.platform;
  for (const auto& r : ctx.db.torch_routes) {
    if (r.status == RouteStatus::kSuperseded || r.id == "cpu") continue;
    if (std::find(r.os.begin(), r.os.end(), os) == r.os.end()) continue;
    bool vendor_ok = r.vendor == RouteVendor::kAny ||
                     (r.vendor == RouteVendor::kAmd && gpu.vendor == GpuVendor::kAmd) ||
                     (r.vendor == RouteVendor::kNvidia && gpu.vendor == GpuVendor::kNvidia);
    if (!vendor_ok) continue;
    if (gpu.vendor == GpuVendor::kAmd && !r.gfx_any && !Contains(r.gfx, gpu.gfx)) continue;
    RouteChoice c;
    c.route = &r;
    if (r.wheels == "rocm") {
      c.wheel = NewestRocmWheelWithGfx(ctx.db, gpu.gfx);
      if (!c.wheel) continue;
    } else if (r.wheels == "cuda") {
      if (!gpu.cc) continue;
      c.wheel =
          BestCudaWheel(ctx.db, *gpu.cc, ctx.nvidia_driver, std::nullopt, ctx.platform == Platform::kWindows);
      if (!c.wheel) continue;
    }
    if (c.wheel) c.variant = c.wheel->variant;
    std::string family;
    for (const TheRockFamily* f : ctx.db.FindTheRockFamilies(gpu.gfx)) {
      if (f->legacy_index && family.empty()) family = f->name;
    }
    std::string rocm;
    for (const auto& w : ctx.db.rocm_wsl) {
      std::string series = std::to_string(w.rocm.major()) + "." + std::to_string(w.rocm.minor());
      if (rocm.empty() || *Version::Parse(series) > *Version::Parse(rocm)) rocm = series;
    }
    if (r.install.bash.find("{family}") != std::string::npos && family.empty()) continue;
    c.install = FillPlaceholders(r.install, c.variant, gpu.gfx, family, rocm);
    out.push_back(std::move(c));
  }
  std::stable_sort(out.begin(), out.end(), [](const RouteChoice& a, const RouteChoice& b) {
    return StatusRank(a.route->status) < StatusRank(b.route->status);
  });
  return out;
}

Finding MakeFinding(std::string id, Layer layer, Severity severity, std::string subject, std::string title) {
  Finding f;
  f.id = std::move(id);
  f.layer = layer;
  f.severity = severity;
  f.subject = std::move(subject);
  f.title = std::move(title);
  return f;
}

std::string FirstSource(const Provenance& p) {
  return p.sources.empty() ? std::string() : p.sources.front();
}

void Cite(Finding& f, const Provenance& p) {
  f.link = FirstSource(p);
  RestsOn(f, p);
}

void RestsOn(Finding& f, const Provenance& p) {
  if (p.confirmed || p.origin.file.empty()) return;
  const std::string where = p.origin.file + ":" + std::to_string(p.origin.line);
  if (!Contains(f.unconfirmed, where)) f.unconfirmed.push_back(where);
}

bool IsUbuntuFamily(const std::string& distro_id) {
  return distro_id == "ubuntu" || distro_id == "pop" || distro_id == "linuxmint";
}

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace gpudoctor
