// A new folder in the system's temporary folder for one run of a command (tune's TunableOp results, the
// TMPDIR port gives hipcc): created by this run, only its user may enter it; the caller removes it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace gpudoctor {

// nullopt when no folder could be made (no temporary folder, or eight names taken).
std::optional<std::filesystem::path> NewPrivateFolder(const std::string& prefix);

}  // namespace gpudoctor
