// Positioned, bounds-checked reads of a binary (a file, a section of it, or bytes in memory), so
// the readers of GPU binaries touch only the headers and tables they need, never a whole library.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "platform/filesystem.h"

namespace gpudoctor {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual uint64_t Size() const = 0;
  // Fills `out` from `offset`; an Error when [offset, offset + out.size()) is not inside the source.
  virtual Status ReadAt(uint64_t offset, std::span<uint8_t> out) const = 0;
  // What the bytes are ("libtorch_hip.so", "section .hip_fatbin"), for messages.
  virtual std::string Name() const = 0;

  bool Contains(uint64_t offset, uint64_t length) const {
    return offset <= Size() && length <= Size() - offset;
  }
  // Reads `length` bytes at `offset`; refuses more than `limit` bytes so that a hostile size field
  // cannot make a reader allocate the moon.
  Result<std::vector<uint8_t>> Read(uint64_t offset, uint64_t length,
                                    uint64_t limit = kDefaultReadLimit) const;
  // Reads whatever lies in [offset, offset + length) clipped to the end of the source.
  Result<std::vector<uint8_t>> ReadUpTo(uint64_t offset, uint64_t length) const;

  static constexpr uint64_t kDefaultReadLimit = 64ull << 20;
};

// Bytes that the caller keeps alive (tests, fuzzing, decompressed data).
class MemoryByteSource final : public ByteSource {
 public:
  explicit MemoryByteSource(std::span<const uint8_t> bytes, std::string name = "memory")
      : bytes_(bytes), name_(std::move(name)) {}
  uint64_t Size() const override { return bytes_.size(); }
  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override;
  std::string Name() const override { return name_; }

 private:
  std::span<const uint8_t> bytes_;
  std::string name_;
};

// Bytes owned by the source (a decompressed header).
class OwnedByteSource final : public ByteSource {
 public:
  OwnedByteSource(std::vector<uint8_t> bytes, std::string name)
      : bytes_(std::move(bytes)), view_(bytes_, name) {}
  uint64_t Size() const override { return view_.Size(); }
  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override { return view_.ReadAt(offset, out); }
  std::string Name() const override { return view_.Name(); }

 private:
  std::vector<uint8_t> bytes_;
  MemoryByteSource view_;
};

// A window [offset, offset + size) of another source, clipped to it: a section of a file.
class WindowByteSource final : public ByteSource {
 public:
  WindowByteSource(const ByteSource& base, uint64_t offset, uint64_t size, std::string name);
  uint64_t Size() const override { return size_; }
  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override;
  std::string Name() const override { return name_; }

 private:
  const ByteSource& base_;
  uint64_t offset_;
  uint64_t size_;
  std::string name_;
};

// Opens a file on this computer for positioned reads (platform/random_access_file.h); nothing is
// read until asked. `path` is a host path.
Result<std::unique_ptr<ByteSource>> OpenFileByteSource(const std::string& path);
// The same for a machine path read through `fs` (a sysroot's files, or the live machine's).
Result<std::unique_ptr<ByteSource>> OpenFileByteSource(const FileSystem& fs, std::string_view path);

// Little-endian fields out of bytes already read; every access is checked against the size.
class LeBytes {
 public:
  explicit LeBytes(std::span<const uint8_t> bytes) : b_(bytes) {}
  size_t size() const { return b_.size(); }
  bool Has(uint64_t offset, uint64_t length) const {
    return offset <= b_.size() && length <= b_.size() - offset;
  }
  std::optional<uint16_t> U16(uint64_t offset) const { return Load<uint16_t>(offset); }
  std::optional<uint32_t> U32(uint64_t offset) const { return Load<uint32_t>(offset); }
  std::optional<uint64_t> U64(uint64_t offset) const { return Load<uint64_t>(offset); }
  // Value of a field the caller has already checked with Has(); 0 when out of range.
  uint16_t U16Or0(uint64_t offset) const { return U16(offset).value_or(0); }
  uint32_t U32Or0(uint64_t offset) const { return U32(offset).value_or(0); }
  uint64_t U64Or0(uint64_t offset) const { return U64(offset).value_or(0); }
  std::optional<std::string_view> Text(uint64_t offset, uint64_t length) const;
  // The NUL-terminated string at `offset` (or up to the end if there is no NUL), at most max_length.
  std::optional<std::string> CString(uint64_t offset, size_t max_length = 4096) const;
  bool StartsWithAt(uint64_t offset, std::string_view magic) const;

 private:
  template <typename T>
  std::optional<T> Load(uint64_t offset) const {
    if (!Has(offset, sizeof(T))) return std::nullopt;
    T v = 0;
    for (size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>(v | static_cast<T>(b_[offset + i]) << (8 * i));
    return v;
  }
  std::span<const uint8_t> b_;
};

uint64_t AlignUp(uint64_t value, uint64_t alignment);

}  // namespace gpudoctor
