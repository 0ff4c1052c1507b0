// Reads torch's GPU libraries and kernel folders (torch_gpu_code.h). A library that cannot be opened
// or parsed becomes a warning on its GpuCodeLibrary entry, never a failure of the probe.
#include "probe/common/torch_gpu_code.h"

#include <algorithm>
#include <set>

#include "binfmt/byte_source.h"
#include "binfmt/gpu_targets.h"
#include "binfmt/kernel_libraries.h"
#include "core/strings.h"
#include "probe/common/machine_paths.h"

namespace gpudoctor {
namespace {

bool HasSuffixLetter(const std::string& arch) {
  return !arch.empty() && (arch.back() == 'a' || arch.back() == 'f');
}

// gfx900 gfx906 gfx90a gfx942 gfx1030 gfx1100: shorter names are older generations.
bool ByGeneration(const std::string& a, const std::string& b) {
  return a.size() != b.size() ? a.size() < b.size() : a < b;
}

std::string WithoutSuffix(const std::string& arch) {
  return HasSuffixLetter(arch) ? arch.substr(0, arch.size() - 1) : arch;
}

}  // namespace

const std::vector<std::string>& TorchGpuLibraryNames() {
  // libtorch_cuda_cu.so / libtorch_cuda_cpp.so: the split CUDA library of torch 1.x builds.
  static const std::vector<std::string> kNames = {
      "libtorch_cuda.so", "libtorch_hip.so", "libtorch_cuda_cu.so", "libtorch_cuda_cpp.so",
      "torch_cuda.dll",   "torch_hip.dll",   "torch_cuda_cu.dll",   "torch_cuda_cpp.dll"};
  return kNames;
}

void ReadTorchGpuCode(const FileSystem& fs, const std::vector<std::string>& lib_names,
                      const std::vector<std::string>& extra_kernel_folders, TorchInstall& torch) {
  const std::string lib_dir = JoinPath(torch.location, "lib");
  const ZstdDecoder zstd = ZstdDecoder::Load();
  for (const std::string& name : TorchGpuLibraryNames()) {
    if (std::find(lib_names.begin(), lib_names.end(), name) == lib_names.end()) continue;
    GpuCodeLibrary lib;
    lib.path = JoinPath(lib_dir, name);
    auto source = OpenFileByteSource(fs, lib.path);
    if (!source.ok()) {
      lib.warnings.push_back(source.error().message);
    } else if (auto targets = ReadGpuTargets(**source, zstd); !targets.ok()) {
      lib.warnings.push_back(targets.error().message);
    } else {
      lib.cuda_cubins = targets->cuda_cubins;
      lib.cuda_ptx = targets->cuda_ptx;
      for (const auto& [arch, n] : targets->cuda_cubin_images) lib.cuda_cubin_images[arch] = n;
      lib.amd = targets->amd;
      lib.warnings = targets->warnings;
    }
    torch.gpu_code.push_back(std::move(lib));
  }
  std::vector<std::string> folders;
  for (const char* library : {"rocblas", "hipblaslt"}) {
    if (std::find(lib_names.begin(), lib_names.end(), library) != lib_names.end())
      folders.push_back(JoinPath(JoinPath(lib_dir, library), "library"));
  }
  if (folders.empty()) folders = extra_kernel_folders;
  for (const auto& folder : folders) {
    auto listed = ListKernelLibraryTargets(fs, folder);
    if (!listed.ok()) continue;
    KernelLibraryFolder k;
    k.library = std::string(BaseName(ParentPath(folder)));
    k.folder = folder;
    k.gfx = listed->gfx;
    std::sort(k.gfx.begin(), k.gfx.end(), ByGeneration);
    k.files = static_cast<uint32_t>(listed->files_matched);
    torch.kernel_libraries.push_back(std::move(k));
  }
  torch.arch_list = ArchListOf(torch.gpu_code);
}

std::vector<std::string> ArchListOf(const std::vector<GpuCodeLibrary>& code) {
  std::vector<std::string> cubins, ptx;
  std::set<std::string> plain;
  std::vector<std::string> amd;
  for (const auto& lib : code) {
    // Where the cubins were counted, an arch holding fewer than half as many as the library's most
    // common one is a few special kernels (attention, fp8), not a target the whole build was made for.
    uint64_t most = 0;
    for (const auto& [arch, n] : lib.cuda_cubin_images) most = std::max(most, n);
    for (const auto& c : lib.cuda_cubins) {
      auto counted = lib.cuda_cubin_images.find(c);
      if (most > 0 && counted != lib.cuda_cubin_images.end() && counted->second * 2 < most) continue;
      cubins.push_back(c);
      if (!HasSuffixLetter(c)) plain.insert(c);
    }
    for (const auto& p : lib.cuda_ptx)
      if (!HasSuffixLetter(p)) ptx.push_back(p);
    for (const auto& a : lib.amd) amd.push_back(std::string(Split(a, ':')[0]));
  }
  std::vector<std::string> out;
  for (const auto& c : cubins) {
    if (HasSuffixLetter(c) && plain.count(WithoutSuffix(c))) continue;
    out.push_back(c);
  }
  SortArchNames(out);
  SortArchNames(ptx);
  out.insert(out.end(), ptx.begin(), ptx.end());
  std::sort(amd.begin(), amd.end(), ByGeneration);
  amd.erase(std::unique(amd.begin(), amd.end()), amd.end());
  out.insert(out.end(), amd.begin(), amd.end());
  return out;
}

}  // namespace gpudoctor
