// libFuzzer target: the recorded NVML topology reader (the "topology" member of .gpudoctor/nvml.json), then
// a topology built from what it read.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "topo/nvml_topology.h"
#include "topo/topology_builder.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto record = ParseNvmlTopologyJson(text);
  if (!record.ok()) return 0;
  TopologyInputs in;
  in.nvml = *record;
  for (const auto& d : record->devices) {
    if (in.gpus.size() >= 16) break;
    Gpu g;
    g.pci_address = d.pci_address;
    g.vendor = GpuVendor::kNvidia;
    in.gpus.push_back(g);
  }
  Topology t = BuildTopology(in);
  if (t.links.size() != t.gpus.size()) __builtin_trap();
  // Written back and read again, the record keeps its devices.
  auto again = ParseNvmlTopologyJson(AddNvmlTopologyToJson("{}", *record));
  if (!again.ok() || again->devices.size() != record->devices.size()) __builtin_trap();
  return 0;
}
