// libFuzzer target: the KFD topology parsers (node properties, mem_banks properties, gfx target
// names, PCI location) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/linux/kfd_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);

  KfdProperties props = ParseKfdProperties(text);
  KfdNodeParse node = KfdNodeFromProperties(7, props);
  if (node.is_gpu && node.node.gfx_target.empty()) __builtin_trap();  // a GPU node always has a name
  if (node.node.compute_units && node.node.simd_count && *node.node.compute_units > *node.node.simd_count)
    __builtin_trap();

  std::vector<KfdMemBank> banks = {KfdMemBankFromProperties(props), KfdMemBankFromProperties(props)};
  (void)SumFramebufferBytes(banks);

  if (size >= 4) {
    uint32_t v = static_cast<uint32_t>(data[0]) | static_cast<uint32_t>(data[1]) << 8 |
                 static_cast<uint32_t>(data[2]) << 16 | static_cast<uint32_t>(data[3]) << 24;
    std::string name = GfxTargetName(v);
    if ((v == 0) != name.empty()) __builtin_trap();
  }
  return 0;
}
