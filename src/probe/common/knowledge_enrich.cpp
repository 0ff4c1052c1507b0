// Fills names, architectures and families from the knowledge base where the
// probes left them empty; never overrides what the machine reported.
#include "probe/common/knowledge_enrich.h"

#include "knowledge/cuda_arch_name.h"

namespace gpudoctor {
namespace {

struct Known {
  std::string name;
  std::string architecture;
  std::optional<bool> integrated;
  std::optional<uint32_t> compute_units;  // NVIDIA SMs: NVML does not report them
};

std::optional<Known> LookupByPciId(const KnowledgeDb& db, uint32_t vendor_id, uint32_t device_id,
                                   std::optional<uint32_t> revision) {
  if (vendor_id == 0x1002) {
    auto m = db.FindAmdModel(device_id, revision);
    if (!m || !m->device) return std::nullopt;
    Known k{m->name, m->target ? m->target->name : m->device->gfx, m->device->integrated, std::nullopt};
    return k;
  }
  if (vendor_id == 0x10de) {
    const NvidiaGpuModel* m = db.FindNvidiaModel(device_id);
    if (!m) return std::nullopt;
    return Known{m->name, SmName(m->cc), false, m->sms};
  }
  return std::nullopt;
}

const PciDevice* FindPci(const Snapshot& s, const std::string& address) {
  for (const auto& d : s.pci_devices)
    if (d.address == address) return &d;
  return nullptr;
}

const KfdNode* FindKfdNode(const Snapshot& s, std::optional<uint32_t> node_id) {
  if (!node_id) return nullptr;
  for (const auto& n : s.amd.kfd_nodes)
    if (n.node_id == *node_id) return &n;
  return nullptr;
}

std::string FamilyOf(const KnowledgeDb& db, const Gpu& gpu) {
  if (gpu.vendor == GpuVendor::kAmd) {
    if (const GpuTarget* t = db.FindGfxTarget(gpu.architecture)) return ToString(t->family);
  } else if (gpu.vendor == GpuVendor::kNvidia && gpu.architecture.rfind("sm_", 0) == 0) {
    if (auto name = ParseCudaArchName(gpu.architecture))
      if (const CudaArch* a = db.FindCudaArch(name->cc)) return a->architecture;
  }

  return {};
}

}  // namespace

void ApplyKnowledge(const KnowledgeDb& db, Snapshot& snapshot) {
  for (PciDevice& d : snapshot.pci_devices) {
    if (!d.name.empty()) continue;
    if (auto k = LookupByPciId(db, d.vendor_id, d.device_id, d.revision)) {
      d.name = k->name;
      d.name_source = "gpudoctor";
      if (!d.integrated && k->integrated) {
        d.integrated = k->integrated;
        d.integrated_reason = "known " + std::string(*k->integrated ? "integrated" : "discrete") +
                              " GPU (gpudoctor knowledge base)";
      }
    }
  }
  for (Gpu& g : snapshot.gpus) {
    const PciDevice* pci = FindPci(snapshot, g.pci_address);
    std::optional<Known> k;
    if (pci) {
      k = LookupByPciId(db, pci->vendor_id, pci->device_id, pci->revision);
    } else if (const KfdNode* node = FindKfdNode(snapshot, g.kfd_node); node && node->device_id) {
      // A KFD node the PCI walk missed still carries its PCI ids.
      k = LookupByPciId(db, node->vendor_id.value_or(0x1002), *node->device_id, std::nullopt);
    }
    if (k) {
      if (g.name.empty()) g.name = k->name;
      // Without KFD or NVML (nouveau, radeon, vfio-pci) the id still tells the architecture.
      if (g.architecture.empty()) g.architecture = k->architecture;
      if (!g.integrated) g.integrated = k->integrated;
      if (!g.compute_units) g.compute_units = k->compute_units;
    }
    if (g.family.empty()) g.family = FamilyOf(db, g);
  }
}

}  // namespace gpudoctor
