// Names of the OS family and platform enums: the JSON and data-file forms, in one place.
#include "core/os.h"

namespace gpudoctor {

std::string_view OsFamilyName(OsFamily family) {
  switch (family) {
    case OsFamily::kLinux:
      return "linux";
    case OsFamily::kWindows:
      return "windows";
    case OsFamily::kUnknown:
      break;
  }
  return "";
}

OsFamily OsFamilyFromName(std::string_view name) {
  if (name == "linux") return OsFamily::kLinux;
  if (name == "windows") return OsFamily::kWindows;
  return OsFamily::kUnknown;
}

Platform PlatformOf(OsFamily family, bool wsl) {
  if (family == OsFamily::kWindows) return Platform::kWindows;
  return wsl ? Platform::kWsl : Platform::kLinux;
}

std::string_view PlatformName(Platform platform) {
  switch (platform) {
    case Platform::kLinux:
      return "linux";
    case Platform::kWsl:
      return "wsl";
    case Platform::kWindows:
      return "windows";
  }
  return "linux";
}

std::optional<Platform> PlatformFromName(std::string_view name) {
  for (Platform p : {Platform::kLinux, Platform::kWsl, Platform::kWindows})
    if (PlatformName(p) == name) return p;
  return std::nullopt;
}

}  // namespace gpudoctor
