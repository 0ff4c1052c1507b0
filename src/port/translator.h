// The CUDA -> HIP translator of one source text: renames through the mapping table (port_map.h), header
// names, masked warp intrinsics, optionally kernel launches, and the hazard scans (hazard_scan.h). Only
// identifiers, header names and launch punctuation change: comments, strings and layout are copied as they
// are.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/result.h"
#include "knowledge/version.h"
#include "port/port_map.h"
#include "port/port_types.h"

namespace gpudoctor {

struct PortOptions {
  std::optional<Version> hip_version;  // an API added after it becomes a finding
  bool launch_macro = false;  // kernel<<<g, b, s, q>>>(args) -> hipLaunchKernelGGL(kernel, g, b, s, q, args)
};

struct Translation {
  std::string text;
  PortFileReport report;  // path and output left empty
};

// Errors: the lexer's (an unterminated comment or string, a NUL byte, invalid UTF-8, a line too long).
Result<Translation> TranslateCuda(std::string_view source, const PortMap& map, const PortOptions& options);

}  // namespace gpudoctor
