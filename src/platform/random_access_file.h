// Positioned reads of one file without reading it whole: the binary readers look at a few headers
// of libraries that weigh gigabytes (libtorch_cuda.so), so every read names its offset and length.
// POSIX uses pread(2); Windows ReadFile with an offset. Nothing is buffered or mapped, so a file that
// shrinks while it is read gives an error, never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "core/result.h"

namespace gpudoctor {

class RandomAccessFile {
 public:
  virtual ~RandomAccessFile() = default;
  // The size when the file was opened.
  virtual uint64_t Size() const = 0;
  // Fills `out` with the bytes at `offset`; an Error when fewer bytes are there.
  virtual Status ReadAt(uint64_t offset, std::span<uint8_t> out) const = 0;
  // The path it was opened with (for messages).
  virtual const std::string& Path() const = 0;
};

// Opens a file of this computer (a host path, not a machine path under a sysroot: FileSystem::
// OpenForReading maps those) for positioned reads. An Error for folders and unreadable files.
Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(const std::string& host_path);

}  // namespace gpudoctor
