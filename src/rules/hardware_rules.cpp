// Layer 1, hardware: is there a GPU, do we know it, can it do deep learning at all, which install
// route fits it on this OS, is there enough VRAM, RAM and disk, and does an iGPU sit beside the dGPU.
#include <algorithm>

#include "core/strings.h"
#include "knowledge/torch_wheel_lookup.h"
#include "rules/rule_context.h"

namespace gpudoctor {
namespace {

constexpr uint64_t kGiB = 1ull << 30;

std::string GiB(uint64_t bytes) {
  return FormatBytes(bytes);
}

std::optional<uint64_t> VramOf(const GpuView& g) {
  if (g.gpu->vram_bytes) return g.gpu->vram_bytes;
  if (g.nvidia_model && g.nvidia_model->vram_gib) return uint64_t{*g.nvidia_model->vram_gib} * kGiB;
  return std::nullopt;
}

void NoGpu(const RuleContext& ctx, std::vector<Finding>& out) {
  bool wsl_nvidia = false;
  for (const auto& r : ctx.snap.runtimes)
    wsl_nvidia |= r.kind == "libcuda" && StartsWith(r.path, "/usr/lib/wsl/lib/");
  if (ctx.platform == Platform::kWsl && wsl_nvidia) {
    Finding f = MakeFinding("hardware.wsl_gpu_paravirtual", Layer::kHardware, Severity::kInfo, "",
                            "WSL2: the Windows NVIDIA driver is mapped in; Linux cannot see which GPU it is");
    f.evidence.push_back(
        "found libcuda under /usr/lib/wsl/lib and /dev/dxg; the PCI bus shows only WSL's virtual adapter");
    f.evidence.push_back(
        "required a GPU identity to check wheels against it, found none (no NVML answers recorded)");
    f.fix_summary = "see the GPU and the highest CUDA its driver supports";
    f.fix.push_back(FixAction::Bash("nvidia-smi"));
    f.link = "https://learn.microsoft.com/windows/wsl/tutorials/gpu-compute";
    out.push_back(std::move(f));
    return;
  }
  Finding f = MakeFinding("hardware.no_gpu", Layer::kHardware, Severity::kError, "",
                          "No AMD or NVIDIA GPU found: deep learning here runs on the CPU only");
  f.evidence.push_back("required an AMD or NVIDIA display/3D/accelerator PCI function, found " +
                       std::to_string(ctx.snap.pci_devices.size()) + " display device(s), none usable");
  for (const auto& d : ctx.snap.pci_devices)
    f.evidence.push_back(d.address + " " + Hex(d.vendor_id, 4) + ":" + Hex(d.device_id, 4) + " " +
                         (d.name.empty() ? "unknown" : d.name) + " (driver " +
                         (d.driver.empty() ? "none" : d.driver) + ")");
  if (ctx.snap.os.virtual_machine) {
    f.evidence.push_back("this is a virtual machine (" + *ctx.snap.os.virtual_machine +
                         "): a GPU appears in it only when the host passes one through (PCI passthrough, "
                         "vfio-pci) or gives it a virtual GPU; in a cloud, only a GPU instance type has one");
  }
  if (const TorchRoute* cpu = ctx.db.FindRoute("cpu")) {
    f.fix_summary =
        ctx.snap.os.virtual_machine
            ? "have the host pass a GPU through to this VM (or pick a GPU instance type), or "
              "install the CPU-only PyTorch"
            : "install the CPU-only PyTorch, or run on a machine (or VM) with a GPU passed through";
    f.fix.push_back(
        FixAction::PerShell(ForEnvironment(FillPlaceholders(cpu->install, "cpu", "", "", ""), nullptr)));
    Cite(f, cpu->provenance);
  }
  out.push_back(std::move(f));
}

// A PCI id the tables lack, but an architecture from the driver (NVML, KFD) or from the ids around
// it: say the name is unknown and go on, so the framework layer still checks the wheel's code.
void NameUnknown(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  const std::string arch = g.vendor == GpuVendor::kAmd ? g.gfx : SmName(*g.cc);
  const bool guessed = g.id_guess.has_value();
  std::string family = g.gpu->family;
  if (family.empty() && g.target) family = ToString(g.target->family);
  if (family.empty() && g.cc)
    if (const CudaArch* a = ctx.db.FindCudaArch(*g.cc)) family = a->architecture;
  Finding f = MakeFinding("hardware.gpu_name_unknown", Layer::kHardware,
                          guessed ? Severity::kWarning : Severity::kInfo, g.label,
                          "GPU name unknown to gpudoctor; architecture " + arch +
                              (family.empty() ? "" : " (" + family + ")") + " from " + g.arch_source);
  std::string id = g.pci ? Hex(g.pci->vendor_id, 4) + ":" + Hex(g.pci->device_id, 4) : "(no PCI id)";
  if (g.pci && g.pci->revision) id += " rev " + Hex(*g.pci->revision, 2);
  f.evidence.push_back("PCI id " + id + " is not in the knowledge base");
  if (guessed) {
    const IdRangeGuess& x = *g.id_guess;
    f.evidence.push_back("the nearest listed ids, " + Hex(x.below, 4) + " and " + Hex(x.above, 4) +
                         ", are both " + (x.chip.empty() ? "" : x.chip + " ") + arch +
                         ": vendors number one chip's boards in one block, so this is most likely " + arch +
                         " too (no answer from the driver to confirm it)");
  } else {
    f.evidence.push_back("architecture " + arch + " as " + g.arch_source + " reports it");
  }
  f.evidence.push_back("the checks below use " + arch);
  f.fix_summary = "report the GPU so its name can be added (attach `gpudoctor info --save snap.json`)";
  f.fix.push_back(FixAction::Everywhere("gpudoctor info --save snap.json"));
  f.link = "https://github.com/pciutils/pciids/blob/master/pci.ids";
  out.push_back(std::move(f));
}

void Identity(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  if (!g.arch_known()) {
    Finding f = MakeFinding("hardware.gpu_unknown", Layer::kHardware, Severity::kWarning, g.label,
                            "GPU not in gpudoctor's knowledge base: its support cannot be checked");
    std::string id = g.pci ? Hex(g.pci->vendor_id, 4) + ":" + Hex(g.pci->device_id, 4) : "(no PCI id)";
    if (g.pci && g.pci->revision) id += " rev " + Hex(*g.pci->revision, 2);
    f.evidence.push_back("required a known PCI id, found " + id +
                         (g.vendor == GpuVendor::kNvidia ? " and no compute capability from NVML" : ""));
    f.fix_summary = "report the GPU so it can be added (attach `gpudoctor info --save snap.json`)";
    f.fix.push_back(FixAction::Everywhere("gpudoctor info --save snap.json"));
    f.link = "https://github.com/pytorch/pytorch/blob/main/RELEASE.md";
    out.push_back(std::move(f));
    return;
  }
  if (!g.name_known()) {
    NameUnknown(ctx, g, out);
    return;
  }
  std::string what = g.gpu->family.empty() ? "" : g.gpu->family;
  auto vram = VramOf(g);
  std::string detail = what;
  if (vram) detail += (detail.empty() ? "" : ", ") + GiB(*vram) + (g.integrated ? " carve-out" : "");
  if (g.integrated) detail += (detail.empty() ? "" : ", ") + std::string("integrated");
  Finding f = MakeFinding("hardware.gpu_known", Layer::kHardware, Severity::kOk, g.label,
                          g.label.substr(g.label.find(' ') + 1) + (detail.empty() ? "" : " — " + detail));
  if (g.integrated && g.pci && g.pci->drm_gtt_total_bytes) {
    f.evidence.push_back("shares system memory: usable GPU memory is about the carve-out plus GTT (" +
                         GiB(*g.pci->drm_gtt_total_bytes) + ", half of RAM by default)");
  } else if (g.integrated && g.vendor == GpuVendor::kNvidia) {
    f.evidence.push_back(
        "an SoC GPU sharing the system's memory with the CPU (unified memory): what is free "
        "for the GPU is what the system has free");
  }
  if (g.amd) {
    f.evidence.push_back("PCI " + Hex(g.pci->vendor_id, 4) + ":" + Hex(g.pci->device_id, 4) + " is " +
                         g.amd->name + " (" + g.amd->device->chip + ", " + g.amd->device->gfx + ")");
    Cite(f, g.amd->device->provenance);
  } else if (g.cc) {
    f.evidence.push_back("compute capability " + g.cc->ToString() + " (" + SmName(*g.cc) + ")" +
                         (g.nvidia_model ? ", " + g.nvidia_model->name + " in the knowledge base" : ""));
    if (g.nvidia_model) Cite(f, g.nvidia_model->provenance);
  }
  out.push_back(std::move(f));
}

// A GPU on which ROCm computes wrong results, with borrowed code and with its own (gfx1033): no route
// is offered, since an install that runs without an error would train to wrong numbers.
void WrongResults(const RuleContext& ctx, const GpuView& g, const OverridePitfall& wrong,
                  std::vector<Finding>& out) {
  Finding f = MakeFinding(
      "hardware.gpu_wrong_results", Layer::kHardware, Severity::kError, g.label,
      "ROCm computes wrong results on this GPU (" + g.gfx + "): no PyTorch install for it can be trusted");
  f.evidence.push_back(wrong.problem);
  for (const auto& s : wrong.symptoms) f.evidence.push_back("symptom: " + s);
  f.evidence.push_back("required a GPU whose code gives right results, found " + g.gfx +
                       " (overrides.toml: " + wrong.id + "; the native build and the override both fail)");
  f.fix_summary = "train on the CPU-only build, or on another GPU; no GPU route is offered for " + g.gfx;
  if (const TorchRoute* cpu = ctx.db.FindRoute("cpu")) {
    f.fix.push_back(
        FixAction::PerShell(ForEnvironment(FillPlaceholders(cpu->install, "cpu", "", "", ""), nullptr)));
  }
  Cite(f, wrong.provenance);
  out.push_back(std::move(f));
}

void Route(const RuleContext& ctx, const GpuView& g, std::vector<Finding>& out) {
  if (g.vendor == GpuVendor::kNvidia && !g.cc) return;  // unknown GPU: said above
  if (g.vendor == GpuVendor::kAmd && g.gfx.empty()) return;
  if (g.vendor == GpuVendor::kAmd) {
    if (const OverridePitfall* wrong = ctx.db.FindNativeWrongPitfall(g.gfx)) {
      WrongResults(ctx, g, *wrong, out);
      return;
    }
  }
  auto routes = RoutesFor(ctx, g);
  if (routes.empty()) {
    Finding f =
        MakeFinding("hardware.gpu_not_usable", Layer::kHardware, Severity::kError, g.label,
                    std::string("No maintained way to run PyTorch on this GPU on ") + ctx.PlatformName());
    f.evidence.push_back("required a route in pytorch_routes.toml listing " +
                         (g.gfx.empty() ? SmName(*g.cc) : g.gfx) + " for " + ctx.PlatformName() +
                         ", found none");
    if (const TorchRoute* cpu = ctx.db.FindRoute("cpu")) {
      f.fix_summary = "use the CPU-only build, or a newer GPU";
      f.fix.push_back(FixAction::PerShell(FillPlaceholders(cpu->install, "cpu", "", "", "")));
      Cite(f, cpu->provenance);
    }
    out.push_back(std::move(f));
    return;
  }
  const RouteChoice& best = routes.front();
  Severity sev = best.route->status == RouteStatus::kOfficial ? Severity::kOk
                 : best.route->status == RouteStatus::kLegacy ? Severity::kWarning
                                                              : Severity::kInfo;
  std::string name = best.route->name + (best.variant.empty() ? "" : " (" + best.variant + ")");
  Finding f = MakeFinding("hardware.route", Layer::kHardware, sev, g.label,
                          std::string("Route on ") + ctx.PlatformName() + ": " + name + " [" +
                              ToString(best.route->status) + "]");
  f.evidence.push_back("required a route listing " + (g.gfx.empty() ? SmName(*g.cc) : g.gfx) + ", found " +
                       best.route->id + " (" + ToString(best.route->status) + ")");
  if (g.vendor == GpuVendor::kAmd && ctx.platform != Platform::kWindows) {
    const OverrideRule* rule = ctx.db.FindOverrideRule(g.gfx);
    if (rule && best.route->status != RouteStatus::kOfficial && !NewestRocmWheelWithGfx(ctx.db, g.gfx)) {
      f.evidence.push_back(
          "alternative: the official ROCm wheels with HSA_OVERRIDE_GFX_VERSION=" + rule->value + " (runs " +
          GfxNameFromOverride(rule->value).value_or("?") + " code; " +
          (rule->verdict == OverrideVerdict::kWorks ? "known to work" : "not verified") + ")");
    }
  }
  for (size_t i = 1; i < routes.size() && i < 4; ++i) {
    f.evidence.push_back("also possible: " + routes[i].route->name + " [" +
                         ToString(routes[i].route->status) + "]");
  }
  Cite(f, best.route->provenance);
  out.push_back(std::move(f));
}

void Vram(const GpuView& g, std::vector<Finding>& out) {
  auto vram = VramOf(g);
  if (!vram || g.integrated) return;
  if (*vram >= 8 * kGiB - kGiB / 4) return;
  Finding f =
      MakeFinding("hardware.vram_low", Layer::kHardware, Severity::kWarning, g.label,
                  "Only " + GiB(*vram) + " of VRAM: training beyond small models will run out of memory");
  f.evidence.push_back("required 8 GiB for typical training (fine-tuning, diffusion), found " + GiB(*vram));
  f.fix_summary = "use smaller batches, mixed precision (bf16/fp16) or parameter-efficient fine-tuning";
  f.fix.push_back(
      FixAction::Manual("reduce batch size; enable torch.autocast; prefer LoRA/QLoRA for fine-tuning"));
  out.push_back(std::move(f));
}

void MemoryAndDisk(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.snap.memory.total_bytes) {
    uint64_t ram = *ctx.snap.memory.total_bytes;
    if (ram < 28 * kGiB) {
      Severity sev = ram < 15 * kGiB / 2 ? Severity::kWarning : Severity::kInfo;
      Finding f = MakeFinding("hardware.ram_low", Layer::kHardware, sev, "",
                              GiB(ram) + " of RAM: less than the 32 GB deep-learning setups usually ask for");
      f.evidence.push_back("required about 32 GB (loading checkpoints, data loaders), found " + GiB(ram));
      f.fix_summary = "add RAM or swap; load models with low_cpu_mem_usage / memory-mapped weights";
      f.fix.push_back(FixAction::Manual("add RAM, or a swap file large enough to hold one model checkpoint"));
      out.push_back(std::move(f));
    }
  }
  if (ctx.snap.disk.free_bytes) {
    uint64_t free = *ctx.snap.disk.free_bytes;
    if (free < 100ull * 1000 * 1000 * 1000) {
      Severity sev = free < 20 * kGiB ? Severity::kWarning : Severity::kInfo;
      Finding f =
          MakeFinding("hardware.disk_low", Layer::kHardware, sev, ctx.snap.disk.path,
                      GiB(free) + " free: PyTorch, its GPU libraries and model weights need about 100 GB");
      f.evidence.push_back("required about 100 GB free in " + ctx.snap.disk.path + ", found " + GiB(free));
      f.fix_summary = "free space or point caches elsewhere";
      f.fix.push_back(FixAction::PerShell(
          {"python3 -m pip cache purge", "py -m pip cache purge", "py -m pip cache purge"}));
      f.fix.push_back(FixAction::SetEnv("HF_HOME", "/path/to/a/bigger/disk/huggingface"));
      out.push_back(std::move(f));
    }
  }
}

// An AMD iGPU enumerated beside an AMD dGPU: single-target wheels crash on it, and device 0 may be it.
void IntegratedBesideDiscrete(const RuleContext& ctx, std::vector<Finding>& out) {
  if (ctx.platform == Platform::kWindows) return;
  std::vector<const GpuView*> dgpus, igpus;
  for (const auto& g : ctx.gpus) {
    if (g.vendor != GpuVendor::kAmd || !g.amd_ordinal) continue;
    (g.integrated ? igpus : dgpus).push_back(&g);
  }
  if (dgpus.empty() || igpus.empty()) return;
  std::vector<uint32_t> ordinals;
  for (const auto* g : dgpus) ordinals.push_back(*g->amd_ordinal);
  std::sort(ordinals.begin(), ordinals.end());
  std::string want;
  for (uint32_t o : ordinals) want += (want.empty() ? "" : ",") + std::to_string(o);
  auto hip = ctx.Env("HIP_VISIBLE_DEVICES");
  auto rocr = ctx.Env("ROCR_VISIBLE_DEVICES");
  bool hidden = (hip && *hip == want) || (rocr && *rocr == want);
  Finding f = MakeFinding("hardware.igpu_with_dgpu", Layer::kHardware,
                          hidden ? Severity::kOk : Severity::kWarning, igpus.front()->label,
                          hidden ? "The integrated GPU is hidden from ROCm; only the discrete GPU is used"
                                 : "An integrated AMD GPU is visible to ROCm beside the discrete one");
  for (const auto* g : dgpus)
    f.evidence.push_back("discrete: " + g->label + " is AMD GPU index " + std::to_string(*g->amd_ordinal) +
                         " (KFD node " + std::to_string(*g->gpu->kfd_node) + ")");
  for (const auto* g : igpus)
    f.evidence.push_back("integrated: " + g->label + " is AMD GPU index " + std::to_string(*g->amd_ordinal) +
                         " (KFD node " + std::to_string(*g->gpu->kfd_node) + ")");
  if (!hidden) {
    f.evidence.push_back("required HIP_VISIBLE_DEVICES or ROCR_VISIBLE_DEVICES = " + want + ", found " +
                         (hip    ? "HIP_VISIBLE_DEVICES=" + *hip
                          : rocr ? "ROCR_VISIBLE_DEVICES=" + *rocr
                                 : "neither set"));
    f.fix_summary = "show ROCm only the discrete GPU (or disable the iGPU in the firmware setup)";
    f.fix.push_back(FixAction::SetEnv("HIP_VISIBLE_DEVICES", want));
  }
  f.link = "https://github.com/pytorch/pytorch/issues/119637";
  out.push_back(std::move(f));
}

// A GPU whose link to the CPU is narrower than the GPU can run (a x16 card in a x8 slot, a riser, a chipset
// slot): copies between host and GPU get that share of the bandwidth. Width only: the speed drops at idle.
void PcieWidth(const GpuView& g, std::vector<Finding>& out) {
  if (!g.pci || !g.pci->link.max_width || !g.pci->link.current_width || g.integrated) return;
  const PcieLink& l = g.pci->link;
  uint32_t width = *l.current_width;
  std::string where = "the GPU's own link";
  if (!l.narrowest_port.empty() && l.narrowest_width && *l.narrowest_width < width) {
    width = *l.narrowest_width;
    where = "the link at " + l.narrowest_port + " on the way to the CPU (the slot, a riser or a switch)";
  }
  if (width == 0 || width >= *l.max_width) return;
  Finding f = MakeFinding("hardware.pcie_link_narrow", Layer::kHardware, Severity::kInfo, g.label,
                          "The GPU runs at PCIe x" + std::to_string(width) + " of its x" +
                              std::to_string(*l.max_width) + ": copies to and from it get " +
                              std::to_string(width * 100 / *l.max_width) + "% of its bandwidth");
  f.evidence.push_back("required x" + std::to_string(*l.max_width) + " (the GPU's max_link_width), found x" +
                       std::to_string(width) + " on " + where);
  if (!l.narrowest_port.empty())
    f.evidence.push_back(
        "the GPU's own link reads x" + std::to_string(*l.current_width) +
        ": on cards with a switch of their own it is the card's internal link, not the slot");
  f.fix_summary =
      "move the card to a slot wired x" + std::to_string(*l.max_width) +
      " (the board manual lists which slots share lanes; an M.2 drive or a second card can halve a slot)";
  f.link = "https://docs.kernel.org/PCI/sysfs-pci.html";
  out.push_back(std::move(f));
}

// A guest of a hypervisor: the GPU it sees is passed through or virtual, and the host decides what the
// guest cannot (reset, power and clock limits, the real PCIe link, the vGPU release).
void VirtualMachine(const RuleContext& ctx, std::vector<Finding>& out) {
  if (!ctx.snap.os.virtual_machine || ctx.gpus.empty()) return;
  Finding f =
      MakeFinding("hardware.virtual_machine", Layer::kHardware, Severity::kInfo, "",
                  "A virtual machine (" + *ctx.snap.os.virtual_machine +
                      "): its GPU is passed through or virtual, and the host decides part of the setup");
  f.evidence = ctx.snap.os.virtual_machine_evidence;
  f.evidence.push_back(
      "the PCIe link, power and clock limits seen here are the virtual machine's view; a GPU that hangs may "
      "need the host to reset it (rebooting the guest alone may not)");
  if (ctx.HasVendor(GpuVendor::kNvidia)) {
    f.evidence.push_back(
        "NVIDIA: a whole GPU passed through takes the ordinary driver; a virtual GPU (NVIDIA vGPU) needs the "
        "guest driver of the host's vGPU software release, and the CUDA it supports is that release's");
    f.link = "https://docs.nvidia.com/vgpu/latest/grid-vgpu-user-guide/index.html";
  } else {
    f.link = "https://docs.kernel.org/driver-api/vfio.html";
  }
  out.push_back(std::move(f));
}

}  // namespace

std::vector<Finding> HardwareRules(const RuleContext& ctx) {
  std::vector<Finding> out;
  if (ctx.gpus.empty()) NoGpu(ctx, out);
  // Identical GPUs (8 x MI300X) are reported once, with their count.
  std::vector<std::string> seen;
  for (const auto& g : ctx.gpus) {
    std::string key = g.label.substr(g.label.find(' ') + 1) + (g.integrated ? "/i" : "/d");
    if (Contains(seen, key)) continue;
    seen.push_back(key);
    size_t count = 0;
    for (const auto& other : ctx.gpus)
      count += other.label.substr(other.label.find(' ') + 1) + (other.integrated ? "/i" : "/d") == key;
    size_t first = out.size();
    // An iGPU beside a dGPU is not a compute target worth a route of its own.
    bool secondary_igpu = g.integrated && ctx.gpus.front().vendor == g.vendor && !ctx.gpus.front().integrated;
    Identity(ctx, g, out);
    if (!secondary_igpu) {
      Route(ctx, g, out);
      Vram(g, out);
      PcieWidth(g, out);
    }
    if (count > 1) {
      for (size_t i = first; i < out.size(); ++i)
        out[i].subject = std::to_string(count) + " x " + key.substr(0, key.size() - 2) + ", first at " +
                         g.gpu->pci_address;
    }
  }
  IntegratedBesideDiscrete(ctx, out);
  VirtualMachine(ctx, out);
  MemoryAndDisk(ctx, out);
  return out;
}

}  // namespace gpudoctor
