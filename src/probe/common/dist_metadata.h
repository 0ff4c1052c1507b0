// Installed Python distributions, as pip, uv and conda leave them in site-packages:
// `<name>-<version>.dist-info/METADATA` (or `.egg-info/PKG-INFO`, or an `.egg-info` file). Only the
// header block is read (`Name:`, `Version:` and an exact torch pin among the `Requires-Dist:` lines);
// the long description after it never is.
// Fuzzed by fuzz/dist_metadata_fuzz.cpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/strings.h"  // NormalizeDistName, PEP 503 normalisation

namespace gpudoctor {

struct DistMetadata {
  std::string name;     // "onnxruntime-rocm", as written
  std::string version;  // "1.22.1", "0.22.1+cu128"
  // The one torch release it requires, from `Requires-Dist: torch==2.5.1` (or `torch (==2.5.1)`): an
  // unconditional requirement (no `;` marker) with a single `==` clause of a plausible version and no
  // wildcard. "" when there is none (`torch>=2.4`, `torch==2.5.*`, `torch==2.5.1; extra == "gpu"`).
  std::string torch_pin;
};

// Parses the header block of METADATA / PKG-INFO (RFC 822 style: `Key: value` lines up to the first
// blank line). nullopt unless both Name and Version are there and plausible.
std::optional<DistMetadata> ParseDistMetadata(std::string_view text);

// "torchvision-0.22.1+cu128.dist-info" -> {torchvision, 0.22.1+cu128}; egg-info folders and files
// too ("numpy-1.24.2.egg-info", "foo-1.0-py3.11.egg-info"). nullopt for other names.
std::optional<DistMetadata> ParseDistFolderName(std::string_view folder_name);

}  // namespace gpudoctor
