// libFuzzer target: the PE/COFF section table reader (long names through the
// string table included) and the GPU sections it finds, on arbitrary bytes.
// Seeds: tests/fixtures/binaries/*.dll.
#include <cstddef>
#include <cstdint>

#include "binfmt/gpu_targets.h"
#include "binfmt/section_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  MemoryByteSource source({data, size}, "fuzz.dll");
  auto table = ReadPeSections(source);
  if (table.ok()) {
    for (const auto& s : table->sections) {
      if (s.has_file_data && !source.Contains(s.offset, s.size)) __builtin_trap();
      if (s.name.size() > 256) __builtin_trap();  // names are bounded
    }
  }
  static const ZstdDecoder zstd = ZstdDecoder::Load();  // once per process: compressed bundles are read too
  (void)ReadGpuTargets(source, zstd);
  return 0;
}
