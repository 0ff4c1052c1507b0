// Pure parsers of the PCI sysfs attribute files (ids, class, NUMA node, PCIe link), kept apart from
// the file access so they can be fuzzed and tested on strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"

namespace gpudoctor {

// "0x744c\n" -> 0x744c. Errors: "empty", "not a hex number ('zz')", "out of range (...)" above max.
Result<uint32_t> ParsePciHexAttribute(std::string_view text, uint32_t max_value);

// True for base class 0x03 (display: VGA 0x0300, XGA 0x0301, 3D 0x0302, other 0x0380) and 0x12
// (processing accelerator) on a 24-bit class code.
bool IsGpuPciClass(uint32_t class_code);

// A PCIe link speed: "16.0 GT/s PCIe", "8.0 GT/s", "2.5 GT/s". "Unknown" (the kernel's word for no
// link information) gives an empty optional; garbage gives an error.
Result<std::optional<double>> ParseLinkSpeedGts(std::string_view text);

// A PCIe link width: "16" -> 16, "x8" -> 8; "0" and "255" (no link / unknown) give an empty optional.
Result<std::optional<uint32_t>> ParseLinkWidth(std::string_view text);

// numa_node: "-1" (no NUMA information) gives an empty optional.
Result<std::optional<int32_t>> ParseNumaNode(std::string_view text);

// A short vendor name for a PCI vendor id ("AMD", "NVIDIA", "Intel"); "" when not a GPU vendor we know.
std::string_view ShortGpuVendorName(uint32_t vendor_id);

}  // namespace gpudoctor
