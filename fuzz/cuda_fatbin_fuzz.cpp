// libFuzzer target: the CUDA fat binary reader (containers back to back, entry headers, padding) on
// arbitrary bytes. Seeds: fuzz/seeds/cuda_fatbin_fuzz (.nv_fatbin sections from nvcc 13).
#include <cstddef>
#include <cstdint>

#include "binfmt/cuda_fatbin.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  MemoryByteSource source({data, size}, "fuzz.fatbin");
  auto report = ReadCudaFatbins(source);
  if (!report.ok()) return 0;
  // Every entry has a header of at least 64 bytes inside the input.
  if (report->entries.size() > size / 64 + 1) __builtin_trap();
  for (const auto& e : report->entries) {
    if (e.Name().empty()) __builtin_trap();
  }
  return 0;
}
