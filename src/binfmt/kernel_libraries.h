// rocBLAS and hipBLASLt keep most of their GPU kernels outside the library, in a folder of Tensile
// files named per target (TensileLibrary_lazy_gfx90a.dat, TensileLibrary_..._gfx1030.co); which
// gfx targets have such files decides whether matrix multiplies work on a GPU.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "platform/filesystem.h"

namespace gpudoctor {

struct KernelLibraryTargets {
  std::string folder;
  std::vector<std::string> gfx;  // sorted, unique: "gfx1030", "gfx90a"
  size_t files_matched = 0;
};

// The gfx target named in a kernel file name, or "" when the name is not one:
//   TensileLibrary*_gfxNNN[_-.]*  with .dat, .co, .hsaco or .yaml     (rocBLAS, hipBLASLt)
//   Kernels.so-NNN-gfxNNN[-feature]*.hsaco                              (rocBLAS, older releases)
// Feature suffixes ("gfx90a-xnack-") are not part of the returned name.
std::string KernelFileTarget(std::string_view file_name);

// Lists the kernel files in `folder` (a machine path, read through `fs`, so a sysroot works).
// For example torch/lib/rocblas/library or /opt/rocm/lib/rocblas/library.
Result<KernelLibraryTargets> ListKernelLibraryTargets(const FileSystem& fs, std::string_view folder);

}  // namespace gpudoctor
