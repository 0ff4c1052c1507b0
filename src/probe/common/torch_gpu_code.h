// The GPU code inside an installed PyTorch, read from its libraries' section tables and GPU section
// headers (binfmt/gpu_targets.h): CUDA cubins and PTX of libtorch_cuda.so, AMD targets of
// libtorch_hip.so (torch_cuda.dll / torch_hip.dll in Windows layouts), and the gfx targets of the
// rocBLAS / hipBLASLt kernel folders beside them. No library is loaded; only headers are read.
#pragma once

#include <string>
#include <vector>

#include "platform/filesystem.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// The library files, in torch/lib, that hold torch's GPU kernels (the first one present of each kind).
const std::vector<std::string>& TorchGpuLibraryNames();

// Fills torch.gpu_code, torch.kernel_libraries and torch.arch_list. `lib_names` is the listing of
// torch/lib (empty when there is none); `extra_kernel_folders` are rocBLAS/hipBLASLt folders found
// elsewhere in the environment (the ROCm SDK wheels'), used when torch/lib has none.
void ReadTorchGpuCode(const FileSystem& fs, const std::vector<std::string>& lib_names,
                      const std::vector<std::string>& extra_kernel_folders, TorchInstall& torch);

// torch.cuda.get_arch_list() as it would read: the plain cubins ("sm_90"; an "sm_90a" or "sm_100f"
// only when its plain sibling is absent; where cubins were counted, only the archs with at least half
// as many as the most common one, since the build's targets hold one per compiled file and the archs
// a few special kernels were added for hold a few), then "compute_XX" for each PTX, then the AMD processors
// ("gfx90a" for "gfx90a:xnack-"), each once.
std::vector<std::string> ArchListOf(const std::vector<GpuCodeLibrary>& code);

}  // namespace gpudoctor
