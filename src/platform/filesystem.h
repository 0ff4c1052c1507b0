// The read-only view of a machine's files that every probe goes through.
// Paths are always the machine's absolute paths ("/sys/bus/pci/devices");
// the implementation maps them under a sysroot, so recorded trees of real
// machines drive the same code as the live system.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "platform/random_access_file.h"

namespace gpudoctor {

struct FileStat {
  bool is_dir = false;
  bool is_char_device = false;
  uint32_t mode = 0;  // permission bits (0777 mask) where known
  std::optional<uint32_t> uid;
  std::optional<uint32_t> gid;
};

struct DiskSpace {
  uint64_t capacity_bytes = 0;
  uint64_t available_bytes = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // Reads at most max_bytes; sysfs files are small, so a larger file is truncated, not an error.
  virtual Result<std::string> ReadFile(std::string_view path, size_t max_bytes = 1 << 20) const = 0;
  // Entry names (not paths), sorted, without "." and "..".
  virtual Result<std::vector<std::string>> ListDir(std::string_view path) const = 0;
  virtual Result<std::string> ReadLink(std::string_view path) const = 0;
  virtual Result<FileStat> Stat(std::string_view path) const = 0;
  virtual Result<DiskSpace> Space(std::string_view path) const = 0;
  // Opens a file for positioned reads (binary headers of large libraries), resolved like ReadFile.
  virtual Result<std::unique_ptr<RandomAccessFile>> OpenForReading(std::string_view path) const = 0;
  bool Exists(std::string_view path) const { return Stat(path).ok(); }
  bool IsDir(std::string_view path) const {
    auto s = Stat(path);
    return s.ok() && s->is_dir;
  }

  // The root as given ("/" for the live machine).
  virtual std::string Root() const = 0;
  // True only for the live machine's own root: a report from any other root is not of this machine.
  virtual bool IsLiveRoot() const = 0;
};

// Files under `root` ("/" = this machine). Under any other root, symbolic links
// are resolved inside the root (an absolute link target is taken relative to
// the root), so a recorded tree never reads the host's files.
std::unique_ptr<FileSystem> MakeRootedFileSystem(std::string root);

// A Windows path as a recorded tree stores it, backslashes made separators: a drive ("C:\\Users\\bob",
// "c:/x", the long form "\\\\?\\C:\\x") becomes a top folder ("/C/Users/bob"), a UNC share
// ("\\\\server\\share\\x", "\\\\?\\UNC\\server\\share\\x") the folder UNC ("/UNC/server/share/x").
// Any other path is returned unchanged.
// A recorded root applies it to every path; the live root passes Windows paths to the OS as they are.
std::string RecordedWindowsPath(std::string_view path);

// Joins a machine path and a child name: JoinPath("/sys/class", "drm") -> "/sys/class/drm". Below a
// Windows path the result is one too: JoinPath("C:\\Py", "Lib/site-packages") ->
// "C:\\Py\\Lib\\site-packages".
std::string JoinPath(std::string_view dir, std::string_view name);
// Last path component: "../../bus/pci/drivers/amdgpu" -> "amdgpu" (either separator in a Windows path).
std::string_view BaseName(std::string_view path);

}  // namespace gpudoctor
