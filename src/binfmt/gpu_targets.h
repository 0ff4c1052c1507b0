// The one question the binary readers answer for the rest of gpudoctor: which GPUs can this library
// run on? Lists the CUDA cubins and PTX and the AMD gfx targets compiled into an ELF or PE file.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "binfmt/byte_source.h"
#include "binfmt/zstd_decoder.h"
#include "core/result.h"

namespace gpudoctor {

struct GpuCodeTargets {
  std::string container;                  // "ELF64 little-endian shared object, x86-64", "CUDA fat binary"
  std::vector<std::string> gpu_sections;  // GPU sections found, with their sizes: ".nv_fatbin (7528 bytes)"
  std::vector<std::string> cuda_cubins;   // "sm_75", "sm_90a", by arch
  std::vector<std::string> cuda_ptx;      // "compute_90"
  // How many cubins each arch has: a library's main targets have one per compiled file, an arch that
  // only a few special kernels were built for (torch's "sm_90a" attention kernels) has a few.
  std::map<std::string, size_t> cuda_cubin_images;
  std::vector<std::string> cuda_other;  // "lto_90" and kinds not known
  std::vector<std::string> amd;         // target IDs: "gfx1030", "gfx90a:xnack-"
  size_t cuda_images = 0;
  size_t cuda_compressed_images = 0;
  size_t hip_bundles = 0;
  size_t hip_compressed_bundles = 0;
  size_t hip_unread_bundles = 0;  // compressed bundles whose targets could not be read
  std::vector<std::string> warnings;

  bool HasGpuCode() const {
    return !cuda_cubins.empty() || !cuda_ptx.empty() || !cuda_other.empty() || !amd.empty();
  }
};

// Reads an ELF or PE library (or a bare CUDA fat binary or offload bundle) through the section
// table and the GPU sections' headers. An Error only when the file is none of these or its section
// table cannot be read; a damaged GPU section gives warnings and whatever could be read.
Result<GpuCodeTargets> ReadGpuTargets(const ByteSource& file, const ZstdDecoder& zstd);
// The same with this build's zstd decoder (ZstdDecoder::Load()).
Result<GpuCodeTargets> ReadGpuTargets(const ByteSource& file);

// Sorts "sm_90", "sm_75", "sm_100f" by arch number, then suffix; removes duplicates.
void SortArchNames(std::vector<std::string>& names);

}  // namespace gpudoctor
