// POSIX: owner, group and type of a live file (for /dev/kfd and render nodes).
#include <sys/stat.h>

#include <optional>
#include <string>

#include "platform/filesystem.h"

namespace gpudoctor {

std::optional<FileStat> PlatformStat(const std::string& host_path) {
  struct stat st {};
  if (::stat(host_path.c_str(), &st) != 0) return std::nullopt;
  FileStat out;
  out.is_dir = S_ISDIR(st.st_mode);
  out.is_char_device = S_ISCHR(st.st_mode);
  out.mode = static_cast<uint32_t>(st.st_mode) & 0777u;
  out.uid = static_cast<uint32_t>(st.st_uid);
  out.gid = static_cast<uint32_t>(st.st_gid);
  return out;
}

}  // namespace gpudoctor
