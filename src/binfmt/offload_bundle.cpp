// Walks the clang offload bundles of a .hip_fatbin section, reading each bundle's entry table (for
// compressed bundles, decompressing only the start of the payload, where that table lies).
#include "binfmt/offload_bundle.h"

#include <algorithm>
#include <optional>

#include "core/strings.h"

namespace gpudoctor {

namespace {

constexpr uint64_t kMaxEntries = 1u << 16;
constexpr uint64_t kMaxIdLength = 4096;
constexpr uint64_t kFirstHeaderRead = 16 * 1024;
constexpr uint64_t kMaxHeaderRead = 4ull << 20;
// Each translation unit's .hip_fatbin piece is 4096-aligned (clang emits .p2align 12 for it).
constexpr uint64_t kBundleAlignment = 4096;
constexpr uint64_t kPaddingWindow = 64 * 1024;
constexpr uint64_t kZstdMethod = 1;

enum class ParseState { kDone, kNeedMore, kBad };

struct HeaderParse {
  ParseState state = ParseState::kBad;
  std::vector<BundleEntry> entries;
  uint64_t header_end = 0;
  std::string problem;
};

HeaderParse Bad(std::string problem) {
  HeaderParse p;
  p.problem = std::move(problem);
  return p;
}

// Parses an uncompressed bundle header from `b`. `complete` says that `b` holds everything there is,
// so a short buffer means a truncated bundle rather than a need to read more.
HeaderParse ParseBundleHeader(const LeBytes& b, bool complete) {
  HeaderParse need_more;
  need_more.state = complete ? ParseState::kBad : ParseState::kNeedMore;
  need_more.problem = "the bundle header is truncated";
  if (!b.StartsWithAt(0, kBundleMagic))
    return b.size() < kBundleMagic.size() ? need_more : Bad("no bundle magic");
  auto count = b.U64(kBundleMagic.size());
  if (!count) return need_more;
  if (*count > kMaxEntries) return Bad("the bundle claims " + std::to_string(*count) + " entries");
  HeaderParse p;
  uint64_t at = kBundleMagic.size() + 8;
  for (uint64_t i = 0; i < *count; ++i) {
    auto offset = b.U64(at);
    auto size = b.U64(at + 8);
    auto length = b.U64(at + 16);
    if (!offset || !size || !length) return need_more;
    if (*length > kMaxIdLength)
      return Bad("entry " + std::to_string(i) + " has an ID of " + std::to_string(*length) + " bytes");
    auto text = b.Text(at + 24, *length);
    if (!text) return need_more;
    p.entries.push_back(BundleEntry{ParseBundleEntryId(*text), *offset, *size});
    at += 24 + *length;
  }
  p.state = ParseState::kDone;
  p.header_end = at;
  return p;
}

// Reads and parses the header of the uncompressed bundle at `pos` in `source`, reading more bytes
// only when the entry table is longer than the first read.
HeaderParse ReadBundleHeader(const ByteSource& source, uint64_t pos) {
  for (uint64_t want = kFirstHeaderRead;; want = std::min(want * 8, kMaxHeaderRead)) {
    auto bytes = source.ReadUpTo(pos, want);
    if (!bytes.ok()) return Bad(bytes.error().message);
    HeaderParse p = ParseBundleHeader(LeBytes(*bytes), bytes->size() < want);
    if (p.state != ParseState::kNeedMore) return p;
    if (want >= kMaxHeaderRead) return Bad("the bundle header is larger than 4 MiB");
  }
}

// The same for the start of a compressed bundle's payload.
HeaderParse ReadCompressedBundleHeader(const ByteSource& frame, const ZstdDecoder& zstd) {
  for (uint64_t want = kFirstHeaderRead;; want = std::min(want * 8, kMaxHeaderRead)) {
    auto bytes = zstd.DecompressPrefix(frame, static_cast<size_t>(want));
    if (!bytes.ok()) return Bad(bytes.error().message);
    HeaderParse p = ParseBundleHeader(LeBytes(*bytes), bytes->size() < want);
    if (p.state != ParseState::kNeedMore) return p;
    if (want >= kMaxHeaderRead) return Bad("the bundle header is larger than 4 MiB");
  }
}

bool StartsWithBundleMagic(const ByteSource& section, uint64_t pos) {
  auto bytes = section.ReadUpTo(pos, kBundleMagic.size());
  if (!bytes.ok()) return false;
  LeBytes b(*bytes);
  return b.StartsWithAt(0, kBundleMagic) || b.StartsWithAt(0, kCompressedBundleMagic);
}

// Looks for a bundle at the aligned offsets after `from` (used to find the next bundle when the
// current one does not say where it ends, or when the bytes after it make no sense).
std::optional<uint64_t> ScanAligned(const ByteSource& section, uint64_t from) {
  for (uint64_t at = AlignUp(from, kBundleAlignment); at < section.Size(); at += kBundleAlignment) {
    if (StartsWithBundleMagic(section, at)) return at;
  }
  return std::nullopt;
}

// Skips the zero padding after a bundle that ends at `from`; the next bundle's offset, if any.
std::optional<uint64_t> NextBundle(const ByteSource& section, uint64_t from,
                                   std::vector<std::string>& warnings) {
  if (from >= section.Size()) return std::nullopt;
  auto window = section.ReadUpTo(from, kPaddingWindow);
  if (!window.ok()) return std::nullopt;
  auto nonzero = std::find_if(window->begin(), window->end(), [](uint8_t b) { return b != 0; });
  if (nonzero == window->end())
    return window->size() < kPaddingWindow ? std::nullopt : ScanAligned(section, from);
  uint64_t at = from + static_cast<uint64_t>(nonzero - window->begin());
  if (StartsWithBundleMagic(section, at)) return at;
  warnings.push_back(section.Name() + ": unrecognised bytes at offset " + std::to_string(at) +
                     " after a bundle; looking for the next bundle at aligned offsets");
  return ScanAligned(section, at);
}

void CheckEntryBounds(const OffloadBundle& bundle, uint64_t bundle_size, const std::string& where,
                      std::vector<std::string>& warnings) {
  for (const auto& e : bundle.entries) {
    if (e.offset > bundle_size || e.size > bundle_size - e.offset)
      warnings.push_back(where + ": entry " + e.id.id +
                         " lies outside its bundle (truncated or damaged file)");
  }
}

uint64_t EntriesEnd(const std::vector<BundleEntry>& entries, uint64_t header_end) {
  uint64_t end = header_end;
  for (const auto& e : entries) {
    if (e.offset <= UINT64_MAX - e.size) end = std::max(end, e.offset + e.size);
  }
  return end;
}

}  // namespace

BundleEntryId ParseBundleEntryId(std::string_view id) {
  BundleEntryId r;
  r.id = std::string(id);
  size_t dash = id.find('-');
  if (dash == std::string_view::npos) {
    r.kind = r.id;
    return r;
  }
  r.kind = std::string(id.substr(0, dash));
  std::string_view rest = id.substr(dash + 1);
  std::string_view triple = rest;
  std::string_view target;
  size_t gfx = rest.find("-gfx");
  if (rest.rfind("amdgcn", 0) == 0 && gfx != std::string_view::npos) {
    // "amdgcn-amd-amdhsa--gfx90a:xnack-" (hipv4) or "amdgcn-amd-amdhsa-gfx906" (older hip-).
    triple = rest.substr(0, gfx);
    target = rest.substr(gfx + 1);
  } else {
    // A full triple has four parts (the fourth may be empty); what follows is the target ID.
    size_t pos = std::string_view::npos;
    for (size_t part = 0, from = 0; part < 4; ++part, from = pos + 1) {
      pos = rest.find('-', from);
      if (pos == std::string_view::npos) break;
    }
    if (pos != std::string_view::npos) {
      triple = rest.substr(0, pos);
      target = rest.substr(pos + 1);
    }
  }
  while (!triple.empty() && triple.back() == '-') triple.remove_suffix(1);
  r.triple = std::string(triple);
  r.target_id = std::string(target);
  auto parts = Split(target, ':');
  if (!parts.empty()) r.processor = std::string(parts[0]);
  for (size_t i = 1; i < parts.size(); ++i) {
    if (!parts[i].empty()) r.features.emplace_back(parts[i]);
  }
  return r;
}

std::string CompressedBundleHeader::MethodName() const {
  switch (method) {
    case 0:
      return "zlib";
    case 1:
      return "zstd";
    default:
      return "method " + std::to_string(method);
  }
}

Result<CompressedBundleHeader> ParseCompressedBundleHeader(std::span<const uint8_t> bytes) {
  LeBytes b(bytes);
  if (!b.StartsWithAt(0, kCompressedBundleMagic))
    return UserError("not a compressed offload bundle (no CCOB magic)");
  auto version = b.U16(4);
  auto method = b.U16(6);
  if (!version || !method) return UserError("the compressed bundle header is truncated");
  CompressedBundleHeader h;
  h.version = *version;
  h.method = *method;
  switch (h.version) {
    case 1:
      h.header_size = 20;
      h.uncompressed_size = b.U32Or0(8);
      break;
    case 2:
      h.header_size = 24;
      h.total_size = b.U32Or0(8);
      h.uncompressed_size = b.U32Or0(12);
      break;
    case 3:
      h.header_size = 32;
      h.total_size = b.U64Or0(8);
      h.uncompressed_size = b.U64Or0(16);
      break;
    default:
      return UserError("compressed bundle version " + std::to_string(h.version) + " is not known (1-3 are)");
  }
  if (!b.Has(0, h.header_size)) return UserError("the compressed bundle header is truncated");
  if (h.total_size && *h.total_size < h.header_size)
    return UserError("the compressed bundle claims a total size of " + std::to_string(*h.total_size) +
                     " bytes");
  return h;
}

Result<OffloadBundleReport> ReadOffloadBundles(const ByteSource& section, const ZstdDecoder& zstd) {
  if (!StartsWithBundleMagic(section, 0))
    return UserError(section.Name() + " does not start with a clang offload bundle (" +
                     std::string(kBundleMagic) + " or CCOB)");
  OffloadBundleReport report;
  std::optional<uint64_t> pos = 0;
  while (pos && *pos < section.Size()) {
    const uint64_t at = *pos;
    const std::string where = section.Name() + " bundle at offset " + std::to_string(at);
    OffloadBundle bundle;
    bundle.offset = at;
    std::optional<uint64_t> end;  // where this bundle ends in the section, when it says
    auto peek = section.ReadUpTo(at, 32);
    if (!peek.ok()) {
      report.warnings.push_back(peek.error().message);
      break;
    }
    if (LeBytes(*peek).StartsWithAt(0, kBundleMagic)) {
      HeaderParse p = ReadBundleHeader(section, at);
      if (p.state != ParseState::kDone) {
        report.warnings.push_back(where + ": " + p.problem);
        pos = ScanAligned(section, at + 1);
        continue;
      }
      bundle.entries_read = true;
      bundle.entries = std::move(p.entries);
      CheckEntryBounds(bundle, section.Size() - at, where, report.warnings);
      end = at + std::min(EntriesEnd(bundle.entries, p.header_end), section.Size() - at);
    } else {
      auto header = ParseCompressedBundleHeader(*peek);
      if (!header.ok()) {
        report.warnings.push_back(where + ": " + header.error().message);
        pos = ScanAligned(section, at + 1);
        continue;
      }
      bundle.compressed = *header;
      uint64_t available = section.Size() - at;
      uint64_t total = header->total_size.value_or(available);
      if (total > available) {
        report.warnings.push_back(where + ": the compressed bundle claims " + std::to_string(total) +
                                  " bytes but the section ends first (truncated file?)");
        total = available;
      }
      if (header->total_size) end = at + total;
      if (header->method != kZstdMethod) {
        report.warnings.push_back(where + ": " + header->MethodName() +
                                  "-compressed bundle: targets not read (only zstd is supported)");
      } else if (!zstd.available()) {
        report.warnings.push_back(where + ": compressed bundle: targets not readable without zstd (" +
                                  zstd.origin() + ")");
      } else {
        WindowByteSource frame(section, at + header->header_size,
                               total - std::min(total, header->header_size), where + " (zstd payload)");
        HeaderParse p = ReadCompressedBundleHeader(frame, zstd);
        if (p.state == ParseState::kDone) {
          bundle.entries_read = true;
          bundle.entries = std::move(p.entries);
          CheckEntryBounds(bundle, header->uncompressed_size, where, report.warnings);
        } else {
          report.warnings.push_back(where + ": compressed bundle: " + p.problem);
        }
      }
    }
    report.bundles.push_back(std::move(bundle));
    pos = end ? NextBundle(section, *end, report.warnings) : ScanAligned(section, at + 1);
    if (pos && *pos <= at) break;  // never walk backwards
  }
  return report;
}

}  // namespace gpudoctor
