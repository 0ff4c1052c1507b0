// Parsing of KFD topology text into KfdNode values, with every malformed line reported, never fatal.
#include "probe/linux/kfd_parse.h"

#include <limits>

#include "core/pci_address.h"
#include "core/strings.h"
#include "probe/linux/sysfs_reader.h"

namespace gpudoctor {
namespace {

constexpr uint32_t kHeapFramebufferPublic = 1;
constexpr uint32_t kHeapFramebufferPrivate = 2;

// A property that must fit 32 bits; a larger value is reported and dropped.
std::optional<uint32_t> Get32(const KfdProperties& p, std::string_view key,
                              std::vector<std::string>& problems) {
  auto v = p.Get(key);
  if (!v) return std::nullopt;
  if (*v > std::numeric_limits<uint32_t>::max()) {
    problems.push_back(std::string(key) + ": out of range (" + std::to_string(*v) + ")");
    return std::nullopt;
  }
  return static_cast<uint32_t>(*v);
}

std::string HexDigits(uint32_t v) {
  const char* digits = "0123456789abcdef";
  if (v == 0) return "0";
  std::string out;
  while (v > 0) {
    out.insert(out.begin(), digits[v % 16]);
    v /= 16;
  }
  return out;
}

}  // namespace

std::optional<uint64_t> KfdProperties::Get(std::string_view key) const {
  auto it = values.find(key);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

KfdProperties ParseKfdProperties(std::string_view text) {
  KfdProperties out;
  size_t line_no = 0;
  for (auto line : SplitLines(text)) {
    ++line_no;
    std::string_view t = Trim(line);
    if (t.empty()) continue;
    size_t space = t.find_first_of(" \t");
    std::string_view key = t.substr(0, space);
    std::string_view value = space == std::string_view::npos ? std::string_view() : Trim(t.substr(space));
    auto number = ParseU64(value);
    if (space == std::string_view::npos || value.find_first_of(" \t") != std::string_view::npos || !number) {
      out.problems.push_back("line " + std::to_string(line_no) + ": not 'key value' (" + QuoteForWarning(t) +
                             ")");
      continue;
    }
    if (!out.values.emplace(std::string(key), *number).second)
      out.problems.push_back("line " + std::to_string(line_no) + ": duplicate key " + QuoteForWarning(key));
  }
  return out;
}

std::string GfxTargetName(uint32_t v) {
  if (v == 0) return {};
  uint32_t major = v / 10000;
  uint32_t minor = (v / 100) % 100;
  uint32_t step = v % 100;
  return "gfx" + std::to_string(major) + HexDigits(minor) + HexDigits(step);
}

KfdNodeParse KfdNodeFromProperties(uint32_t node_id, const KfdProperties& p) {
  KfdNodeParse out;
  out.problems = p.problems;
  KfdNode& n = out.node;
  n.node_id = node_id;
  auto gfx = Get32(p, "gfx_target_version", out.problems);
  if (!gfx) {
    // A CPU node of an old kernel may lack the key; a node with SIMDs or with nothing readable is a problem.
    bool has_simds = p.Get("simd_count").value_or(0) > 0;
    if (!p.Get("gfx_target_version") && (has_simds || p.values.empty()))
      out.problems.push_back("no gfx_target_version");
    return out;
  }
  if (*gfx == 0) return out;  // a CPU node
  out.is_gpu = true;
  n.gfx_target_version = *gfx;
  n.gfx_target = GfxTargetName(*gfx);
  n.simd_count = Get32(p, "simd_count", out.problems);
  n.simd_per_cu = Get32(p, "simd_per_cu", out.problems);
  if (n.simd_count && n.simd_per_cu && *n.simd_per_cu > 0) n.compute_units = *n.simd_count / *n.simd_per_cu;
  n.vendor_id = Get32(p, "vendor_id", out.problems);
  n.device_id = Get32(p, "device_id", out.problems);
  n.location_id = Get32(p, "location_id", out.problems);
  n.domain = Get32(p, "domain", out.problems);
  n.drm_render_minor = Get32(p, "drm_render_minor", out.problems);
  n.max_engine_clock_mhz = Get32(p, "max_engine_clk_fcompute", out.problems);
  n.wave_front_size = Get32(p, "wave_front_size", out.problems);
  n.hive_id = p.Get("hive_id");
  n.num_xcc = Get32(p, "num_xcc", out.problems);
  n.cpu_cores_count = Get32(p, "cpu_cores_count", out.problems);
  // Kernels before the domain property (4.x) had only PCI domain 0.
  if (n.location_id)
    n.pci_address = FormatPciAddress(PciAddressFromKfdLocation(n.domain.value_or(0), *n.location_id));
  return out;
}

KfdMemBank KfdMemBankFromProperties(const KfdProperties& p) {
  KfdMemBank bank;
  std::vector<std::string> ignored;
  bank.heap_type = Get32(p, "heap_type", ignored);
  bank.size_in_bytes = p.Get("size_in_bytes");
  return bank;
}

std::optional<uint64_t> SumFramebufferBytes(const std::vector<KfdMemBank>& banks) {
  std::optional<uint64_t> total;
  for (const auto& b : banks) {
    if (!b.heap_type || !b.size_in_bytes) continue;
    if (*b.heap_type != kHeapFramebufferPublic && *b.heap_type != kHeapFramebufferPrivate) continue;
    uint64_t sum = total.value_or(0);
    if (*b.size_in_bytes > std::numeric_limits<uint64_t>::max() - sum) return std::nullopt;
    total = sum + *b.size_in_bytes;
  }
  return total;
}

}  // namespace gpudoctor
