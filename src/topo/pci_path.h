// Where each GPU hangs in the PCIe tree, from sysfs: /sys/devices/pciDDDD:BB/<root port>/<bridges...>/<GPU>.
// The chain of bridges above two GPUs tells how far apart they are (the PIX/PXB/PHB/NODE/SYS levels of
// `nvidia-smi topo -m`). The walk reads real folders, not links, so a recorded tree copied without links
// (and the Windows build reading one) gives the same answer.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/filesystem.h"
#include "topo/topology.h"

namespace gpudoctor {

// Every PCI function under /sys/devices/pci*/, by normalized address, with the chain above it: the host
// bridge folder ("pci0000:00") first, then each bridge's address down to (not including) the function.
// Walks at most 16 levels and 65536 functions; problems become warnings.
std::map<std::string, std::vector<std::string>> IndexPciTree(const FileSystem& fs,
                                                             std::vector<std::string>& warnings);

// The PCIe relation of two functions from their chains (IndexPciTree) and NUMA nodes:
// different host bridges: NODE on the same NUMA node (or when a node is unknown), else SYS;
// the same host bridge and no bridge in common below it: PHB; a common bridge with at most one bridge
// below it on each side (one switch): PIX; deeper: PXB. kUnknown when a chain is empty.
LinkKind ClassifyPcie(const std::vector<std::string>& a, const std::vector<std::string>& b,
                      std::optional<int32_t> numa_a, std::optional<int32_t> numa_b);

}  // namespace gpudoctor
