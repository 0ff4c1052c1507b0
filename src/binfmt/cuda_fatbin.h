// CUDA fat binaries (the .nv_fatbin section): which cubins (sm_XX) and PTX (compute_XX) a library
// carries, read from the container and entry headers without touching or decompressing the code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "binfmt/byte_source.h"
#include "core/result.h"

namespace gpudoctor {

// Container header (16 bytes, little-endian): u32 magic 0xBA55ED50, u16 version (1), u16 header
// size (16), u64 size of the entries that follow. Containers from each translation unit follow one
// another in the section. Entry header (checked on files from nvcc 13, see tests/fixtures/binaries):
//   0  u16 kind (1 PTX, 2 ELF cubin, 8 LTO IR)     2 u16 (0x0101)   4 u32 header size
//   8  u64 payload size (padded; the payload follows the header)
//   16 u32 compressed size    20 u32 offset of an options area    24 u16 minor, u16 major version
//   28 u32 arch (75 = sm_75)  32 u32 name offset, 36 u32 name size
//   40 u64 flags              56 u64 uncompressed size (0 when not compressed)
constexpr uint32_t kCudaFatbinMagic = 0xBA55ED50;

// Entry flags seen in nvcc 13 output.
constexpr uint64_t kCudaFlag64Bit = 0x1;
constexpr uint64_t kCudaFlagDebug = 0x2;
constexpr uint64_t kCudaFlagLinuxHost = 0x10;
constexpr uint64_t kCudaFlagLz4 = 0x2000;               // -compress-mode=speed
constexpr uint64_t kCudaFlagZstd = 0x8000;              // default and -compress-mode=size (CUDA 13)
constexpr uint64_t kCudaFlagArchSpecific = 0x100000;    // sm_90a, compute_120a
constexpr uint64_t kCudaFlagFamilySpecific = 0x200000;  // sm_100f, compute_100f

enum class CudaImageKind { kPtx, kCubin, kLtoIr, kOther };
enum class CudaCompression { kNone, kLz4, kZstd, kUnknown };

struct CudaFatbinEntry {
  CudaImageKind kind = CudaImageKind::kOther;
  uint16_t raw_kind = 0;
  uint32_t arch = 0;  // 90 for sm_90
  uint64_t flags = 0;
  uint16_t version_major = 0;  // PTX ISA version for PTX (9.0 from CUDA 13)
  uint16_t version_minor = 0;
  CudaCompression compression = CudaCompression::kNone;
  uint64_t payload_size = 0;
  uint64_t uncompressed_size = 0;

  // "sm_90a", "compute_100f", "lto_90", "kind7_90".
  std::string Name() const;
};

struct CudaFatbinReport {
  size_t containers = 0;
  std::vector<CudaFatbinEntry> entries;
  std::vector<std::string> warnings;
};

// Walks every container in `section` (the bytes of .nv_fatbin or __nv_relfatbin). An Error when the
// section does not start with a fat binary; later damage ends the walk with a warning.
Result<CudaFatbinReport> ReadCudaFatbins(const ByteSource& section);

std::string CompressionName(CudaCompression c);

}  // namespace gpudoctor
