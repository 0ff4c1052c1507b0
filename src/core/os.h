// The operating systems gpudoctor tells apart, named once for every layer: a Snapshot's OS family and the
// platform a user types commands on (where WSL, Linux under Windows, has wheels and fixes of its own).
#pragma once

#include <optional>
#include <string_view>

namespace gpudoctor {

// The kernel's family, a Snapshot's "os.family". WSL is Linux here (OsInfo::wsl tells it apart).
enum class OsFamily { kUnknown, kLinux, kWindows };

// "linux", "windows"; "" for kUnknown (a snapshot no OS probe filled).
std::string_view OsFamilyName(OsFamily family);
// The family a name stands for; kUnknown for "" and any other word.
OsFamily OsFamilyFromName(std::string_view name);

// Where the user runs commands: the platform of install routes, wheels and fixes.
enum class Platform { kLinux, kWsl, kWindows };

// Windows for the Windows family; WSL for Linux with `wsl` set; Linux otherwise.
Platform PlatformOf(OsFamily family, bool wsl);
// "linux", "wsl", "windows": the words of the data files (data/pytorch_routes.toml's `os`).
std::string_view PlatformName(Platform platform);
std::optional<Platform> PlatformFromName(std::string_view name);

}  // namespace gpudoctor
