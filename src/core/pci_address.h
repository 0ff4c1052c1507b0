// A device's identity is its PCI address; sources spell it differently (sysfs "0000:03:00.0", NVML
// "00000000:17:00.0", KFD as domain + packed location_id), so every comparison goes through here: the
// probes, the topology, telemetry, the device choice of verify and bench, and the worker's device check.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

struct PciAddress {
  uint32_t domain = 0;
  uint32_t bus = 0;       // 0..255
  uint32_t device = 0;    // 0..31
  uint32_t function = 0;  // 0..7
  auto operator<=>(const PciAddress&) const = default;
};

// Accepts "DDDD:BB:DD.F" with any number of domain digits (1..8) and "BB:DD.F" (domain 0), hex in
// either case, surrounding white space ignored. Anything else, or a field out of range: nullopt.
std::optional<PciAddress> ParsePciAddress(std::string_view text);

// "0000:03:00.0": lowercase hex, domain at least 4 digits (wider only when it needs to be).
std::string FormatPciAddress(const PciAddress& address);

// The canonical spelling of an address from any source ("00000000:17:00.0" -> "0000:17:00.0").
// Text that is not a PCI address comes back trimmed and lowercased, so comparisons stay stable.
std::string NormalizePciAddress(std::string_view text);

// NVML's "00000000:17:00.0" (or "17:00.0", "0000:17:00.0") -> "0000:17:00.0"; "" when malformed (the
// NVIDIA sources' form: an address or nothing, never the text it was given).
std::string NormalizeNvidiaBusId(std::string_view bus_id);

// True when `text` is already the canonical spelling (FormatPciAddress's: lowercase, no white space), the
// form a parent hands a worker.
bool IsCanonicalPciAddress(std::string_view text);

// KFD packs bus/device/function as (bus << 8) | (device << 3) | function (kfd_topology.c).
PciAddress PciAddressFromKfdLocation(uint32_t domain, uint32_t location_id);

// Orders addresses numerically; text that does not parse sorts after every real address, by text.
bool PciAddressTextLess(std::string_view a, std::string_view b);

}  // namespace gpudoctor
