// The byte sources behind the binary readers: memory, windows into another source, and files read
// with positioned reads (platform/random_access_file.h), all refusing out-of-range reads.
#include "binfmt/byte_source.h"

#include <algorithm>
#include <cstring>

namespace gpudoctor {

namespace {

Error OutOfRange(const ByteSource& source, uint64_t offset, uint64_t length) {
  return UserError(source.Name() + ": the file is truncated or damaged: wanted " + std::to_string(length) +
                   " bytes at offset " + std::to_string(offset) + ", but it holds " +
                   std::to_string(source.Size()));
}

class FileByteSource final : public ByteSource {
 public:
  FileByteSource(std::unique_ptr<RandomAccessFile> file, std::string name)
      : file_(std::move(file)), name_(std::move(name)) {}
  uint64_t Size() const override { return file_->Size(); }
  std::string Name() const override { return name_; }

  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override {
    if (!Contains(offset, out.size())) return OutOfRange(*this, offset, out.size());
    if (out.empty()) return Ok{};
    return file_->ReadAt(offset, out);
  }

 private:
  std::unique_ptr<RandomAccessFile> file_;
  std::string name_;
};

}  // namespace

Result<std::vector<uint8_t>> ByteSource::Read(uint64_t offset, uint64_t length, uint64_t limit) const {
  if (length > limit)
    return UserError(Name() + ": a field asks for " + std::to_string(length) + " bytes at offset " +
                     std::to_string(offset) + ", more than the " + std::to_string(limit) +
                     " this reader accepts; the file is probably damaged");
  if (!Contains(offset, length)) return OutOfRange(*this, offset, length);
  std::vector<uint8_t> bytes(static_cast<size_t>(length));
  auto st = ReadAt(offset, bytes);
  if (!st.ok()) return st.error();
  return bytes;
}

Result<std::vector<uint8_t>> ByteSource::ReadUpTo(uint64_t offset, uint64_t length) const {
  if (offset >= Size()) return std::vector<uint8_t>{};
  return Read(offset, std::min(length, Size() - offset), length);
}

Status MemoryByteSource::ReadAt(uint64_t offset, std::span<uint8_t> out) const {
  if (!Contains(offset, out.size())) return OutOfRange(*this, offset, out.size());
  if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
  return Ok{};
}

WindowByteSource::WindowByteSource(const ByteSource& base, uint64_t offset, uint64_t size, std::string name)
    : base_(base),
      offset_(std::min(offset, base.Size())),
      size_(std::min(size, base.Size() - std::min(offset, base.Size()))),
      name_(std::move(name)) {}

Status WindowByteSource::ReadAt(uint64_t offset, std::span<uint8_t> out) const {
  if (!Contains(offset, out.size())) return OutOfRange(*this, offset, out.size());
  return base_.ReadAt(offset_ + offset, out);
}

Result<std::unique_ptr<ByteSource>> OpenFileByteSource(const std::string& path) {
  auto file = OpenRandomAccessFile(path);
  if (!file.ok()) return UserError(file.error().message, file.error().hint);
  return std::unique_ptr<ByteSource>(std::make_unique<FileByteSource>(std::move(*file), path));
}

Result<std::unique_ptr<ByteSource>> OpenFileByteSource(const FileSystem& fs, std::string_view path) {
  auto file = fs.OpenForReading(path);
  if (!file.ok()) return file.error();
  return std::unique_ptr<ByteSource>(std::make_unique<FileByteSource>(std::move(*file), std::string(path)));
}

std::optional<std::string_view> LeBytes::Text(uint64_t offset, uint64_t length) const {
  if (!Has(offset, length)) return std::nullopt;
  return std::string_view(reinterpret_cast<const char*>(b_.data() + offset), static_cast<size_t>(length));
}

std::optional<std::string> LeBytes::CString(uint64_t offset, size_t max_length) const {
  if (offset >= b_.size()) return std::nullopt;
  size_t avail = std::min<uint64_t>(b_.size() - offset, max_length);
  const char* start = reinterpret_cast<const char*>(b_.data() + offset);
  const void* nul = std::memchr(start, 0, avail);
  size_t len = nul ? static_cast<size_t>(static_cast<const char*>(nul) - start) : avail;
  return std::string(start, len);
}

bool LeBytes::StartsWithAt(uint64_t offset, std::string_view magic) const {
  auto t = Text(offset, magic.size());
  return t && *t == magic;
}

uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  if (alignment <= 1) return value;
  uint64_t rem = value % alignment;
  if (rem == 0) return value;
  uint64_t add = alignment - rem;
  return value > UINT64_MAX - add ? UINT64_MAX : value + add;
}

}  // namespace gpudoctor
