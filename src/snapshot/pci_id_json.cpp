// Reads a PCI id in either snapshot schema's form (pci_id_json.h).
#include "snapshot/pci_id_json.h"

#include <nlohmann/json.hpp>

#include "core/strings.h"

namespace gpudoctor {

std::optional<uint32_t> PciIdFromJson(const nlohmann::ordered_json& value) {
  std::optional<uint64_t> id;
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    if (!text.empty() && text.size() <= 6) id = ParseHex(text);
  } else if (value.is_number_unsigned()) {
    id = value.get<uint64_t>();
  }
  if (!id || *id > 0xffff) return std::nullopt;
  return static_cast<uint32_t>(*id);
}

nlohmann::ordered_json OptionalPciIdToJson(const std::optional<uint32_t>& id) {
  return id ? nlohmann::ordered_json(PciIdHex(*id)) : nlohmann::ordered_json(nullptr);
}

}  // namespace gpudoctor
