// Parsing, printing and ordering of PCI addresses (pci_address.h).
#include "core/pci_address.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

bool IsHexDigit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// A field of 1..max_digits hex digits whose value is at most max_value.
std::optional<uint32_t> HexField(std::string_view s, size_t max_digits, uint32_t max_value) {
  if (s.empty() || s.size() > max_digits) return std::nullopt;
  for (char c : s)
    if (!IsHexDigit(c)) return std::nullopt;
  auto v = ParseU64(s, 16);
  if (!v || *v > max_value) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

}  // namespace

std::optional<PciAddress> ParsePciAddress(std::string_view text) {
  text = Trim(text);
  size_t dot = text.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  std::string_view head = text.substr(0, dot);
  auto fn = HexField(text.substr(dot + 1), 1, 7);
  if (!fn) return std::nullopt;
  auto parts = Split(head, ':');
  if (parts.size() != 2 && parts.size() != 3) return std::nullopt;
  PciAddress out;
  size_t i = 0;
  if (parts.size() == 3) {
    auto domain = HexField(parts[0], 8, 0xffffffffu);
    if (!domain) return std::nullopt;
    out.domain = *domain;
    i = 1;
  }
  auto bus = HexField(parts[i], 2, 0xff);
  auto dev = HexField(parts[i + 1], 2, 0x1f);
  if (!bus || !dev) return std::nullopt;
  out.bus = *bus;
  out.device = *dev;
  out.function = *fn;
  return out;
}

std::string FormatPciAddress(const PciAddress& a) {
  return Hex(a.domain, 4) + ":" + Hex(a.bus, 2) + ":" + Hex(a.device, 2) + "." + Hex(a.function, 1);
}

std::string NormalizePciAddress(std::string_view text) {
  if (auto parsed = ParsePciAddress(text)) return FormatPciAddress(*parsed);
  return ToLower(Trim(text));
}

std::string NormalizeNvidiaBusId(std::string_view bus_id) {
  auto parsed = ParsePciAddress(bus_id);
  return parsed ? FormatPciAddress(*parsed) : std::string();
}

bool IsCanonicalPciAddress(std::string_view text) {
  auto parsed = ParsePciAddress(text);
  return parsed && FormatPciAddress(*parsed) == text;
}

PciAddress PciAddressFromKfdLocation(uint32_t domain, uint32_t location_id) {
  PciAddress a;
  a.domain = domain;
  a.bus = (location_id >> 8) & 0xffu;
  a.device = (location_id >> 3) & 0x1fu;
  a.function = location_id & 0x7u;
  return a;
}

bool PciAddressTextLess(std::string_view a, std::string_view b) {
  auto pa = ParsePciAddress(a);
  auto pb = ParsePciAddress(b);
  if (pa && pb) return *pa < *pb;
  if (pa != pb) return pa.has_value();  // parsed addresses first
  return a < b;
}

}  // namespace gpudoctor
