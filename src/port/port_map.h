// The one CUDA -> HIP mapping table (data/port/*.toml, compiled in): every name the translator renames, every
// name HIP lacks, the HIP release that added each, the header map, and the lists the hazard scans use.
// The same table drives translation, the report's statistics and its warnings (docs/port.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "knowledge/version.h"

namespace gpudoctor {

enum class PortKind { kFunction, kType, kEnum, kMacro, kHeader, kNamespace };

// A call rewritten beyond its name (hip_needs.h): a cache-hinted load or store becomes a plain one.
enum class PortRewrite { kNone, kLoad, kStore };

struct PortEntry {
  std::string cuda;
  std::string hip;     // empty when unsupported
  std::string family;  // "runtime", "cublas", ...
  PortKind kind = PortKind::kFunction;
  std::optional<Version> since;    // the HIP/ROCm release that added `hip`
  std::optional<Version> removed;  // the release that removed it
  bool unsupported = false;
  bool drop_mask = false;  // warp intrinsics: the first argument (the lane mask) goes
  std::string qualifier;   // namespace entries written "thrust::cuda": "thrust"
  int kernel_arg = -1;     // the argument HIP takes as `const void*` (a kernel): cast there, nvcc needs none
  PortRewrite rewrite = PortRewrite::kNone;
  // With --hip-version older than `since`: what that release has instead (hip_bfloat16 for __hip_bfloat16),
  // written in place of `hip` and reported as older_hip with `older_note`.
  std::string older;
  std::string older_note;
};

// A member older HIP releases lack: a cooperative-groups member function (tile.meta_group_rank()) or a field
// of a runtime struct (prop.sharedMemPerBlockOptin).
struct HipMember {
  std::string name;
  Version missing_through;  // the newest release known to lack it
  std::string advice;
  // What to write instead up to missing_through, "{object}" standing for the object's name; empty: report
  // only.
  std::string older;
};

struct PortFamily {
  std::string name;
  std::string title;
  std::string source;
  std::string unsupported_hint;
  size_t entries = 0;
};

struct BuildFlagRule {
  std::string pattern;  // a substring of a build-file line
  std::string advice;
};

struct PortMap {
  std::vector<PortFamily> families;                      // sorted by name
  std::unordered_map<std::string, PortEntry> names;      // identifiers (kind != header/namespace-qualified)
  std::unordered_map<std::string, PortEntry> headers;    // "cuda_runtime.h" -> ...
  std::unordered_map<std::string, PortEntry> qualified;  // "thrust::cuda" -> ...
  std::vector<std::string> cooperative_groups_missing;
  std::string cooperative_groups_advice;
  std::vector<HipMember> cooperative_groups_members;
  std::vector<HipMember> struct_members;  // fields of runtime structs (hipDeviceProp_t)
  std::vector<BuildFlagRule> build_flags;

  const PortFamily* Family(std::string_view name) const;
};

struct PortDataFile {
  std::string name;  // "data/port/runtime.toml"
  std::string_view text;
};

// Parses the files; every problem (syntax, a missing field, a name mapped twice) is reported with file:line.
Result<PortMap> LoadPortMap(const std::vector<PortDataFile>& files);
// The table compiled into the binary; parsed once per process and shared.
Result<const PortMap*> EmbeddedPortMap();
// data/port/*.toml of a folder (--db DIR/port).
Result<PortMap> LoadPortMapFromDir(const std::string& dir);

std::string_view ToString(PortKind kind);

}  // namespace gpudoctor
