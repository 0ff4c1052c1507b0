// The zip reader of zip_archive.h, after PKWARE's APPNOTE.TXT (sections 4.3.6-4.3.16 and 4.5.3):
// find the end-of-central-directory record from the end, follow the zip64 locator when a field is
// saturated, then walk the central directory's fixed-size headers.
#include "binfmt/zip_archive.h"

#include <algorithm>

#include "binfmt/inflate.h"

namespace gpudoctor {
namespace {

constexpr uint32_t kEndSignature = 0x06054b50;
constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr uint32_t kZip64EndSignature = 0x06064b50;
constexpr uint32_t kCentralSignature = 0x02014b50;
constexpr uint32_t kLocalSignature = 0x04034b50;
constexpr uint64_t kEndSize = 22;
constexpr uint64_t kZip64LocatorSize = 20;
constexpr uint64_t kZip64EndSize = 56;
constexpr uint64_t kCentralSize = 46;
constexpr uint64_t kLocalSize = 30;
constexpr uint64_t kMaxComment = 0xffff;
constexpr uint64_t kMaxDirectoryBytes = 512ull << 20;

Error NotZip(const ByteSource& zip, const std::string& why) {
  return UserError(zip.Name() + " is not a readable zip archive: " + why,
                   "give a .whl file as downloaded, or the folder it was unpacked into");
}

struct Directory {
  uint64_t entries = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

Result<Directory> FindDirectory(const ByteSource& zip) {
  if (zip.Size() < kEndSize) return NotZip(zip, "too short");
  const uint64_t tail_size = std::min<uint64_t>(zip.Size(), kEndSize + kMaxComment + kZip64LocatorSize);
  auto tail = zip.Read(zip.Size() - tail_size, tail_size);
  if (!tail.ok()) return tail.error();
  LeBytes t(*tail);
  // The last signature whose comment length reaches exactly to the end of the file.
  std::optional<uint64_t> end_at;
  for (uint64_t i = tail_size - kEndSize + 1; i-- > 0;) {
    if (t.U32Or0(i) == kEndSignature && i + kEndSize + t.U16Or0(i + 20) == tail_size) {
      end_at = i;
      break;
    }
  }
  if (!end_at) return NotZip(zip, "no end-of-central-directory record");
  const uint64_t e = *end_at;
  if (t.U16Or0(e + 4) != 0 || t.U16Or0(e + 6) != 0) return NotZip(zip, "a multi-disk archive");
  Directory d{t.U16Or0(e + 10), t.U32Or0(e + 16), t.U32Or0(e + 12)};
  const bool saturated = d.entries == 0xffff || d.offset == 0xffffffff || d.size == 0xffffffff;
  if (saturated && e >= kZip64LocatorSize && t.U32Or0(e - kZip64LocatorSize) == kZip64LocatorSignature) {
    const uint64_t at = t.U64Or0(e - kZip64LocatorSize + 8);
    auto z = zip.Read(at, kZip64EndSize);
    if (!z.ok()) return NotZip(zip, "the zip64 end record lies outside the file");
    LeBytes r(*z);
    if (r.U32Or0(0) != kZip64EndSignature) return NotZip(zip, "no zip64 end record where the locator points");
    d = Directory{r.U64Or0(32), r.U64Or0(48), r.U64Or0(40)};
  }
  if (d.entries > kMaxZipEntries) return NotZip(zip, std::to_string(d.entries) + " entries");
  if (d.size > kMaxDirectoryBytes || !zip.Contains(d.offset, d.size))
    return NotZip(zip, "the central directory lies outside the file");
  return d;
}

// Applies the zip64 extra field (id 1) to the saturated fields of `e`.
void ApplyZip64Extra(LeBytes extra, ZipEntry& e) {
  uint64_t at = 0;
  while (extra.Has(at, 4)) {
    const uint16_t id = extra.U16Or0(at);
    const uint16_t length = extra.U16Or0(at + 2);
    if (!extra.Has(at + 4, length)) return;
    if (id == 1) {
      uint64_t p = at + 4;
      const uint64_t end = p + length;
      auto take = [&](uint64_t& field) {
        if (p + 8 <= end) {
          field = extra.U64Or0(p);
          p += 8;
        }
      };
      if (e.size == 0xffffffff) take(e.size);
      if (e.compressed_size == 0xffffffff) take(e.compressed_size);
      if (e.local_header_offset == 0xffffffff) take(e.local_header_offset);
      return;
    }
    at += 4 + length;
  }
}

// Refuses entries whose data overlap: each takes at least its local header and its compressed data
// from where the directory points, and no two share a byte.
Status CheckEntriesApart(const ByteSource& zip, const std::vector<ZipEntry>& entries) {
  std::vector<const ZipEntry*> order;
  order.reserve(entries.size());
  for (const ZipEntry& e : entries) order.push_back(&e);
  std::sort(order.begin(), order.end(), [](const ZipEntry* a, const ZipEntry* b) {
    return a->local_header_offset < b->local_header_offset;
  });
  for (size_t i = 1; i < order.size(); ++i) {
    const ZipEntry& a = *order[i - 1];
    const ZipEntry& b = *order[i];
    const uint64_t gap = b.local_header_offset - a.local_header_offset;
    if (gap < kLocalSize || gap - kLocalSize < a.compressed_size)
      return NotZip(zip, "the entries " + a.name + " and " + b.name + " share their data (a zip bomb?)");
  }
  return Ok{};
}

}  // namespace

Status ZipInflateBudget::Take(const std::string& what, uint64_t size) {
  if (size > left_)
    return UserError(what + " is " + std::to_string(size) + " bytes inflated, past what is left of the " +
                     std::to_string(total_) + " bytes one archive may inflate to in all");
  left_ -= size;
  return Ok{};
}

Result<std::vector<ZipEntry>> ReadZipDirectory(const ByteSource& zip) {
  auto dir = FindDirectory(zip);
  if (!dir.ok()) return dir.error();
  auto bytes = zip.Read(dir->offset, dir->size, kMaxDirectoryBytes);
  if (!bytes.ok()) return bytes.error();
  LeBytes b(*bytes);
  std::vector<ZipEntry> entries;
  entries.reserve(static_cast<size_t>(dir->entries));
  uint64_t at = 0;
  for (uint64_t i = 0; i < dir->entries; ++i) {
    if (!b.Has(at, kCentralSize) || b.U32Or0(at) != kCentralSignature)
      return NotZip(zip, "central directory entry " + std::to_string(i) + " is damaged");
    ZipEntry e;
    e.flags = b.U16Or0(at + 8);
    e.method = b.U16Or0(at + 10);
    e.crc32 = b.U32Or0(at + 16);
    e.compressed_size = b.U32Or0(at + 20);
    e.size = b.U32Or0(at + 24);
    const uint16_t name_length = b.U16Or0(at + 28);
    const uint16_t extra_length = b.U16Or0(at + 30);
    const uint16_t comment_length = b.U16Or0(at + 32);
    e.local_header_offset = b.U32Or0(at + 42);
    auto name = b.Text(at + kCentralSize, name_length);
    if (!name || !b.Has(at + kCentralSize + name_length, extra_length))
      return NotZip(zip, "central directory entry " + std::to_string(i) + " runs past the directory");
    e.name = std::string(*name);
    ApplyZip64Extra(LeBytes(std::span<const uint8_t>(*bytes).subspan(
                        static_cast<size_t>(at + kCentralSize + name_length), extra_length)),
                    e);
    entries.push_back(std::move(e));
    at += kCentralSize + name_length + extra_length + comment_length;
  }
  if (auto apart = CheckEntriesApart(zip, entries); !apart) return apart.error();
  return entries;
}

Result<std::unique_ptr<ByteSource>> OpenZipEntry(const ByteSource& zip, const ZipEntry& entry,
                                                 uint64_t max_size, ZipInflateBudget* budget) {
  const std::string what = zip.Name() + ": " + entry.name;
  if (entry.flags & 1) return UserError(what + " is encrypted");
  auto local = zip.Read(entry.local_header_offset, kLocalSize);
  if (!local.ok() || LeBytes(*local).U32Or0(0) != kLocalSignature)
    return UserError(what + ": no local header where the directory points");
  LeBytes l(*local);
  const uint64_t data = entry.local_header_offset + kLocalSize + l.U16Or0(26) + l.U16Or0(28);
  if (!zip.Contains(data, entry.compressed_size)) return UserError(what + ": the data runs past the end");
  if (entry.method == kZipStored) {
    if (entry.compressed_size != entry.size) return UserError(what + ": stored sizes differ");
    return std::unique_ptr<ByteSource>(
        std::make_unique<WindowByteSource>(zip, data, entry.compressed_size, entry.name));
  }
  if (entry.method != kZipDeflate)
    return UserError(what + ": compression method " + std::to_string(entry.method) + " is not supported");
  if (entry.size > max_size)
    return UserError(what + " is " + std::to_string(entry.size) + " bytes, more than the " +
                     std::to_string(max_size) + " allowed");
  if (budget) {
    if (auto taken = budget->Take(what, entry.size); !taken) return taken.error();
  }
  WindowByteSource compressed(zip, data, entry.compressed_size, "entry " + entry.name);
  auto bytes = InflateRaw(compressed, entry.size);  // stops one byte past the declared size
  if (!bytes.ok()) return bytes.error().With(zip.Name());
  if (bytes->size() != entry.size)
    return UserError(what + ": inflated to " + std::to_string(bytes->size()) + " bytes, the directory says " +
                     std::to_string(entry.size));
  if (Crc32(*bytes) != entry.crc32) return UserError(what + ": CRC-32 mismatch (a damaged download?)");
  return std::unique_ptr<ByteSource>(std::make_unique<OwnedByteSource>(std::move(*bytes), entry.name));
}

}  // namespace gpudoctor
