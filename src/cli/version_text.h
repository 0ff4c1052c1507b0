// What `gpudoctor --version` prints: the build's version and how current the built-in knowledge is,
// the two facts a bug report needs to tell which answers this binary gives.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

// "gpudoctor 0.1.0-gabc1234\nknowledge as of 2026-12-03" (no final newline: CLI11 adds it); without a
// dated knowledge base the second line says so.
std::string VersionText(std::string_view build_version, const std::optional<std::string>& knowledge_as_of);

// The same for this binary (BuildVersion() and the embedded data files).
std::string VersionText();

}  // namespace gpudoctor
