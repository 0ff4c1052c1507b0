// The PCIe tree walk and the PIX/PXB/PHB/NODE/SYS classification (see pci_path.h).
#include "topo/pci_path.h"

#include <algorithm>

#include "core/pci_address.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kDevicesDir = "/sys/devices";
constexpr size_t kMaxDepth = 16;
constexpr size_t kMaxFunctions = 65536;

// "pci0000:00", "pci10000:e0": a host bridge's folder.
bool IsHostBridgeName(std::string_view name) {
  if (!StartsWith(name, "pci") || name.size() < 6) return false;
  auto parts = Split(name.substr(3), ':');
  return parts.size() == 2 && ParseU64(parts[0], 16) && ParseU64(parts[1], 16);
}

struct Walk {
  const FileSystem& fs;
  std::map<std::string, std::vector<std::string>>& index;
  std::vector<std::string>& warnings;
  bool truncated = false;

  void Visit(const std::string& dir, std::vector<std::string>& chain) {
    if (chain.size() > kMaxDepth) return;
    auto names = fs.ListDir(dir);
    if (!names.ok()) return;
    for (const auto& name : *names) {
      if (!ParsePciAddress(name)) continue;
      std::string child = JoinPath(dir, name);
      if (!fs.IsDir(child)) continue;
      if (index.size() >= kMaxFunctions) {
        truncated = true;
        return;
      }
      std::string address = NormalizePciAddress(name);
      index.emplace(address, chain);
      chain.push_back(address);
      Visit(child, chain);
      chain.pop_back();
    }
  }
};

}  // namespace

std::map<std::string, std::vector<std::string>> IndexPciTree(const FileSystem& fs,
                                                             std::vector<std::string>& warnings) {
  std::map<std::string, std::vector<std::string>> index;
  auto roots = fs.ListDir(kDevicesDir);
  if (!roots.ok()) return index;
  Walk walk{fs, index, warnings};
  for (const auto& name : *roots) {
    if (!IsHostBridgeName(name)) continue;
    std::vector<std::string> chain = {name};
    walk.Visit(JoinPath(kDevicesDir, name), chain);
  }
  if (walk.truncated)
    warnings.push_back(std::string(kDevicesDir) + ": more than " + std::to_string(kMaxFunctions) +
                       " PCI functions; the rest were not read");
  return index;
}

LinkKind ClassifyPcie(const std::vector<std::string>& a, const std::vector<std::string>& b,
                      std::optional<int32_t> numa_a, std::optional<int32_t> numa_b) {
  if (a.empty() || b.empty()) return LinkKind::kUnknown;
  if (a.front() != b.front()) {
    bool other_node = numa_a && numa_b && *numa_a >= 0 && *numa_b >= 0 && *numa_a != *numa_b;
    return other_node ? LinkKind::kSys : LinkKind::kNode;
  }
  auto mismatch = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  size_t common = static_cast<size_t>(mismatch.first - a.begin());
  if (common <= 1) return LinkKind::kPhb;
  size_t below_a = a.size() - common, below_b = b.size() - common;
  return below_a <= 1 && below_b <= 1 ? LinkKind::kPix : LinkKind::kPxb;
}

}  // namespace gpudoctor
