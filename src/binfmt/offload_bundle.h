// Clang offload bundles (the .hip_fatbin section): which AMD GPU targets (gfx90a:xnack-, ...) a
// HIP library was compiled for, from the bundle headers alone, compressed (CCOB) bundles included.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_source.h"
#include "binfmt/zstd_decoder.h"
#include "core/result.h"

namespace gpudoctor {

// Uncompressed bundle (clang's ClangOffloadBundler docs, checked on hipcc output in
// tests/fixtures/binaries): "__CLANG_OFFLOAD_BUNDLE__" (24 bytes), u64 entry count, then per entry
// u64 offset (from the bundle start), u64 size, u64 ID length, the ID without a NUL
// ("hipv4-amdgcn-amd-amdhsa--gfx90a:xnack-", "host-x86_64-unknown-linux-gnu-").
constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
// Compressed bundle (clang --offload-compress): "CCOB", u16 version, u16 method (llvm::compression::
// Format: 0 zlib, 1 zstd); v1: u32 uncompressed size; v2: u32 total size, u32 uncompressed size;
// v3: u64 total size, u64 uncompressed size; then a u64 hash, then the compressed uncompressed bundle.
constexpr std::string_view kCompressedBundleMagic = "CCOB";

// One entry's ID, split: kind-triple-target ID, the target ID being processor[:feature(+|-)]*.
struct BundleEntryId {
  std::string id;                     // as stored
  std::string kind;                   // "hipv4", "hip", "host", "openmp"
  std::string triple;                 // "amdgcn-amd-amdhsa-" or "x86_64-unknown-linux-gnu"
  std::string target_id;              // "gfx90a:xnack-" (empty for the host entry)
  std::string processor;              // "gfx90a"
  std::vector<std::string> features;  // {"xnack-"}

  bool IsHost() const { return kind == "host"; }
  bool IsAmdGpu() const { return triple.rfind("amdgcn", 0) == 0; }
};

BundleEntryId ParseBundleEntryId(std::string_view id);

struct BundleEntry {
  BundleEntryId id;
  uint64_t offset = 0;  // from the start of the (uncompressed) bundle
  uint64_t size = 0;
};

struct CompressedBundleHeader {
  uint16_t version = 0;
  uint16_t method = 0;
  std::optional<uint64_t> total_size;  // v2 and later: the whole compressed bundle, header included
  uint64_t uncompressed_size = 0;
  uint64_t header_size = 0;

  std::string MethodName() const;  // "zlib", "zstd", "method 7"
};

struct OffloadBundle {
  uint64_t offset = 0;  // in the section
  std::optional<CompressedBundleHeader> compressed;
  bool entries_read = false;  // false for a compressed bundle that could not be opened
  std::vector<BundleEntry> entries;
};

struct OffloadBundleReport {
  std::vector<OffloadBundle> bundles;
  std::vector<std::string> warnings;
};

// Walks every bundle in `section` (one per translation unit, back to back, zero-padded to their
// alignment). An Error when the section does not start with a bundle; later damage is a warning.
Result<OffloadBundleReport> ReadOffloadBundles(const ByteSource& section, const ZstdDecoder& zstd);

// Parses a compressed bundle header at the start of `bytes`; an Error when it is not one.
Result<CompressedBundleHeader> ParseCompressedBundleHeader(std::span<const uint8_t> bytes);

}  // namespace gpudoctor
