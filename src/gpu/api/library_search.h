// Where gpudoctor looks for a vendor library, in one place: the user's framework's own copies first
// (site-packages/torch/lib, site-packages/nvidia/*/lib, the ROCm SDK wheels' folders), then the SDK named by
// ROCM_PATH / HIP_PATH / CUDA_PATH, then the system loader. The framework's copies come first because they
// are what the user's programs actually run with; the report names the file loaded and where it came from.
#pragma once

#include <string>
#include <vector>

#include "platform/dynamic_library.h"
#include "platform/environment.h"
#include "platform/filesystem.h"

namespace gpudoctor {

enum class LibraryOrigin { kFramework, kSdk, kSystem };
const char* ToString(LibraryOrigin origin);  // "framework", "sdk", "system"

// One place to try.
struct LibraryCandidate {
  std::string path;  // a full path (framework, SDK) or a bare file name for the system loader
  LibraryOrigin origin = LibraryOrigin::kSystem;
  std::string
      where;  // "torch/lib of /venv/lib/python3.12/site-packages", "ROCM_PATH=/opt/rocm", "system loader"
};

// What to look for: every spelling on every system (the other system's names simply never match).
struct LibrarySpec {
  std::vector<std::string> file_names;      // versioned names first ("libamdhip64.so.7" ... "amdhip64_6.dll")
  std::vector<std::string> framework_dirs;  // under site-packages; one '*' level allowed ("nvidia/*/lib")
  std::vector<std::string> sdk_variables;   // "ROCM_PATH", "HIP_PATH", "CUDA_PATH"
  std::vector<std::string> sdk_dirs;        // under the SDK root: "lib", "lib64", "bin"
};

// The site-packages folders of the Python environments in reach, most specific first: $VIRTUAL_ENV,
// $CONDA_PREFIX, environments whose bin/ (Scripts\) folder is on PATH, the user's ~/.local, then the
// system's (/usr/local/lib/python3*/dist-packages and the like). Machine paths, read through `fs`. A
// variable holding a relative path is skipped (it names the current folder's contents).
std::vector<std::string> FindSitePackages(const FileSystem& fs, const Environment& env);

// Every candidate for `spec`, in search order, without duplicates. Framework and SDK candidates are files
// that exist; the system loader's are bare names.
std::vector<LibraryCandidate> SearchLibrary(const FileSystem& fs, const Environment& env,
                                            const std::vector<std::string>& site_packages,
                                            const LibrarySpec& spec);

// The paths alone, for OpenFirst / LoadTable.
std::vector<std::string> CandidatePaths(const std::vector<LibraryCandidate>& candidates);

// The candidate that `report` says was loaded (the last one tried), or nullptr when none loaded.
const LibraryCandidate* LoadedCandidate(const std::vector<LibraryCandidate>& candidates,
                                        const LibraryLoadReport& report);

// The specs of the vendor libraries the GPU backends load.
LibrarySpec CudaDriverLibrarySpec();
LibrarySpec NvrtcLibrarySpec();
LibrarySpec CublasLibrarySpec();
LibrarySpec NvmlLibrarySpec();
LibrarySpec HipLibrarySpec();
LibrarySpec HiprtcLibrarySpec();
LibrarySpec RocblasLibrarySpec();
LibrarySpec RocmSmiLibrarySpec();
LibrarySpec AmdSmiLibrarySpec();

}  // namespace gpudoctor
