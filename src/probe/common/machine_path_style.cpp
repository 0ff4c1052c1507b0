// POSIX or Windows path arithmetic behind one interface (machine_path_style.h).
#include "probe/common/machine_path_style.h"

#include "core/strings.h"
#include "core/windows_path.h"
#include "probe/common/machine_paths.h"

namespace gpudoctor {

bool MachinePathStyle::IsAbsolute(std::string_view path) const {
  return windows_ ? IsWindowsAbsolutePath(path) : (!path.empty() && path.front() == '/');
}

std::string MachinePathStyle::Normalize(std::string_view path) const {
  return windows_ ? NormalizeWindowsPath(path) : NormalizePath(path);
}

std::string MachinePathStyle::Join(std::string_view dir, std::string_view rel) const {
  return windows_ ? JoinWindowsPath(dir, rel) : JoinPath(dir, rel);
}

std::string MachinePathStyle::Parent(std::string_view path) const {
  return windows_ ? WindowsParentPath(path) : ParentPath(path);
}

std::string MachinePathStyle::Base(std::string_view path) const {
  return windows_ ? WindowsBaseName(path) : std::string(BaseName(path));
}

std::string MachinePathStyle::Absolute(std::string_view base, std::string_view path) const {
  if (!windows_) return AbsolutePath(base, path);
  return IsWindowsAbsolutePath(path) ? NormalizeWindowsPath(path) : JoinWindowsPath(base, path);
}

std::string MachinePathStyle::Identity(const FileSystem& fs, std::string_view path) const {
  return windows_ ? WindowsPathKey(path) : CanonicalPath(fs, path);
}

bool MachinePathStyle::IsUnder(std::string_view path, std::string_view dir) const {
  return windows_ ? WindowsPathIsUnder(path, dir) : PathIsUnder(path, dir);
}

bool MachinePathStyle::SameName(std::string_view a, std::string_view b) const {
  return windows_ ? ToLower(a) == ToLower(b) : a == b;
}

}  // namespace gpudoctor
