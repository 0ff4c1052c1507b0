// libFuzzer target: the clang offload bundle reader (uncompressed bundles, CCOB
// headers, zstd payloads where this build links libzstd, padding between
// bundles) and the entry ID parser. Seeds: tests/fixtures/binaries/*.bin and
// fuzz/seeds/offload_bundle_fuzz (fuzz/targets.txt).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "binfmt/offload_bundle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  MemoryByteSource source({data, size}, "fuzz.hip_fatbin");
  // Once per process, not per input. Frames with windows over 1 MiB are refused: under ASan, zstd's
  // allocation of a 128 MiB window (a header's claim) cost 5 ms, and made this target 10x slower.
  static const ZstdDecoder zstd = ZstdDecoder::Load().WithWindowLimit(20);
  auto report = ReadOffloadBundles(source, zstd);
  if (report.ok()) {
    for (const auto& bundle : report->bundles) {
      if (bundle.offset >= size) __builtin_trap();
      if (!bundle.entries_read && !bundle.entries.empty()) __builtin_trap();
    }
  }
  BundleEntryId id = ParseBundleEntryId(std::string_view(reinterpret_cast<const char*>(data), size));
  if (id.id.size() != size) __builtin_trap();
  return 0;
}
