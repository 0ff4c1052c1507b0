// Reads CUDA fat binary containers entry by entry, reading each header and skipping each payload.
#include "binfmt/cuda_fatbin.h"

#include <optional>
#include <string>

namespace gpudoctor {

namespace {

constexpr uint64_t kContainerHeaderSize = 16;
constexpr uint64_t kMinEntryHeaderSize = 64;
constexpr uint64_t kMaxEntryHeaderSize = 4096;
// Containers start 8-byte aligned; the gaps between them (when any) are zeros.
constexpr uint64_t kContainerAlignment = 8;
constexpr uint64_t kMaxPadding = 4096;

CudaImageKind KindOf(uint16_t raw) {
  switch (raw) {
    case 1:
      return CudaImageKind::kPtx;
    case 2:
      return CudaImageKind::kCubin;
    case 8:
      return CudaImageKind::kLtoIr;
    default:
      return CudaImageKind::kOther;
  }
}

CudaCompression CompressionOf(uint64_t flags) {
  bool lz4 = flags & kCudaFlagLz4;
  bool zstd = flags & kCudaFlagZstd;
  if (lz4 && zstd) return CudaCompression::kUnknown;
  if (lz4) return CudaCompression::kLz4;
  if (zstd) return CudaCompression::kZstd;
  return CudaCompression::kNone;
}

// Finds the next container at or after `at`: skips up to kMaxPadding zero bytes to an aligned magic.
std::optional<uint64_t> NextContainer(const ByteSource& section, uint64_t at) {
  // Usually the next container follows at once (libtorch_cuda.so holds thousands): look at 16 bytes
  // before reading a whole padding window.
  auto head = section.ReadUpTo(at, 16);
  if (!head.ok()) return std::nullopt;
  LeBytes h(*head);
  for (uint64_t i = 0; i + 4 <= head->size(); ++i) {
    if ((at + i) % kContainerAlignment == 0 && h.U32(i) == kCudaFatbinMagic) return at + i;
    if ((*head)[i] != 0) return std::nullopt;
  }
  auto window = section.ReadUpTo(at, kMaxPadding + 4);
  if (!window.ok()) return std::nullopt;
  LeBytes b(*window);
  for (uint64_t i = 0; i + 4 <= window->size(); ++i) {
    if ((at + i) % kContainerAlignment == 0 && b.U32(i) == kCudaFatbinMagic) return at + i;
    if ((*window)[i] != 0) return std::nullopt;
  }
  return std::nullopt;
}

// Reads one container's entries; returns the offset just past it, or nothing when it is unusable.
std::optional<uint64_t> ReadContainer(const ByteSource& section, uint64_t at, CudaFatbinReport& report) {
  auto head = section.Read(at, kContainerHeaderSize);
  if (!head.ok()) {
    report.warnings.push_back(head.error().With("CUDA fat binary header").message);
    return std::nullopt;
  }
  LeBytes h(*head);
  uint16_t header_size = h.U16Or0(6);
  uint64_t body_size = h.U64Or0(8);
  const std::string where = section.Name() + " at offset " + std::to_string(at);
  if (header_size < kContainerHeaderSize) {
    report.warnings.push_back(where + ": fat binary header size " + std::to_string(header_size) +
                              " is too small");
    return std::nullopt;
  }
  uint64_t begin = at + header_size;
  if (!section.Contains(begin, body_size)) {
    report.warnings.push_back(where + ": the fat binary claims " + std::to_string(body_size) +
                              " bytes but the section ends first (truncated file?)");
    body_size = section.Size() > begin ? section.Size() - begin : 0;
  }
  ++report.containers;
  uint64_t end = begin + body_size;
  uint64_t pos = begin;
  while (pos < end) {
    if (end - pos < kMinEntryHeaderSize) {
      report.warnings.push_back(where + ": " + std::to_string(end - pos) +
                                " stray bytes after the last entry");
      break;
    }
    auto fixed = section.Read(pos, kMinEntryHeaderSize);
    if (!fixed.ok()) {
      report.warnings.push_back(fixed.error().With("CUDA fat binary entry").message);
      break;
    }
    LeBytes e(*fixed);
    uint32_t entry_header_size = e.U32Or0(4);
    uint64_t payload = e.U64Or0(8);
    if (entry_header_size < kMinEntryHeaderSize || entry_header_size > kMaxEntryHeaderSize ||
        entry_header_size > end - pos) {
      report.warnings.push_back(where + ": entry at offset " + std::to_string(pos) +
                                " has a header size of " + std::to_string(entry_header_size) +
                                " bytes; the rest of this fat binary is skipped");
      break;
    }
    CudaFatbinEntry entry;
    entry.raw_kind = e.U16Or0(0);
    entry.kind = KindOf(entry.raw_kind);
    entry.version_minor = e.U16Or0(24);
    entry.version_major = e.U16Or0(26);
    entry.arch = e.U32Or0(28);
    entry.flags = e.U64Or0(40);
    entry.compression = CompressionOf(entry.flags);
    entry.payload_size = payload;
    entry.uncompressed_size = e.U64Or0(56);
    report.entries.push_back(entry);
    uint64_t next = pos + entry_header_size;
    if (payload > end - next) {
      report.warnings.push_back(where + ": entry " + entry.Name() + " claims " + std::to_string(payload) +
                                " bytes of code, more than the fat binary holds");
      break;
    }
    pos = next + payload;
  }
  return begin + body_size;
}

}  // namespace

std::string CudaFatbinEntry::Name() const {
  std::string prefix;
  switch (kind) {
    case CudaImageKind::kPtx:
      prefix = "compute_";
      break;
    case CudaImageKind::kCubin:
      prefix = "sm_";
      break;
    case CudaImageKind::kLtoIr:
      prefix = "lto_";
      break;
    case CudaImageKind::kOther:
      prefix = "kind" + std::to_string(raw_kind) + "_";
      break;
  }
  std::string suffix;
  if (flags & kCudaFlagArchSpecific) suffix = "a";
  if (flags & kCudaFlagFamilySpecific) suffix = "f";
  return prefix + std::to_string(arch) + suffix;
}

std::string CompressionName(CudaCompression c) {
  switch (c) {
    case CudaCompression::kNone:
      return "none";
    case CudaCompression::kLz4:
      return "lz4";
    case CudaCompression::kZstd:
      return "zstd";
    case CudaCompression::kUnknown:
      return "unknown";
  }
  return "unknown";
}

Result<CudaFatbinReport> ReadCudaFatbins(const ByteSource& section) {
  auto magic = section.ReadUpTo(0, 4);
  if (!magic.ok()) return magic.error();
  if (LeBytes(*magic).U32(0) != kCudaFatbinMagic)
    return UserError(section.Name() + " does not start with a CUDA fat binary (magic 0xBA55ED50)");
  CudaFatbinReport report;
  std::optional<uint64_t> at = 0;
  while (at) {
    auto end = ReadContainer(section, *at, report);
    if (!end || *end >= section.Size()) break;
    at = NextContainer(section, *end);
    if (!at) {
      auto rest = section.ReadUpTo(*end, 4096);
      bool zeros = rest.ok();
      if (rest.ok()) {
        for (uint8_t byte : *rest) zeros = zeros && byte == 0;
      }
      if (!zeros)
        report.warnings.push_back(section.Name() + ": unrecognised bytes at offset " + std::to_string(*end) +
                                  " after the last fat binary; the rest is skipped");
    }
  }
  return report;
}

}  // namespace gpudoctor
