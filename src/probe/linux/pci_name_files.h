// GPU names on Linux. Pure parsers of the two name databases a Linux machine may carry: libdrm's amdgpu.ids
// (AMD names by device + revision) and pciutils' pci.ids (every vendor's names by device and subsystem). Both
// work on the file's text in one pass without building a map: pci.ids is about 1.5 MB and we only ever need
// one vendor's block.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {

// One data line of amdgpu.ids: "744C,\tC8,\tAMD Radeon RX 7900 XTX".
struct AmdgpuIdsEntry {
  uint32_t device_id = 0;
  uint32_t revision = 0;
  std::string_view name;
};

// Parses one line; comments ('#'), the version line ("1.0.0"), blank and malformed lines: nullopt.
std::optional<AmdgpuIdsEntry> ParseAmdgpuIdsLine(std::string_view line);

// The product name for device + revision in an amdgpu.ids text, with the "AMD " prefix dropped
// ("Radeon RX 7900 XTX"); nullopt when the file has no such line.
std::optional<std::string> FindAmdgpuIdsName(std::string_view file_text, uint32_t device_id,
                                             uint32_t revision);

struct PciIdsMatch {
  std::string vendor_name;     // "Advanced Micro Devices, Inc. [AMD/ATI]"
  std::string device_name;     // "Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]", "" when not listed
  std::string subsystem_name;  // the board's name, "" when not listed
};

// Looks up a vendor (and its device, and that device's subsystem when given) in a pci.ids text.
// Vendor lines start at column 0 ("1002  Advanced Micro Devices..."), device lines with one tab,
// subsystem lines with two ("\t\t1da2 e471  ..."). nullopt when the vendor is not listed.
std::optional<PciIdsMatch> LookupPciIds(std::string_view file_text, uint32_t vendor_id, uint32_t device_id,
                                        std::optional<uint32_t> subsystem_vendor_id = std::nullopt,
                                        std::optional<uint32_t> subsystem_device_id = std::nullopt);

// The marketing part of a pci.ids device name: the text in its last [...] when present
// ("Navi 31 [Radeon RX 7900 XT/7900 XTX]" -> "Radeon RX 7900 XT/7900 XTX"), else the whole name.
std::string MarketingNameFromPciIds(std::string_view device_name);

// The lookup order over those files, for a PCI GPU: the machine's own amdgpu.ids (AMD, by device +
// revision), then its pci.ids, then gpudoctor's built-in table. Each file is read once per probe run,
// and only when a device needs it.
struct GpuNameAnswer {
  std::string name;         // "" when no source knows the device
  std::string source;       // "amdgpu.ids", "pci.ids", "gpudoctor" or ""
  std::string vendor_name;  // pci.ids' vendor name when it was consulted, else ""
};

class GpuNameResolver {
 public:
  // looked_at receives one line per name file read.
  GpuNameResolver(const SysfsReader& reader, std::vector<std::string>& looked_at)
      : reader_(reader), looked_at_(looked_at) {}

  GpuNameAnswer Resolve(uint32_t vendor_id, uint32_t device_id, std::optional<uint32_t> revision,
                        std::optional<uint32_t> subsystem_vendor_id,
                        std::optional<uint32_t> subsystem_device_id);

 private:
  struct NameFile {
    bool tried = false;
    std::string path;  // the machine path that was read, "" when none
    std::string text;
  };
  const NameFile& Load(NameFile& file, std::span<const char* const> candidates, size_t max_bytes);

  const SysfsReader& reader_;
  std::vector<std::string>& looked_at_;
  NameFile amdgpu_ids_;
  NameFile pci_ids_;
};

}  // namespace gpudoctor
