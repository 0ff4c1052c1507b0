// Parsers of PCI sysfs attributes; each takes the file's text and returns a value or a reason.
#include "probe/linux/pci_sysfs_parse.h"

#include <cmath>

#include "core/strings.h"
#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {

Result<uint32_t> ParsePciHexAttribute(std::string_view text, uint32_t max_value) {
  std::string_view t = Trim(text);
  if (t.empty()) return EnvError("empty");
  auto v = ParseHex(t);
  if (!v) return EnvError("not a hex number (" + QuoteForWarning(t) + ")");
  if (*v > max_value) return EnvError("out of range (" + QuoteForWarning(t) + ")");
  return static_cast<uint32_t>(*v);
}

bool IsGpuPciClass(uint32_t class_code) {
  uint32_t base = (class_code >> 16) & 0xffu;
  return base == 0x03 || base == 0x12;
}

Result<std::optional<double>> ParseLinkSpeedGts(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.empty()) return EnvError("empty");
  if (ToLower(t) == "unknown") return std::optional<double>();
  size_t unit = t.find("GT/s");
  if (unit == std::string_view::npos) return EnvError("not a link speed (" + QuoteForWarning(t) + ")");
  // After the unit only the bus name may follow ("PCIe"), nothing else.
  std::string_view rest = Trim(t.substr(unit + 4));
  if (!rest.empty() && rest != "PCIe") return EnvError("not a link speed (" + QuoteForWarning(t) + ")");
  auto v = ParseDouble(t.substr(0, unit));
  if (!v || !std::isfinite(*v) || *v <= 0 || *v > 1000)
    return EnvError("not a link speed (" + QuoteForWarning(t) + ")");
  return std::optional<double>(*v);
}

Result<std::optional<uint32_t>> ParseLinkWidth(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.empty()) return EnvError("empty");
  if (t.front() == 'x' || t.front() == 'X') t.remove_prefix(1);
  auto v = ParseU64(t);
  if (!v || *v > 255) return EnvError("not a link width (" + QuoteForWarning(text) + ")");
  if (*v == 0 || *v == 255) return std::optional<uint32_t>();
  return std::optional<uint32_t>(static_cast<uint32_t>(*v));
}

Result<std::optional<int32_t>> ParseNumaNode(std::string_view text) {
  std::string_view t = Trim(text);
  if (t.empty()) return EnvError("empty");
  auto v = ParseI64(t);
  if (!v || *v < -1 || *v > 65535) return EnvError("not a NUMA node (" + QuoteForWarning(t) + ")");
  if (*v == -1) return std::optional<int32_t>();
  return std::optional<int32_t>(static_cast<int32_t>(*v));
}

std::string_view ShortGpuVendorName(uint32_t vendor_id) {
  switch (vendor_id) {
    case 0x1002:
      return "AMD";
    case 0x1022:
      return "AMD";
    case 0x10de:
      return "NVIDIA";
    case 0x8086:
      return "Intel";
    case 0x1a03:
      return "ASPEED";
    case 0x15ad:
      return "VMware";
    case 0x1af4:
      return "Red Hat (virtio)";
    case 0x1234:
      return "QEMU";
    case 0x1414:
      return "Microsoft";
    case 0x5143:
      return "Qualcomm";
    case 0x102b:
      return "Matrox";
    default:
      return {};
  }
}

}  // namespace gpudoctor
