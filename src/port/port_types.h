// What `gpudoctor port` found in one file and in all of them: the plain structs its translator and scans fill
// and its renderers (port_report.h) print.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/severity.h"
#include "knowledge/version.h"

namespace gpudoctor {

enum class PortFindingKind {
  kUnsupported,        // a CUDA name HIP lacks: kept as written, the file will not build on HIP
  kNewerHip,           // the HIP name appeared after --hip-version
  kRemovedHip,         // the HIP name was removed by --hip-version
  kWarpSize,           // 32 assumed as the warp width (wavefronts have 64 lanes on CDNA)
  kFullMask,           // a 32-bit full lane mask (0xffffffff) given to a warp intrinsic
  kMaskDropped,        // a partial lane mask dropped with the *_sync suffix
  kBallotWidth,        // a ballot or active mask stored in, or counted as, 32 bits
  kInlinePtx,          // asm(...): PTX has no meaning on AMD GPUs
  kTexture,            // texture or surface references
  kCooperativeGroups,  // a cooperative-groups feature HIP lacks
  kLaunchBounds,       // __launch_bounds__ above 1024 threads
  kUserName,           // a CUDA-looking name the file declares itself: kept
  kLaunchKept,         // --launch-macro could not rewrite a launch: kept as <<<...>>>
  kBuildFlag,          // a CUDA-only flag in CMakeLists.txt or a Makefile
  kCacheHint,          // a cache-hinted load or store (__ldcs, __stcg, ...) made a plain one
  kCudaArch,           // a __CUDA_ARCH__ test: never true in hipcc's device pass
  kWave64,             // code whose result changes when a wavefront has 64 lanes
  kCgRewritten,        // a cooperative-groups call HIP lacks rewritten in portable code (cg::reduce)
  kOlderHip,           // with --hip-version: a name that release lacks written as what it has instead
};

std::string_view ToString(PortFindingKind kind);  // "unsupported", "warp_size", ...

struct PortFinding {
  PortFindingKind kind = PortFindingKind::kUnsupported;
  Severity severity = Severity::kWarning;  // info, warning or error (never ok)
  uint32_t line = 0;
  uint32_t column = 0;
  std::string name;     // the CUDA name or the text that fired it
  std::string message;  // what is wrong
  std::string advice;   // what to do
};

// --check-build: one translated file compiled with hipcc.
struct PortFileBuild {
  bool compiled = false;
  std::string first_error;  // the compiler's first error line when it did not compile
};

struct PortBuildCheck {
  std::string hipcc;         // the compiler's path
  std::string offload_arch;  // gfx1030 unless --offload-arch
  uint64_t files = 0;
  uint64_t compiled = 0;
};

struct PortFileReport {
  std::string path;    // as given or found under the folder
  std::string output;  // where the translation went ("" for --examine or stdout)
  std::string error;   // the file (or a folder of the input) could not be read or lexed: nothing else is set
  bool kept_existing = false;  // --skip-existing: `output` already existed and was left as it is
  uint64_t lines = 0;
  bool changed = false;
  bool build_file = false;                      // CMakeLists.txt / Makefile: scanned, not translated
  bool runtime_include_added = false;           // #include <hip/hip_runtime.h> added: later lines move by one
  uint64_t launches = 0;                        // <<<...>>> kernel launches seen
  std::map<std::string, uint64_t> conversions;  // family -> references renamed
  std::vector<PortFinding> findings;            // sorted by line, column
  std::optional<PortFileBuild> build;           // --check-build: set for each compiled source
};

struct PortReport {
  std::string tool_version;
  std::optional<Version> hip_version;  // --hip-version, when given
  bool examine = false;
  std::vector<PortFileReport> files;          // sorted by path
  std::optional<PortBuildCheck> build_check;  // --check-build
  std::vector<std::string> notes;             // said once for the run (an output folder inside the input)
  bool interrupted = false;  // Ctrl-C or SIGTERM: stopped between two files; `files` holds those done
  size_t sources = 0;        // the source files found (with `interrupted`, more than `files` may cover)

  std::map<std::string, uint64_t> TotalConversions() const;
  std::map<std::string, uint64_t> FindingCounts() const;  // kind name -> count
  uint64_t Lines() const;
  size_t FilesWithErrors() const;
  size_t FilesWritten() const;  // translations written by this run (kept existing files not counted)
};

}  // namespace gpudoctor
