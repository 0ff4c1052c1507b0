// The machine facts behind an explanation (see explain_facts.h). Pure functions of a Snapshot and the
// knowledge base; every sentence says what was found, and "not known" when the snapshot lacks it.
#include "explain/explain_facts.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/strings.h"
#include "explain/target_fix.h"
#include "knowledge/cuda_arch_name.h"
#include "knowledge/torch_wheel_lookup.h"

namespace gpudoctor {
namespace {

Platform KindOf(const Snapshot& snap) {
  return PlatformOf(snap.os.family, snap.os.wsl);
}

std::vector<const Gpu*> GpusOf(const Snapshot& snap, GpuVendor vendor) {
  std::vector<const Gpu*> out;
  for (const Gpu& g : snap.gpus)
    if (g.vendor == vendor) out.push_back(&g);
  return out;
}

std::string NameOf(const Gpu& g) {
  return g.name.empty() ? "at " + g.pci_address : g.name + " (" + g.pci_address + ")";
}

std::vector<std::string> AmdTargets(const Snapshot& snap) {
  std::vector<std::string> out;
  for (const Gpu* g : GpusOf(snap, GpuVendor::kAmd))
    if (!g->architecture.empty() && std::find(out.begin(), out.end(), g->architecture) == out.end())
      out.push_back(g->architecture);
  return out;
}

std::string Env(const Snapshot& snap, const std::string& name) {
  auto it = snap.environment.find(name);
  return it == snap.environment.end() ? std::string() : it->second;
}

void GpuArchFacts(const ExplainMatch& m, const Snapshot& snap, std::vector<std::string>& out) {
  auto amd = GpusOf(snap, GpuVendor::kAmd);
  auto nv = GpusOf(snap, GpuVendor::kNvidia);
  for (const Gpu* g : amd)
    out.push_back("this machine's GPU " + NameOf(*g) + " is " +
                  (g->architecture.empty() ? "of unknown target" : g->architecture) +
                  (g->family.empty() ? "" : " (" + g->family + ")") +
                  (g->integrated.value_or(false) ? ", integrated" : ""));
  for (const Gpu* g : nv) {
    auto cc = ComputeCapabilityOf(g->architecture);
    out.push_back("this machine's GPU " + NameOf(*g) + " is " +
                  (g->architecture.empty()
                       ? "of unknown compute capability"
                       : g->architecture + (cc ? " (compute capability " + cc->ToString() + ")" : "")));
  }
  if (amd.empty() && nv.empty()) out.push_back("no AMD or NVIDIA GPU was found on this machine");
  const std::string named = m.Capture("gfx");
  if (named.empty() || amd.empty()) return;
  auto targets = AmdTargets(snap);
  if (std::find(targets.begin(), targets.end(), named) != targets.end()) {
    out.push_back("the message names " + named + ", the target of this machine's GPU");
    return;
  }
  std::string value = Env(snap, "HSA_OVERRIDE_GFX_VERSION");
  auto selected = value.empty() ? std::nullopt : GfxNameFromOverride(value);
  if (selected && *selected == named) {
    out.push_back("the message names " + named + ", the target HSA_OVERRIDE_GFX_VERSION=" + value +
                  " makes the runtime use; the GPU itself is " + targets.front());
  } else {
    out.push_back("the message names " + named + ", but this machine's AMD GPUs are " + targets.front() +
                  (targets.size() > 1 ? " and others" : "") + ": the log may come from another machine");
  }
}

void OverrideFacts(const Snapshot& snap, const KnowledgeDb& db, std::vector<std::string>& out) {
  auto targets = AmdTargets(snap);
  if (targets.empty()) {
    out.push_back("no AMD GPU with a known target here, so HSA_OVERRIDE_GFX_VERSION does not apply");
    return;
  }
  std::string value = Env(snap, "HSA_OVERRIDE_GFX_VERSION");
  std::optional<std::string> selected;
  if (value.empty()) {
    out.push_back("HSA_OVERRIDE_GFX_VERSION is not set");
  } else if ((selected = GfxNameFromOverride(value))) {
    out.push_back("HSA_OVERRIDE_GFX_VERSION is set to " + value +
                  ", which makes the runtime treat the GPU as " + *selected);
  } else {
    out.push_back(
        "HSA_OVERRIDE_GFX_VERSION is set to '" + value +
        "', which the runtime rejects (it wants major.minor.stepping in decimal): every GPU disappears");
  }
  for (const auto& [name, v] : snap.environment)
    if (StartsWith(name, "HSA_OVERRIDE_GFX_VERSION_"))
      out.push_back(name + " is set to " + v + " (one GPU only)");
  if (KindOf(snap) == Platform::kWindows) {
    out.push_back(
        "on Windows HSA_OVERRIDE_GFX_VERSION has no effect (only the Linux and WSL runtime reads it): "
        "use a build made for " +
        targets.front());
    return;
  }
  for (const std::string& gfx : targets) {
    if (const OverrideRule* rule = db.FindOverrideRule(gfx)) {
      std::string line = "for " + gfx + " the value that works is HSA_OVERRIDE_GFX_VERSION=" + rule->value +
                         " (" + OverrideVerdictText(rule->verdict) + ", " + DataWhere(rule->provenance) + ")";
      if (!rule->native_wheels.empty())
        line += "; not needed from PyTorch " + db.FirstNativeWheel(*rule, gfx) + " on, which carries " + gfx;
      if (selected && GfxNameFromOverride(rule->value) != selected) line += "; the value set now differs";
      out.push_back(line);
    } else if (const GpuTarget* t = db.FindGfxTarget(gfx); t != nullptr && !t->override_value.empty()) {
      out.push_back(gfx + " can borrow the code of " + t->override_value + " (HSA_OVERRIDE_GFX_VERSION=" +
                    t->override_value + ", " + DataWhere(t->provenance) + "); no tested rule is recorded");
    } else {
      out.push_back("no override is recorded for " + gfx +
                    (value.empty() ? "" : ": remove the one that is set") + " — use a build that carries " +
                    gfx);
    }
  }
}

void AmdWheelFacts(const Snapshot& snap, const KnowledgeDb& db, std::vector<std::string>& out) {
  const Platform os = KindOf(snap);
  const std::string shell = os == Platform::kWindows ? "powershell" : "bash";
  for (const std::string& gfx : AmdTargets(snap)) {
    if (const TorchWheel* w = NewestRocmWheelWithGfx(db, gfx))
      out.push_back("the newest pytorch.org wheel built for " + gfx + " is torch " + w->torch.ToString() +
                    " " + w->variant + " (" + w->index_url + ")" +
                    (os == Platform::kWindows
                         ? "; pytorch.org's ROCm wheels are Linux-only, so not for this machine"
                         : ""));
    else
      out.push_back("no pytorch.org ROCm wheel carries " + gfx + " itself");
    std::string families;
    for (const TheRockFamily* f : db.FindTheRockFamilies(gfx))
      families += (families.empty() ? "" : ", ") + f->name;
    if (!families.empty()) out.push_back("TheRock builds " + gfx + " in the families " + families);
    std::vector<const TorchRoute*> routes = AmdRoutesCarrying(db, gfx, os);
    if (routes.size() > 2) routes.resize(2);
    for (const TorchRoute* r : routes) {
      std::string cmd = FillRouteCommand(*r, shell, gfx, db);
      out.push_back("route for " + gfx + ": " + r->name + " (" + ToString(r->status) + ")" +
                    (cmd.empty() ? "" : ": " + cmd));
    }
    if (routes.empty()) out.push_back("no recorded install route carries " + gfx + " on this OS");
  }
}

void NvidiaWheelFacts(const Snapshot& snap, const KnowledgeDb& db, std::vector<std::string>& out) {
  const TorchRelease* newest = NewestTorchRelease(db);
  for (const Gpu* g : GpusOf(snap, GpuVendor::kNvidia)) {
    auto cc = ComputeCapabilityOf(g->architecture);
    if (!cc || newest == nullptr) {
      out.push_back(NameOf(*g) + ": compute capability not known, so no wheel can be matched");
      continue;
    }
    std::string fits;
    for (const TorchWheel* w : db.FindTorchWheels(newest->version)) {
      if (!w->cuda) continue;
      CcSupport s = WheelSupportsCc(*w, *cc);
      if (s != CcSupport::kNone) fits += (fits.empty() ? "" : ", ") + w->variant + " (" + ToString(s) + ")";
    }
    out.push_back(fits.empty()
                      ? "no CUDA wheel of torch " + newest->version.ToString() + " runs on " + g->architecture
                      : "torch " + newest->version.ToString() + " wheels that run on " + g->architecture +
                            ": " + fits +
                            "; install with pip install torch --index-url "
                            "https://download.pytorch.org/whl/<variant>");
  }
}

void VramFacts(const ExplainMatch& m, const Snapshot& snap, std::vector<std::string>& out) {
  for (const Gpu& g : snap.gpus) {
    if (g.vendor != GpuVendor::kAmd && g.vendor != GpuVendor::kNvidia) continue;
    std::string line = NameOf(g) + ": " +
                       (g.vram_bytes ? FormatBytes(*g.vram_bytes) + " of memory" : "memory size not known");
    if (g.integrated.value_or(false))
      line += " (integrated: it borrows system memory" +
              (snap.memory.total_bytes ? ", " + FormatBytes(*snap.memory.total_bytes) + " in all"
                                       : std::string()) +
              ")";
    out.push_back(line);
  }
  if (std::string asked = m.Capture("asked"); !asked.empty())
    out.push_back("the program asked for " + asked + " more");
  if (std::string free = m.Capture("free"); !free.empty())
    out.push_back("free on the device at that moment: " + free);
}

void AllocatorFacts(const Snapshot& snap, std::vector<std::string>& out) {
  bool amd = !GpusOf(snap, GpuVendor::kAmd).empty(), nv = !GpusOf(snap, GpuVendor::kNvidia).empty();
  std::vector<std::string> names = {"PYTORCH_ALLOC_CONF"};
  if (amd || !nv) names.push_back("PYTORCH_HIP_ALLOC_CONF");
  if (nv || !amd) names.push_back("PYTORCH_CUDA_ALLOC_CONF");
  bool expandable = false;
  for (const std::string& n : names) {
    std::string v = Env(snap, n);
    out.push_back(n + (v.empty() ? " is not set" : " is " + v));
    if (v.find("expandable_segments:True") != std::string::npos) expandable = true;
  }
  if (!expandable)
    out.push_back(
        "expandable_segments:True is not in effect; setting it (PYTORCH_ALLOC_CONF on torch 2.9+, " +
        std::string(amd ? "PYTORCH_HIP_ALLOC_CONF" : "PYTORCH_CUDA_ALLOC_CONF") +
        " before) lets the allocator reuse fragmented memory");
}

void DriverFacts(const Snapshot& snap, std::vector<std::string>& out) {
  if (snap.nvidia.driver_version) {
    std::string line = "NVIDIA driver " + *snap.nvidia.driver_version;
    if (snap.nvidia.cuda_driver_version) {
      uint32_t v = *snap.nvidia.cuda_driver_version;
      line += ", supports CUDA up to " + std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
    }
    out.push_back(line);
  }
  if (KindOf(snap) == Platform::kWindows) {
    // Windows: the display driver per adapter (its version and vendor release) instead of amdgpu.
    for (const WindowsAdapter& a : snap.windows.adapters) {
      if (a.software || a.driver_version.empty()) continue;
      out.push_back("display driver of " + (a.description.empty() ? a.driver_description : a.description) +
                    ": " + a.driver_version + (a.release.empty() ? "" : " (" + a.release + ")") +
                    (a.driver_service.empty() ? "" : ", service " + a.driver_service));
    }
  } else if (!GpusOf(snap, GpuVendor::kAmd).empty()) {
    out.push_back(std::string("amdgpu kernel module ") +
                  (snap.amd.amdgpu_module_loaded ? "loaded" : "not loaded") +
                  (snap.amd.amdgpu_module_version ? " (DKMS " + *snap.amd.amdgpu_module_version + ")" : ""));
  }
  for (const RuntimeInstall& r : snap.runtimes)
    out.push_back(r.kind + " " + (r.version.empty() ? "(version not known)" : r.version) + " at " + r.path);
  if (out.empty()) out.push_back("no GPU driver or runtime version was found");
}

void VisibleDeviceFacts(const Snapshot& snap, std::vector<std::string>& out) {
  for (const char* name : {"HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES"}) {
    std::string v = Env(snap, name);
    out.push_back(std::string(name) + (v.empty() ? " is not set" : " is " + v));
  }
  std::string order;
  size_t i = 0;
  for (const Gpu& g : snap.gpus) {
    if (g.vendor != GpuVendor::kAmd && g.vendor != GpuVendor::kNvidia) continue;
    order += (order.empty() ? "" : "; ") + std::to_string(i++) + " " + NameOf(g) +
             (g.architecture.empty() ? "" : " " + g.architecture) +
             (g.integrated.value_or(false) ? " (integrated)" : "");
  }
  out.push_back(order.empty() ? "no GPU found" : "GPUs by PCI address: " + order);
}

void DeviceAccessFacts(const Snapshot& snap, std::vector<std::string>& out) {
  for (const DeviceNodeAccess& d : snap.amd.device_nodes) {
    std::string line = d.path + (d.exists ? " exists" : " does not exist");
    if (d.exists && d.accessible) line += *d.accessible ? ", read-write allowed" : ", read-write NOT allowed";
    if (d.group) line += ", group " + *d.group;
    if (!d.reason.empty()) line += " (" + d.reason + ")";
    out.push_back(line);
  }
  if (snap.amd.device_nodes.empty())
    out.push_back(
        KindOf(snap) == Platform::kWindows
            ? "native Windows has no /dev/kfd or render nodes: the HIP runtime reaches the GPU through the "
              "display driver, so group membership does not apply"
            : "no /dev/kfd or render node was examined");
}

void OsFacts(const Snapshot& snap, std::vector<std::string>& out) {
  std::string line =
      snap.os.distro_name.empty() ? std::string(OsFamilyName(snap.os.family)) : snap.os.distro_name;
  if (!snap.os.kernel_release.empty()) line += ", kernel " + snap.os.kernel_release;
  if (snap.os.wsl) line += ", under WSL2";
  if (snap.os.container) line += ", in a " + *snap.os.container + " container";
  out.push_back(line.empty() ? "operating system not known" : line);
}

}  // namespace

const char* OverrideVerdictText(OverrideVerdict v) {
  switch (v) {
    case OverrideVerdict::kWorks:
      return "known to work";
    case OverrideVerdict::kRisky:
      return "runs, but risky";
    case OverrideVerdict::kUnverified:
      return "unverified";
  }
  return "unverified";
}

std::string DataWhere(const Provenance& p) {
  return p.origin.file + ":" + std::to_string(p.origin.line) + (p.confirmed ? "" : ", unconfirmed");
}

std::string FillRouteCommand(const TorchRoute& route, const std::string& shell, const std::string& gfx,
                             const KnowledgeDb& db) {
  std::string cmd = shell == "powershell" ? route.install.powershell
                    : shell == "cmd"      ? route.install.cmd
                                          : route.install.bash;
  if (cmd.empty()) return cmd;
  std::string family, variant, rocm;
  for (const TheRockFamily* f : db.FindTheRockFamilies(gfx))
    if (family.empty() || f->legacy_index) family = f->name;
  if (const TorchWheel* w = NewestRocmWheelWithGfx(db, gfx)) {
    variant = w->variant;
    rocm = std::to_string(w->rocm->major()) + "." + std::to_string(w->rocm->minor());
  }
  auto replace = [&](const std::string& key, const std::string& value) {
    if (value.empty()) return;
    for (size_t pos = cmd.find(key); pos != std::string::npos; pos = cmd.find(key, pos + value.size()))
      cmd.replace(pos, key.size(), value);
  };
  replace("{gfx}", gfx);
  replace("{family}", family);
  replace("{variant}", variant);
  replace("{rocm}", rocm);
  return cmd;
}

std::vector<FactLine> FactLines(ExplainFact fact, const ExplainMatch& match, const Snapshot& snap,
                                const KnowledgeDb& db) {
  std::vector<std::string> text;
  switch (fact) {
    case ExplainFact::kGpuArch:
      GpuArchFacts(match, snap, text);
      break;
    case ExplainFact::kOverride:
      OverrideFacts(snap, db, text);
      break;
    case ExplainFact::kWheel:
      AmdWheelFacts(snap, db, text);
      NvidiaWheelFacts(snap, db, text);
      if (text.empty()) text.push_back("no AMD or NVIDIA GPU here to choose a wheel for");
      break;
    case ExplainFact::kVram:
      VramFacts(match, snap, text);
      break;
    case ExplainFact::kAllocator:
      AllocatorFacts(snap, text);
      break;
    case ExplainFact::kDriver:
      DriverFacts(snap, text);
      break;
    case ExplainFact::kVisibleDevices:
      VisibleDeviceFacts(snap, text);
      break;
    case ExplainFact::kDeviceAccess:
      DeviceAccessFacts(snap, text);
      break;
    case ExplainFact::kOs:
      OsFacts(snap, text);
      break;
  }
  std::vector<FactLine> out;
  for (std::string& t : text) out.push_back(FactLine{ToString(fact), std::move(t)});
  return out;
}

std::vector<FactLine> FactsForMatch(const ExplainMatch& match, const Snapshot& snap, const KnowledgeDb& db) {
  std::vector<FactLine> out;
  if (match.entry == nullptr) return out;
  for (ExplainFact f : match.entry->facts) {
    auto lines = FactLines(f, match, snap, db);
    out.insert(out.end(), lines.begin(), lines.end());
  }
  return out;
}

std::vector<SummaryLine> HelpSummary(const Snapshot& snap) {
  std::vector<SummaryLine> out;
  std::vector<std::string> os;
  OsFacts(snap, os);
  out.push_back({"OS", os.front()});
  size_t i = 0;
  for (const Gpu& g : snap.gpus) {
    std::string v = NameOf(g) + (g.architecture.empty() ? "" : ", " + g.architecture) +
                    (g.vram_bytes ? ", " + FormatBytes(*g.vram_bytes) : "") +
                    (g.driver.empty() ? ", no driver bound" : ", driver " + g.driver);
    out.push_back({"GPU " + std::to_string(i++), v});
  }
  if (snap.gpus.empty()) out.push_back({"GPU", "none found"});
  std::vector<std::string> drivers;
  DriverFacts(snap, drivers);
  for (const std::string& d : drivers) out.push_back({"driver/runtime", d});
  out.push_back({"torch",
                 "not known to gpudoctor yet: run python -c \"import torch; print(torch.__version__, "
                 "torch.version.hip, torch.version.cuda)\""});
  for (const auto& [name, value] : snap.environment) out.push_back({name, value.empty() ? "(set)" : value});
  return out;
}

}  // namespace gpudoctor
