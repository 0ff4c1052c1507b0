// `gpudoctor port --check-build` (issue 32, item 4): finds the hipcc a user would build with and compiles
// each translated source with it (`hipcc -c --offload-arch=ARCH`), so the report says per file whether the
// translation builds, and with the compiler's first error when it does not. The compiler runs through the
// caller's process runner, so the orchestration is tested against a scripted one.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "knowledge/version.h"
#include "platform/process.h"
#include "port/port_types.h"

namespace gpudoctor {

struct HipccSearch {
  std::string path_env;   // PATH
  std::string hip_path;   // HIP_PATH
  std::string rocm_path;  // ROCM_PATH
  char list_separator = ':';
  std::function<bool(const std::string& path)> is_file;
};

// The places searched, in order: each folder of PATH, HIP_PATH/bin, ROCM_PATH/bin, /opt/rocm/bin and
// /usr/bin (Debian's hipcc). Error (a user's): none holds hipcc, with the places looked at.
Result<std::string> FindHipcc(const HipccSearch& search);

// The HIP release a hip/hip_version.h states (HIP_VERSION_MAJOR, _MINOR, _PATCH); nullopt when it states
// none.
std::optional<Version> ParseHipVersionHeader(std::string_view text);

// Where the HIP headers of a hipcc are: the include folder beside its bin folder (/usr/bin/hipcc ->
// /usr/include/hip/hip_version.h, /opt/rocm-6.2/bin/hipcc -> /opt/rocm-6.2/include/hip/hip_version.h).
std::string HipVersionHeaderOf(const std::string& hipcc);

using PortProcessRunner = std::function<Result<ProcessResult>(const ProcessRequest&)>;

// True for the outputs compiled on their own (.cu, .cpp, .cc, .cxx, .hip); headers are compiled through them.
bool IsCompiledSourceName(std::string_view file_name);

struct BuildCheckRequest {
  std::string hipcc;
  std::string offload_arch;
  std::vector<std::string> include_dirs;  // given to hipcc as -I (the output folder)
  bool in_place = false;                  // compile the files themselves where there is no output
  // hipcc's TMPDIR (and TMP, TEMP) when not empty: clang leaves a NAME-XXXXXX folder in the temporary
  // folder for every file it compiles, so the caller gives one it removes afterwards.
  std::string temp_dir;
};

// Compiles every translated source of the report (its output, or the file itself with --in-place) and sets
// each one's build; sets report.build_check.
void CheckBuild(const BuildCheckRequest& request, const PortProcessRunner& run, PortReport& report);

}  // namespace gpudoctor
