// Names of the link kinds and of the matrix cells, as `nvidia-smi topo -m` prints the PCIe ones.
#include "snapshot/topology.h"

#include "core/enum_names.h"

#include <charconv>

namespace gpudoctor {

constexpr std::array kLinkKindNames = {
    EnumName<LinkKind>{LinkKind::kUnknown, "?"}, EnumName<LinkKind>{LinkKind::kSelf, "X"},
    EnumName<LinkKind>{LinkKind::kNvLink, "NV"}, EnumName<LinkKind>{LinkKind::kXgmi, "XGMI"},
    EnumName<LinkKind>{LinkKind::kPix, "PIX"},   EnumName<LinkKind>{LinkKind::kPxb, "PXB"},
    EnumName<LinkKind>{LinkKind::kPhb, "PHB"},   EnumName<LinkKind>{LinkKind::kNode, "NODE"},
    EnumName<LinkKind>{LinkKind::kSys, "SYS"},
};

const char* ToString(LinkKind kind) {
  return NameIn(kLinkKindNames, kind);
}

// "NV" alone is no link a cell or a JSON field names (an NVLink cell carries its count: NV4).
std::optional<LinkKind> LinkKindFromString(const std::string& text) {
  std::optional<LinkKind> kind = ValueIn(kLinkKindNames, text);
  if (kind == LinkKind::kNvLink) return std::nullopt;
  return kind;
}

std::string CellLabel(const TopoLink& link) {
  if (link.kind == LinkKind::kNvLink) return "NV" + std::to_string(link.nvlinks);
  return ToString(link.kind);
}

bool ParseCellLabel(const std::string& label, TopoLink& link) {
  if (label.size() > 2 && label.compare(0, 2, "NV") == 0) {
    uint32_t n = 0;
    const char* end = label.data() + label.size();
    auto [ptr, ec] = std::from_chars(label.data() + 2, end, n);
    if (ec != std::errc() || ptr != end || n == 0) return false;
    link.kind = LinkKind::kNvLink;
    link.nvlinks = n;
    return true;
  }
  auto kind = LinkKindFromString(label);
  if (!kind) return false;
  link.kind = *kind;
  link.nvlinks = 0;
  return true;
}

}  // namespace gpudoctor
