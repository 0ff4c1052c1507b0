// Peaks, percentages and verdicts (see bench_spec.h).
#include "bench/bench_spec.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/pci_address.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

bool Starts(const std::string& id, const char* prefix) {
  return StartsWith(id, prefix);
}

const PciDevice* PciOf(const Snapshot& snapshot, const std::string& address) {
  if (address.empty()) return nullptr;
  std::string want = NormalizePciAddress(address);
  for (const auto& d : snapshot.pci_devices)
    if (NormalizePciAddress(d.address) == want) return &d;
  return nullptr;
}

// The knowledge base's model whose name appears in the runtime's device name, the longest such.
template <typename Model>
const Model* ByName(const std::vector<Model>& models, const std::string& device_name) {
  std::string name = ToLower(device_name);
  const Model* best = nullptr;
  for (const auto& m : models) {
    if (!m.bandwidth_gbs && !m.fp32_tflops) continue;  // an id-only entry (gpus_nvidia_ids.toml)
    std::string model = ToLower(m.name);
    if (model.empty() || name.find(model) == std::string::npos) continue;
    // Whole words only: "H100" must not match inside "H1000".
    size_t at = name.find(model);
    size_t end = at + model.size();
    bool word = (at == 0 || !std::isalnum(static_cast<unsigned char>(name[at - 1]))) &&
                (end == name.size() || !std::isalnum(static_cast<unsigned char>(name[end])));
    if (word && (!best || m.name.size() > best->name.size())) best = &m;
  }
  return best;
}

template <typename Model>
void TakeFigures(BenchPeaks& p, const Model& m) {
  p.model = m.name;
  p.bandwidth_gbs = m.bandwidth_gbs;
  p.fp32_tflops = m.fp32_tflops;
  p.tf32_tflops = m.tf32_tflops;
  p.fp16_tflops = m.fp16_tflops;
  p.bf16_tflops = m.bf16_tflops;
}

std::optional<PcieLinkState> Link(std::optional<uint32_t> gen, std::optional<uint32_t> width,
                                  const char* source) {
  if (!gen || !width || *gen == 0 || *width == 0) return std::nullopt;
  return PcieLinkState{*gen, *width, PcieGbPerSecond(*gen, *width), source};
}

std::optional<PcieLinkState> Link(std::optional<double> gts, std::optional<uint32_t> width,
                                  const char* source) {
  if (!gts) return std::nullopt;
  return Link(PcieGenFromGts(*gts), width, source);
}

}  // namespace

double PcieGbPerSecond(uint32_t gen, uint32_t width) {
  static const double kGts[] = {0, 2.5, 5, 8, 16, 32, 64};
  if (gen == 0 || gen > 6) return 0;
  double efficiency = gen <= 2 ? 8.0 / 10.0 : gen <= 5 ? 128.0 / 130.0 : 242.0 / 256.0;
  return kGts[gen] * width * efficiency / 8.0;
}

std::optional<uint32_t> PcieGenFromGts(double gts) {
  static const double kGts[] = {2.5, 5, 8, 16, 32, 64};
  for (uint32_t g = 0; g < 6; ++g)
    if (std::fabs(gts - kGts[g]) < 0.01) return g + 1;
  return std::nullopt;
}

std::string PcieLinkText(uint32_t gen, uint32_t width) {
  return "PCIe " + std::to_string(gen) + ".0 x" + std::to_string(width);
}

BenchPeaks FindPeaks(const BenchDevice& device, const Snapshot& snapshot, const KnowledgeDb& db,
                     const std::vector<BenchTelemetry>& telemetry) {
  BenchPeaks p;
  const PciDevice* pci = PciOf(snapshot, device.pci_address);
  if (pci && pci->vendor_id == 0x10de) {
    const NvidiaGpuModel* m = db.FindNvidiaModel(pci->device_id);
    if (m && (m->bandwidth_gbs || m->fp32_tflops)) {
      TakeFigures(p, *m);
      p.model_source = "PCI id 10de:" + Hex(pci->device_id, 4);
    }
  } else if (pci && pci->vendor_id == 0x1002) {
    if (auto match = db.FindAmdModel(pci->device_id, pci->revision); match && match->model) {
      TakeFigures(p, *match->model);
      p.model_source = "PCI id 1002:" + Hex(pci->device_id, 4);
    }
  }
  if (p.model.empty()) {
    const NvidiaGpuModel* n = ByName(db.nvidia_gpus, device.name);
    const AmdGpuModel* a = ByName(db.amd_models, device.name);
    if (n && (!a || n->name.size() >= a->name.size())) {
      TakeFigures(p, *n);
      p.model_source = "device name";
    } else if (a) {
      TakeFigures(p, *a);
      p.model_source = "device name";
    }
  }
  // The link: NVML's reading under load first (the GPU's own view, right inside a VM too), then sysfs.
  for (const auto& t : telemetry) {
    if (!p.link_now) p.link_now = Link(t.reading.pcie_gen, t.reading.pcie_width, "NVML under load");
    if (!p.link_max) p.link_max = Link(t.reading.pcie_gen_max, t.reading.pcie_width_max, "NVML");
  }
  if (pci) {
    auto sys_max = Link(pci->link.max_speed_gts, pci->link.max_width, "sysfs");
    if (sys_max && (!p.link_max || sys_max->gbs > p.link_max->gbs)) p.link_max = sys_max;
    if (!p.link_now) p.link_now = Link(pci->link.current_speed_gts, pci->link.current_width, "sysfs");
    // The GPU's own link (what NVML and AMD SMI read) can be the card's internal one: a slower link on
    // the way to the CPU (a x8 slot behind an AMD card's switch, a riser) is what transfers get.
    auto narrowest = Link(pci->link.narrowest_speed_gts, pci->link.narrowest_width,
                          "sysfs: the narrowest link on the way to the CPU");
    if (narrowest && (!p.link_now || narrowest->gbs < p.link_now->gbs)) p.link_now = narrowest;
  }
  return p;
}

VerdictRule RuleFor(const std::string& id) {
  if (Starts(id, "memory.")) return {0.70, std::nullopt};
  if (id == "transfer.d2d") return {0.50, std::nullopt};
  if (Starts(id, "transfer.") && EndsWith(id, "_pinned")) return {0.60, std::nullopt};
  if (Starts(id, "transfer.")) return {0.10, std::nullopt};
  if (Starts(id, "gemm.")) return {0.50, std::nullopt};
  if (id == "latency.submit") return {std::nullopt, 20.0};
  if (id == "latency.roundtrip") return {std::nullopt, 100.0};
  return {};
}

std::optional<std::pair<double, std::string>> PeakFor(const std::string& id, const BenchPeaks& p) {
  std::string kb = "knowledge base: " + p.model;
  auto from_kb = [&](const std::optional<double>& v,
                     double scale) -> std::optional<std::pair<double, std::string>> {
    if (!v) return std::nullopt;
    return std::pair{*v * scale, kb};
  };
  if (Starts(id, "memory.")) return from_kb(p.bandwidth_gbs, 1);
  if (id == "transfer.d2d") {
    auto v = from_kb(p.bandwidth_gbs, 0.5);
    if (v) v->second += " (half the memory bandwidth)";
    return v;
  }
  if (Starts(id, "transfer.")) {
    if (!p.link_max) return std::nullopt;
    return std::pair{p.link_max->gbs,
                     PcieLinkText(p.link_max->gen, p.link_max->width) + " (" + p.link_max->source + ")"};
  }
  if (id == "gemm.fp32") return from_kb(p.fp32_tflops, 1);
  if (id == "gemm.tf32") return from_kb(p.tf32_tflops, 1);
  if (id == "gemm.fp16") return from_kb(p.fp16_tflops, 1);
  if (id == "gemm.bf16") return from_kb(p.bf16_tflops, 1);
  return std::nullopt;
}

void JudgeResult(BenchResult& r, const BenchPeaks& peaks) {
  r.peak.reset();
  r.percent_of_peak.reset();
  r.peak_source.clear();
  if (auto peak = PeakFor(r.spec.id, peaks); peak && peak->first > 0) {
    r.peak = peak->first;
    r.peak_source = peak->second;
    if (r.best && r.run == BenchRun::kMeasured) r.percent_of_peak = 100.0 * *r.best / peak->first;
  }
  if (r.run == BenchRun::kError) {
    r.verdict = BenchVerdict::kFailed;
    return;
  }
  if (r.run == BenchRun::kSkipped) {
    r.verdict = BenchVerdict::kSkipped;
    return;
  }
  if (r.check == BenchCheck::kFailed || !r.best) {
    r.verdict = BenchVerdict::kFailed;
    return;
  }
  VerdictRule rule = RuleFor(r.spec.id);
  r.verdict = BenchVerdict::kOk;
  if (rule.low_below_fraction && r.peak && *r.best < *rule.low_below_fraction * *r.peak)
    r.verdict = BenchVerdict::kLow;
  if (rule.low_above && *r.best > *rule.low_above) r.verdict = BenchVerdict::kLow;
}

}  // namespace gpudoctor
