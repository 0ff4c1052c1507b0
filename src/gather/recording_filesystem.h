// The FileSystem that `gather` puts between the probes and the machine: it passes every call through
// unchanged and keeps what came back (file contents, folder listings, links, which paths exist, the
// pieces of large libraries read at an offset), so a recording holds exactly what the probes read and
// no list of paths has to be kept beside them. The gather writers (gather.cpp for Linux,
// gather_windows.cpp for Windows) turn what was kept into a sysroot folder.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "platform/filesystem.h"

namespace gpudoctor {

// Largest file recorded; a longer one is cut there (with a note).
inline constexpr size_t kGatherMaxFileBytes = 1 << 20;

// The bytes of one file read in pieces (OpenForReading): its size, and each piece read, by offset.
struct RecordedPieces {
  uint64_t size = 0;
  std::map<uint64_t, std::string> pieces;
  uint64_t kept_bytes = 0;
  bool cut = false;  // more was read than is kept (kRecordedPiecesMaxBytes)
};

// What the probes asked for, by machine path, kept when the call succeeded.
struct RecordedAccesses {
  std::map<std::string, std::string> reads;  // the longest content returned, at most kGatherMaxFileBytes
  std::set<std::string> cut_reads;           // files longer than kGatherMaxFileBytes
  std::map<std::string, std::vector<std::string>> listings;  // folder -> its entry names
  std::map<std::string, FileStat> stats;                     // paths that exist
  std::set<std::string> links;                               // paths read as links
  std::map<std::string, RecordedPieces> opened;              // files read in pieces
  std::vector<std::string> spaces;                           // paths whose free space was asked
};

// Largest number of bytes kept of one file read in pieces (a libtorch reads a few hundred KiB).
inline constexpr uint64_t kRecordedPiecesMaxBytes = 64ull << 20;

class RecordingFileSystem final : public FileSystem {
 public:
  // Only calls on paths for which `keep(path)` is true are kept (Windows gather keeps drive paths only).
  using PathFilter = bool (*)(std::string_view path);
  RecordingFileSystem(const FileSystem& inner, PathFilter keep) : inner_(inner), keep_(keep) {}

  Result<std::string> ReadFile(std::string_view path, size_t max_bytes) const override;
  Result<std::vector<std::string>> ListDir(std::string_view path) const override;
  Result<std::string> ReadLink(std::string_view path) const override;
  Result<FileStat> Stat(std::string_view path) const override;
  Result<DiskSpace> Space(std::string_view path) const override;
  Result<std::unique_ptr<RandomAccessFile>> OpenForReading(std::string_view path) const override;
  std::string Root() const override { return inner_.Root(); }
  bool IsLiveRoot() const override { return inner_.IsLiveRoot(); }

  // What was kept so far. The probes run on one thread; so does the recording.
  const RecordedAccesses& accesses() const { return seen_; }

 private:
  const FileSystem& inner_;
  PathFilter keep_;
  mutable RecordedAccesses seen_;
};

}  // namespace gpudoctor
