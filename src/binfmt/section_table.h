// The section table of a library (ELF on Linux, PE/COFF on Windows) and the names under which
// compilers store GPU code in it: where a framework's compiled kernels live.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "binfmt/byte_source.h"
#include "core/result.h"

namespace gpudoctor {

enum class BinaryFormat { kElf, kPe };

struct BinarySection {
  std::string name;
  uint64_t offset = 0;  // in the file
  uint64_t size = 0;    // bytes in the file (0 for sections without file data, such as .bss)
  bool has_file_data = true;
};

struct SectionTable {
  BinaryFormat format = BinaryFormat::kElf;
  std::string description;  // "ELF64 little-endian shared object, x86-64"
  std::vector<BinarySection> sections;
  std::vector<std::string> warnings;

  const BinarySection* Find(std::string_view name) const;
};

// What a section holds, by its name.
//   ELF (names from CUDA's fatbinary_section.h and clang's HIP code generation, seen in the
//   fixtures built by tests/fixtures/binaries/build.sh):
//     .nv_fatbin        CUDA fat binary containers        __nv_relfatbin  fat binaries for -rdc linking
//     .nvFatBinSegment  CUDA wrapper (pointers, no code)   .hip_fatbin     clang offload bundles
//     .hipFatBinSegment HIP wrapper (pointers, no code)
//   PE images: link.exe and lld-link keep at most 8 bytes of a name, so the same sections appear as
//   .nv_fatb, __nv_rel, .nvFatBi, .hip_fat, .hipFatB (seen in hip_gfx1100_gfx906_msvc.dll, linked by
//   lld-link from clang's x86_64-pc-windows-msvc output); GNU ld can keep the full names through the
//   COFF string table (fatbins_mingw.dll), so both spellings are recognised.
enum class GpuSectionKind {
  kNone,
  kCudaFatbin,
  kCudaRelocatableFatbin,
  kCudaWrapper,
  kHipFatbin,
  kHipWrapper,
};

GpuSectionKind ClassifySection(std::string_view name);
// True for the kinds that hold device code (fat binaries or offload bundles).
bool HoldsDeviceCode(GpuSectionKind kind);

// Reads the section table of an ELF or PE file, chosen by its first bytes.
Result<SectionTable> ReadSectionTable(const ByteSource& file);

// The readers behind it (elf_reader.cpp, pe_reader.cpp).
Result<SectionTable> ReadElfSections(const ByteSource& file);
Result<SectionTable> ReadPeSections(const ByteSource& file);

bool LooksLikeElf(const ByteSource& file);
bool LooksLikePe(const ByteSource& file);

}  // namespace gpudoctor
