// A run's own temporary folder (see private_folder.h).
#include "cli/private_folder.h"

#include <random>
#include <system_error>

namespace gpudoctor {

// mkdir fails on any existing name, a planted link included, so the folder is always this run's own.
std::optional<std::filesystem::path> NewPrivateFolder(const std::string& prefix) {
  std::error_code ec;
  const std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) return std::nullopt;
  std::random_device random;
  for (int attempt = 0; attempt < 8; ++attempt) {
    std::filesystem::path folder = tmp / (prefix + std::to_string(random()));
    if (std::filesystem::create_directory(folder, ec) && !ec) {
      std::filesystem::permissions(folder, std::filesystem::perms::owner_all,
                                   std::filesystem::perm_options::replace, ec);
      return folder;
    }
  }
  return std::nullopt;
}

}  // namespace gpudoctor
