// Windows: files have no uid/gid or character devices that matter to the
// probes; std::filesystem already gives what there is, so nothing is added.
#include <optional>
#include <string>

#include "platform/filesystem.h"

namespace gpudoctor {

std::optional<FileStat> PlatformStat(const std::string& /*host_path*/) {
  return std::nullopt;
}

}  // namespace gpudoctor
