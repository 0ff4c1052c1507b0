// Section names that hold GPU code, and the choice between the ELF and PE readers.
#include "binfmt/section_table.h"

#include <array>
#include <utility>

namespace gpudoctor {

namespace {

// Full names first, then the 8-byte forms that PE images keep (see section_table.h).
constexpr std::array<std::pair<std::string_view, GpuSectionKind>, 10> kGpuSections = {{
    {".nv_fatbin", GpuSectionKind::kCudaFatbin},
    {"__nv_relfatbin", GpuSectionKind::kCudaRelocatableFatbin},
    {".nvFatBinSegment", GpuSectionKind::kCudaWrapper},
    {".hip_fatbin", GpuSectionKind::kHipFatbin},
    {".hipFatBinSegment", GpuSectionKind::kHipWrapper},
    {".nv_fatb", GpuSectionKind::kCudaFatbin},
    {"__nv_rel", GpuSectionKind::kCudaRelocatableFatbin},
    {".nvFatBi", GpuSectionKind::kCudaWrapper},
    {".hip_fat", GpuSectionKind::kHipFatbin},
    {".hipFatB", GpuSectionKind::kHipWrapper},
}};

}  // namespace

const BinarySection* SectionTable::Find(std::string_view name) const {
  for (const auto& s : sections) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

GpuSectionKind ClassifySection(std::string_view name) {
  for (const auto& [section_name, kind] : kGpuSections) {
    if (name == section_name) return kind;
  }
  return GpuSectionKind::kNone;
}

bool HoldsDeviceCode(GpuSectionKind kind) {
  return kind == GpuSectionKind::kCudaFatbin || kind == GpuSectionKind::kCudaRelocatableFatbin ||
         kind == GpuSectionKind::kHipFatbin;
}

bool LooksLikeElf(const ByteSource& file) {
  auto head = file.ReadUpTo(0, 4);
  return head.ok() && LeBytes(*head).StartsWithAt(0,
                                                  "\x7f"
                                                  "ELF");
}

bool LooksLikePe(const ByteSource& file) {
  auto head = file.ReadUpTo(0, 2);
  return head.ok() && LeBytes(*head).StartsWithAt(0, "MZ");
}

Result<SectionTable> ReadSectionTable(const ByteSource& file) {
  if (LooksLikeElf(file)) return ReadElfSections(file);
  if (LooksLikePe(file)) return ReadPeSections(file);
  return UserError(file.Name() + " is neither an ELF file (Linux library) nor a PE file (Windows DLL)",
                   "point gpudoctor at a shared library such as libtorch_cuda.so or torch_cuda.dll");
}

}  // namespace gpudoctor
