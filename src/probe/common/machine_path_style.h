// The path arithmetic of the machine being probed, chosen once by its OS: POSIX paths
// ("/home/u/.venv") with their links resolved through the FileSystem, or Windows paths ("C:\Users\u\.venv",
// "\\server\share", "\\?\C:\x") compared without case. The Python finder works through it, so one search
// serves Linux, the live Windows build and a recorded Windows machine replayed anywhere.
#pragma once

#include <string>
#include <string_view>

#include "platform/filesystem.h"

namespace gpudoctor {

class MachinePathStyle {
 public:
  explicit MachinePathStyle(bool windows) : windows_(windows) {}

  bool windows() const { return windows_; }
  // The separator of PATH's entries (':' or ';').
  char ListSeparator() const { return windows_ ? ';' : ':'; }
  bool IsAbsolute(std::string_view path) const;
  std::string Normalize(std::string_view path) const;
  // `rel` below `dir` ("Lib/site-packages" is "Lib\site-packages" on Windows).
  std::string Join(std::string_view dir, std::string_view rel) const;
  std::string Parent(std::string_view path) const;
  std::string Base(std::string_view path) const;
  // `path` when absolute, else below `base`; normalized.
  std::string Absolute(std::string_view base, std::string_view path) const;
  // What makes two paths the same folder: POSIX paths with every link resolved (realpath), Windows
  // paths by WindowsPathKey (case and the long-path prefix folded).
  std::string Identity(const FileSystem& fs, std::string_view path) const;
  bool IsUnder(std::string_view path, std::string_view dir) const;
  // Two file or folder names that are the same name here ("Lib" and "lib" on Windows).
  bool SameName(std::string_view a, std::string_view b) const;

 private:
  bool windows_;
};

}  // namespace gpudoctor
