// The PCI id forms of pci_id.h.
#include "snapshot/pci_id.h"

#include "core/strings.h"

namespace gpudoctor {

std::string PciIdHex(uint32_t id) {
  return Hex(id, 4);
}

std::string PciIdPair(uint32_t vendor_id, uint32_t device_id) {
  return PciIdHex(vendor_id) + ":" + PciIdHex(device_id);
}

}  // namespace gpudoctor
