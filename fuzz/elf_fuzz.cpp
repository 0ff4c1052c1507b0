// libFuzzer target: the ELF section table reader and, through ReadGpuTargets,
// the GPU sections it finds, on arbitrary bytes. Seeds:
// tests/fixtures/binaries/*.so (libraries built by nvcc and hipcc).
#include <cstddef>
#include <cstdint>

#include "binfmt/gpu_targets.h"
#include "binfmt/section_table.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  MemoryByteSource source({data, size}, "fuzz.so");
  auto table = ReadElfSections(source);
  if (table.ok()) {
    for (const auto& s : table->sections) {
      // Sections are clipped to the file: a reader may rely on that.
      if (s.has_file_data && !source.Contains(s.offset, s.size)) __builtin_trap();
    }
  }
  static const ZstdDecoder zstd = ZstdDecoder::Load();  // once per process: compressed bundles are read too
  auto targets = ReadGpuTargets(source, zstd);
  if (targets.ok() && !targets->HasGpuCode() && targets->hip_bundles == 0 && targets->cuda_images != 0)
    __builtin_trap();
  return 0;
}
