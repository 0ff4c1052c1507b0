// Names of the link kinds and of the matrix cells, as `nvidia-smi topo -m` prints the PCIe ones.
#include "snapshot/topology.h"

#include <charconv>

namespace gpudoctor {

const char* ToString(LinkKind kind) {
  switch (kind) {
    case LinkKind::kSelf:
      return "X";
    case LinkKind::kNvLink:
      return "NV";
    case LinkKind::kXgmi:
      return "XGMI";
    case LinkKind::kPix:
      return "PIX";
    case LinkKind::kPxb:
      return "PXB";
    case LinkKind::kPhb:
      return "PHB";
    case LinkKind::kNode:
      return "NODE";
    case LinkKind::kSys:
      return "SYS";
    case LinkKind::kUnknown:
      return "?";
  }
  return "?";
}

std::optional<LinkKind> LinkKindFromString(const std::string& text) {
  for (LinkKind k : {LinkKind::kSelf, LinkKind::kXgmi, LinkKind::kPix, LinkKind::kPxb, LinkKind::kPhb,
                     LinkKind::kNode, LinkKind::kSys, LinkKind::kUnknown})
    if (text == ToString(k)) return k;
  return std::nullopt;
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
