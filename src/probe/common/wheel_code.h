// The GPU code of a PyTorch wheel, read from the wheel itself (a .whl zip) or from the folder it was
// unpacked into: torch/version.py (version, CUDA / HIP) and the cubins, PTX and gfx targets of its
// own libraries (torch/lib/libtorch*, libc10*; on Windows torch_*.dll, c10*.dll). Bundled vendor
// libraries (cuBLAS, rocBLAS, MIOpen) are not read: their targets are not the wheel's build list.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

struct WheelLibraryCode {
  std::string path;  // "torch/lib/libtorch_cuda.so"
  std::vector<std::string> cuda_cubins;
  std::vector<std::string> cuda_ptx;
  std::vector<std::string> amd;  // processors: "gfx1030", "gfx90a" (features dropped)
  std::vector<std::string> warnings;
};

struct WheelCode {
  std::string origin;                       // the file or folder given
  std::string version;                      // torch.__version__: "2.7.1+cu128"
  std::string cuda;                         // "12.8", "" when not a CUDA build
  std::string hip;                          // "6.2.41133-dd7f95766", "" when not a ROCm build
  std::vector<WheelLibraryCode> libraries;  // only those holding GPU code
  std::vector<std::string> warnings;
};

// Whether a path inside a wheel is one of torch's own libraries ("torch/lib/libtorch_cuda.so").
bool IsTorchOwnLibrary(const std::string& path);

// Reads a .whl (zip) file, or a folder holding torch/ (site-packages) or torch/'s own files: host
// paths, read through a FileSystem rooted at "/".
Result<WheelCode> ReadWheelCode(const std::string& path);

}  // namespace gpudoctor
