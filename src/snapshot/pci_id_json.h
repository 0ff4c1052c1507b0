// PCI ids in the snapshot JSON: hex strings since schema version 2 ("vendor_id": "1002", "pci_id":
// "1002:73df"), decimal numbers in version 1. Readers take both, so old snapshots still load.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>

#include "snapshot/pci_id.h"

namespace gpudoctor {

// A PCI id as either schema wrote it: a hex string ("73df", "0x73DF"; version 2) or a number (version 1).
// nullopt for anything else, or a value above 0xffff.
std::optional<uint32_t> PciIdFromJson(const nlohmann::ordered_json& value);

// An optional PCI id as the current schema writes it: a hex string, or null when there is none.
nlohmann::ordered_json OptionalPciIdToJson(const std::optional<uint32_t>& id);

}  // namespace gpudoctor
