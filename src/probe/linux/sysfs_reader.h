// Reading small sysfs/procfs text files through the FileSystem with one policy for every probe:
// an absent optional file is silent, anything present but unreadable or malformed becomes one
// warning line ("<path>: <what>") and the probe goes on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/filesystem.h"

namespace gpudoctor {

// sysfs attributes are at most a page; a few properties files are longer, none near this.
inline constexpr size_t kMaxSysfsFileBytes = 64 * 1024;

class SysfsReader {
 public:
  SysfsReader(const FileSystem& fs, std::vector<std::string>& warnings) : fs_(fs), warnings_(warnings) {}

  // The file's text. Absent: nullopt, silently. Present but unreadable (a folder, a looping or
  // dangling symbolic link, no permission): nullopt and a warning.
  std::optional<std::string> Optional(std::string_view path, size_t max_bytes = kMaxSysfsFileBytes) const;
  // Like Optional, but an absent file is also worth a warning.
  std::optional<std::string> Required(std::string_view path) const;

  // Number files. Each warns on garbage ("not a hex number ('zz')") and returns nullopt.
  std::optional<uint64_t> Hex(std::string_view path, bool required) const;
  std::optional<uint64_t> Decimal(std::string_view path, bool required) const;

  // Entry names of a folder; an absent folder is silent, an unreadable one warns.
  std::optional<std::vector<std::string>> List(std::string_view path) const;

  // Adds "<path>: <what>".
  void Warn(std::string_view path, std::string_view what) const;

  const FileSystem& fs() const { return fs_; }

 private:
  std::optional<std::string> Read(std::string_view path, bool required, size_t max_bytes) const;
  // The nearest folder above path that is a symbolic link going nowhere, when one is why path is absent.
  std::optional<std::string> BrokenAncestor(std::string_view path) const;

  const FileSystem& fs_;
  std::vector<std::string>& warnings_;
};

// Shows outside text inside a warning: at most 40 characters, control bytes as '?', quoted.
std::string QuoteForWarning(std::string_view text);

}  // namespace gpudoctor
