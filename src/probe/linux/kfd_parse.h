// Pure parsers of the AMD KFD topology files (kfd_topology.c): node properties, memory-bank
// properties, the gfx target encoding and the packed PCI location. No file access here, so the
// fuzzer and the tests drive them with plain strings.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "snapshot/snapshot.h"

namespace gpudoctor {

// A "key value" file (decimal values, one pair per line), as node_show prints it.
struct KfdProperties {
  std::map<std::string, uint64_t, std::less<>> values;
  std::vector<std::string> problems;  // one per malformed line: "line 3: not 'key value' ('x y z')"

  std::optional<uint64_t> Get(std::string_view key) const;
};

KfdProperties ParseKfdProperties(std::string_view text);

// gfx_target_version -> LLVM processor name: major = v / 10000, minor = (v / 100) % 100,
// step = v % 100, "gfx" + decimal(major) + hex(minor) + hex(step). 110000 -> "gfx1100",
// 90010 -> "gfx90a", 90402 -> "gfx942". 0 (a CPU node) -> "".
std::string GfxTargetName(uint32_t gfx_target_version);

struct KfdNodeParse {
  bool is_gpu = false;  // false for CPU nodes (gfx_target_version 0) and unusable properties
  KfdNode node;
  std::vector<std::string> problems;  // malformed lines and out-of-range values
};

// Fills a KfdNode from a node's properties (everything but gpu_id and VRAM, which live in other files).
KfdNodeParse KfdNodeFromProperties(uint32_t node_id, const KfdProperties& properties);

struct KfdMemBank {
  std::optional<uint32_t> heap_type;  // 0 system, 1 FB public, 2 FB private, ...
  std::optional<uint64_t> size_in_bytes;
};

KfdMemBank KfdMemBankFromProperties(const KfdProperties& properties);

// VRAM: the sum of size_in_bytes over heap_type 1 and 2 banks; nullopt when there is no such bank
// (or the sum would overflow).
std::optional<uint64_t> SumFramebufferBytes(const std::vector<KfdMemBank>& banks);

}  // namespace gpudoctor
