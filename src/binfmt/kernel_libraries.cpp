// Reads the gfx targets of rocBLAS / hipBLASLt kernel folders from their file names alone.
#include "binfmt/kernel_libraries.h"

#include <algorithm>
#include <array>

#include "core/strings.h"

namespace gpudoctor {

namespace {

constexpr std::array<std::string_view, 4> kTensileExtensions = {".dat", ".co", ".hsaco", ".yaml"};

bool IsTargetChar(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z');
}

// "gfx90a" from the text starting at "gfx"; "" unless at least one digit follows "gfx".
std::string TakeTarget(std::string_view from_gfx) {
  size_t end = 3;
  while (end < from_gfx.size() && IsTargetChar(from_gfx[end])) ++end;
  if (end == 3 || from_gfx[3] < '0' || from_gfx[3] > '9') return "";
  return std::string(from_gfx.substr(0, end));
}

}  // namespace

std::string KernelFileTarget(std::string_view name) {
  if (StartsWith(name, "TensileLibrary")) {
    bool known_ext = std::any_of(kTensileExtensions.begin(), kTensileExtensions.end(),
                                 [&](std::string_view ext) { return EndsWith(name, ext); });
    if (!known_ext) return "";
    // The last "_gfx" names the target ("TensileLibrary_Type_..._gfx1030.co").
    size_t at = name.rfind("_gfx");
    return at == std::string_view::npos ? "" : TakeTarget(name.substr(at + 1));
  }
  if (StartsWith(name, "Kernels.so-") && EndsWith(name, ".hsaco")) {
    size_t at = name.find("-gfx");
    return at == std::string_view::npos ? "" : TakeTarget(name.substr(at + 1));
  }
  return "";
}

Result<KernelLibraryTargets> ListKernelLibraryTargets(const FileSystem& fs, std::string_view folder) {
  auto names = fs.ListDir(folder);
  if (!names.ok()) return names.error().With("listing the kernel library folder " + std::string(folder));
  KernelLibraryTargets out;
  out.folder = std::string(folder);
  for (const auto& name : *names) {
    std::string target = KernelFileTarget(name);
    if (target.empty()) continue;
    ++out.files_matched;
    out.gfx.push_back(std::move(target));
  }
  std::sort(out.gfx.begin(), out.gfx.end());
  out.gfx.erase(std::unique(out.gfx.begin(), out.gfx.end()), out.gfx.end());
  return out;
}

}  // namespace gpudoctor
