// PCI ids as people and other tools write them (lspci, amd-smi, nvidia-smi): four lowercase hex digits
// ("1002", "73df") and the pair "1002:73df". Used by the text, HTML and JSON renderers alike.
#pragma once

#include <cstdint>
#include <string>

namespace gpudoctor {

// "73df" for 0x73df.
std::string PciIdHex(uint32_t id);
// "1002:73df".
std::string PciIdPair(uint32_t vendor_id, uint32_t device_id);

}  // namespace gpudoctor
