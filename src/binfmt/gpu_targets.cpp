// Finds the GPU sections of a library and merges what the fat binary and offload bundle readers
// say about them into one sorted list of targets.
#include "binfmt/gpu_targets.h"

#include <algorithm>
#include <set>

#include "binfmt/cuda_fatbin.h"
#include "binfmt/offload_bundle.h"
#include "binfmt/section_table.h"
#include "core/strings.h"

namespace gpudoctor {

namespace {

void AddCuda(const CudaFatbinReport& report, GpuCodeTargets& out) {
  // A large library repeats the same few targets in thousands of containers: collect each name once.
  std::set<std::string> cubins(out.cuda_cubins.begin(), out.cuda_cubins.end());
  std::set<std::string> ptx(out.cuda_ptx.begin(), out.cuda_ptx.end());
  std::set<std::string> other(out.cuda_other.begin(), out.cuda_other.end());
  for (const auto& e : report.entries) {
    ++out.cuda_images;
    if (e.compression != CudaCompression::kNone) ++out.cuda_compressed_images;
    switch (e.kind) {
      case CudaImageKind::kCubin:
        cubins.insert(e.Name());
        ++out.cuda_cubin_images[e.Name()];
        break;
      case CudaImageKind::kPtx:
        ptx.insert(e.Name());
        break;
      default:
        other.insert(e.Name());
        break;
    }
  }
  out.cuda_cubins.assign(cubins.begin(), cubins.end());
  out.cuda_ptx.assign(ptx.begin(), ptx.end());
  out.cuda_other.assign(other.begin(), other.end());
  out.warnings.insert(out.warnings.end(), report.warnings.begin(), report.warnings.end());
}

void AddBundles(const OffloadBundleReport& report, GpuCodeTargets& out) {
  std::set<std::string> unknown;
  std::set<std::string> amd(out.amd.begin(), out.amd.end());
  for (const auto& bundle : report.bundles) {
    ++out.hip_bundles;
    if (bundle.compressed) ++out.hip_compressed_bundles;
    if (!bundle.entries_read) ++out.hip_unread_bundles;
    for (const auto& entry : bundle.entries) {
      if (entry.id.IsHost()) continue;
      if (entry.id.IsAmdGpu() && !entry.id.target_id.empty()) {
        amd.insert(entry.id.target_id);
      } else {
        unknown.insert(entry.id.id);
      }
    }
  }
  out.amd.assign(amd.begin(), amd.end());
  for (const auto& id : unknown)
    out.warnings.push_back("bundle entry " + id + " is not an AMD GPU target; not listed");
  out.warnings.insert(out.warnings.end(), report.warnings.begin(), report.warnings.end());
}

void ReadCudaSection(const ByteSource& section, GpuCodeTargets& out) {
  auto report = ReadCudaFatbins(section);
  if (report.ok()) {
    AddCuda(*report, out);
  } else {
    out.warnings.push_back(report.error().message);
  }
}

void ReadHipSection(const ByteSource& section, const ZstdDecoder& zstd, GpuCodeTargets& out) {
  auto report = ReadOffloadBundles(section, zstd);
  if (report.ok()) {
    AddBundles(*report, out);
  } else {
    out.warnings.push_back(report.error().message);
  }
}

void Finish(GpuCodeTargets& out) {
  SortArchNames(out.cuda_cubins);
  SortArchNames(out.cuda_ptx);
  SortArchNames(out.cuda_other);
  std::sort(out.amd.begin(), out.amd.end());
  out.amd.erase(std::unique(out.amd.begin(), out.amd.end()), out.amd.end());
  if (out.hip_unread_bundles > 0)
    out.warnings.push_back(std::to_string(out.hip_unread_bundles) + " of " + std::to_string(out.hip_bundles) +
                           " offload bundles could not be read; the AMD target list may be incomplete");
}

std::pair<uint64_t, std::string> ArchKey(const std::string& name) {
  size_t underscore = name.rfind('_');
  std::string_view tail = underscore == std::string::npos ? std::string_view(name)
                                                          : std::string_view(name).substr(underscore + 1);
  size_t digits = 0;
  while (digits < tail.size() && tail[digits] >= '0' && tail[digits] <= '9') ++digits;
  uint64_t number = ParseU64(tail.substr(0, digits)).value_or(UINT64_MAX);
  return {number, std::string(tail.substr(digits))};
}

}  // namespace

void SortArchNames(std::vector<std::string>& names) {
  std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    auto ka = ArchKey(a);
    auto kb = ArchKey(b);
    return ka != kb ? ka < kb : a < b;
  });
  names.erase(std::unique(names.begin(), names.end()), names.end());
}

Result<GpuCodeTargets> ReadGpuTargets(const ByteSource& file) {
  return ReadGpuTargets(file, ZstdDecoder::Load());
}

Result<GpuCodeTargets> ReadGpuTargets(const ByteSource& file, const ZstdDecoder& zstd) {
  GpuCodeTargets out;
  auto head = file.ReadUpTo(0, 32);
  if (!head.ok()) return head.error();
  LeBytes magic(*head);
  // Bare containers, as extracted with objcopy --dump-section.
  if (magic.U32(0) == kCudaFatbinMagic) {
    out.container = "CUDA fat binary";
    ReadCudaSection(file, out);
    Finish(out);
    return out;
  }
  if (magic.StartsWithAt(0, kBundleMagic) || magic.StartsWithAt(0, kCompressedBundleMagic)) {
    out.container = "clang offload bundle";
    ReadHipSection(file, zstd, out);
    Finish(out);
    return out;
  }

  auto table = ReadSectionTable(file);
  if (!table.ok()) return table.error();
  out.container = table->description;
  out.warnings = table->warnings;
  for (const auto& section : table->sections) {
    GpuSectionKind kind = ClassifySection(section.name);
    if (kind == GpuSectionKind::kNone) continue;
    out.gpu_sections.push_back(section.name + " (" + std::to_string(section.size) + " bytes)");
    if (!HoldsDeviceCode(kind) || !section.has_file_data || section.size == 0) continue;
    WindowByteSource bytes(file, section.offset, section.size, file.Name() + " section " + section.name);
    if (kind == GpuSectionKind::kHipFatbin) {
      ReadHipSection(bytes, zstd, out);
    } else {
      ReadCudaSection(bytes, out);
    }
  }
  Finish(out);
  return out;
}

}  // namespace gpudoctor
