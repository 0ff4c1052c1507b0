// Parsers for the identifiers in the Windows registry (see windows_ids.h). The LocationInformation
// forms are those seen in public dumps: the indirect resource string of Windows 10/11 with its
// values in parentheses, and plain text in the system's language (DEVPKEY_Device_LocationInfo docs).
#include "probe/windows/windows_ids.h"

#include <vector>

#include "core/strings.h"
#include "knowledge/version.h"

namespace gpudoctor {
namespace {

// The hex digits after `tag` ("VEN_") up to the next '&' or '\\' or the end.
std::optional<std::string_view> Field(std::string_view upper, std::string_view tag) {
  size_t pos = upper.find(tag);
  if (pos == std::string_view::npos) return std::nullopt;
  std::string_view rest = upper.substr(pos + tag.size());
  size_t end = rest.find_first_of("&\\");
  return rest.substr(0, end);
}

std::optional<uint32_t> TaggedHexField(std::string_view upper, std::string_view tag, size_t digits) {
  auto f = Field(upper, tag);
  if (!f || f->size() != digits) return std::nullopt;
  auto v = ParseU64(*f, 16);
  if (!v) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

// Every run of decimal digits in `text`, at most `max` of them (each at most 9 digits).
std::vector<uint32_t> Numbers(std::string_view text, size_t max) {
  std::vector<uint32_t> out;
  size_t i = 0;
  while (i < text.size() && out.size() < max + 1) {
    if (text[i] < '0' || text[i] > '9') {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    std::string_view digits = text.substr(start, i - start);
    if (digits.size() > 9) return {};
    out.push_back(static_cast<uint32_t>(*ParseU64(digits)));
  }
  return out;
}

std::optional<std::string> Format(uint32_t domain, uint32_t bus, uint32_t device, uint32_t function) {
  if (domain > 0xffff || bus > 0xff || device > 0x1f || function > 7) return std::nullopt;
  return Hex(domain, 4) + ":" + Hex(bus, 2) + ":" + Hex(device, 2) + "." + Hex(function, 1);
}

}  // namespace

std::optional<PnpHardwareId> ParsePnpHardwareId(std::string_view text) {
  std::string upper = Upper(Trim(text));
  if (!StartsWith(upper, "PCI\\") && !StartsWith(upper, "VEN_")) return std::nullopt;
  PnpHardwareId id;
  auto vendor = TaggedHexField(upper, "VEN_", 4);
  auto device = TaggedHexField(upper, "DEV_", 4);
  if (!vendor || !device) return std::nullopt;
  id.vendor_id = *vendor;
  id.device_id = *device;
  if (auto subsys = TaggedHexField(upper, "SUBSYS_", 8)) {
    id.subsystem_device_id = *subsys >> 16;
    id.subsystem_vendor_id = *subsys & 0xffffu;
  }
  if (auto rev = TaggedHexField(upper, "REV_", 2)) id.revision = *rev;
  return id;
}

std::optional<std::string> PciAddressFromLocationInformation(std::string_view text) {
  text = Trim(text);
  if (text.size() > 512) return std::nullopt;
  // Indirect form: the values are the parenthesised list after the last ';'.
  if (StartsWith(text, "@")) {
    size_t open = text.rfind('(');
    size_t close = text.rfind(')');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      return std::nullopt;
    std::string lower = ToLower(text.substr(0, open));
    if (lower.find("pci") == std::string::npos) return std::nullopt;
    auto n = Numbers(text.substr(open + 1, close - open - 1), 4);
    if (n.size() == 3) return Format(0, n[0], n[1], n[2]);
    if (n.size() == 4) return Format(n[0], n[1], n[2], n[3]);
    return std::nullopt;
  }
  // Plain text: "PCI bus 3, device 0, function 0" in some language; "PCI segment 1 bus 2, ...".
  if (ToLower(text).find("pci") == std::string::npos) return std::nullopt;
  auto n = Numbers(text, 4);
  if (n.size() == 3) return Format(0, n[0], n[1], n[2]);
  if (n.size() == 4) return Format(n[0], n[1], n[2], n[3]);
  return std::nullopt;
}

std::optional<std::string> NvidiaReleaseFromDriverVersion(std::string_view driver_version) {
  auto parts = Split(Trim(driver_version), '.');
  if (parts.size() != 4) return std::nullopt;
  for (auto p : parts)
    if (p.empty() || p.size() > 5 || !ParseU64(p)) return std::nullopt;
  std::string third(parts[2]);
  std::string fourth(parts[3]);
  if (fourth.size() > 4) return std::nullopt;
  fourth.insert(0, 4 - fourth.size(), '0');
  std::string digits = third + fourth;
  if (digits.size() < 5) return std::nullopt;
  digits = digits.substr(digits.size() - 5);
  return digits.substr(0, 3) + "." + digits.substr(3);
}

std::optional<std::string> AmdReleaseLabel(std::string_view radeon_software_version) {
  std::string_view v = Trim(radeon_software_version);
  if (v.empty() || v.size() > 64) return std::nullopt;
  if (auto parsed = Version::Parse(v); parsed && parsed->major() >= 17 && parsed->major() < 100)
    return "Adrenalin " + std::string(v);
  return "AMD Software " + std::string(v);
}

std::string WindowsProductName(uint32_t build, std::string_view registry_product_name) {
  std::string name(Trim(registry_product_name));
  if (build >= kWindows11FirstBuild && StartsWith(name, "Windows 10")) name.replace(0, 10, "Windows 11");
  if (name.empty()) name = build >= kWindows11FirstBuild ? "Windows 11" : "Windows";
  return name;
}

}  // namespace gpudoctor
