// libFuzzer target: the zip reader of `targets --wheel-toml` (binfmt/zip_archive.h) on arbitrary
// bytes: the directory, zip64 records, local headers, and inflating each entry (bounded at 1 MiB).
// Seeds: fuzz/seeds/zip_fuzz (small wheels with stored and deflated entries, one zip64).
#include <cstddef>
#include <cstdint>

#include "binfmt/zip_archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  MemoryByteSource source({data, size}, "fuzz.whl");
  auto entries = ReadZipDirectory(source);
  if (!entries.ok()) return 0;
  if (entries->size() > kMaxZipEntries) __builtin_trap();
  size_t opened = 0;
  for (const ZipEntry& e : *entries) {
    if (++opened > 64) break;
    auto bytes = OpenZipEntry(source, e, 1u << 20);
    // An entry that opens has exactly the size the directory gave it.
    if (bytes.ok() && (*bytes)->Size() != e.size) __builtin_trap();
  }
  return 0;
}
