// Builds the Topology from what was read (see topology_probe.h), as a pure function so that recorded
// machines and synthetic inputs are tested without any file: per pair, NVLink first (direct links plus,
// through NVSwitches, the smaller of the two GPUs' switch link counts), then XGMI from the KFD links, then
// the PCIe relation (NVML's common ancestor when known, else the sysfs PCIe tree).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "snapshot/snapshot.h"
#include "topo/nvml_topology.h"
#include "topo/topology.h"

namespace gpudoctor {

struct TopologyInputs {
  std::vector<Gpu> gpus;                                       // Snapshot::gpus, in that order
  std::map<std::string, int32_t> numa_by_address;              // PCI device numa_node (>= 0 only)
  std::map<std::string, std::vector<std::string>> pci_chains;  // IndexPciTree
  std::map<std::string, std::string> cpu_affinity;             // local_cpulist by address
  std::vector<KfdLink> kfd_links;
  NvmlTopologyRecord nvml;
  std::vector<NumaNodeInfo> numa_nodes;
  std::vector<std::string> sources;
  std::vector<std::string> warnings;
};

Topology BuildTopology(const TopologyInputs& inputs);

}  // namespace gpudoctor
