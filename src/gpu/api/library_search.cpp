// The library search order (see library_search.h): site-packages discovery, framework folders, SDK roots,
// then the system loader. Everything is read through a FileSystem, so tests build fake trees under a
// temporary root.
#include "gpu/api/library_search.h"

#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "gpu/api/amd_smi_api.h"
#include "gpu/api/cublas_api.h"
#include "gpu/api/cuda_driver_api.h"
#include "gpu/api/hip_api.h"
#include "gpu/api/hiprtc_api.h"
#include "gpu/api/nvml_api.h"
#include "gpu/api/nvrtc_api.h"
#include "gpu/api/rocblas_api.h"
#include "gpu/api/rocm_smi_api.h"

namespace gpudoctor {
namespace {

void AddUnique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

// "/env" -> its site-packages folders: lib/python3*/site-packages (POSIX venv, conda), Lib/site-packages
// (Windows), and lib/python3*/dist-packages (Debian's system Python).
void AddEnvironmentRoot(const FileSystem& fs, const std::string& root, std::vector<std::string>& out) {
  for (const char* lib : {"lib", "lib64"}) {
    std::string lib_dir = JoinPath(root, lib);
    auto entries = fs.ListDir(lib_dir);
    if (!entries.ok()) continue;
    for (const auto& name : *entries) {
      if (!StartsWith(name, "python3")) continue;
      for (const char* leaf : {"site-packages", "dist-packages"}) {
        std::string dir = JoinPath(JoinPath(lib_dir, name), leaf);
        if (fs.IsDir(dir)) AddUnique(out, dir);
      }
    }
  }
  std::string windows_dir = JoinPath(root, "Lib/site-packages");
  if (fs.IsDir(windows_dir)) AddUnique(out, windows_dir);
  // Debian's system interpreter keeps its packages in /usr/lib/python3/dist-packages.
  std::string debian_dir = JoinPath(root, "lib/python3/dist-packages");
  if (fs.IsDir(debian_dir)) AddUnique(out, debian_dir);
}

// "/usr/bin", "C:\\x", "C:/x", "\\\\server\\share": independent of the current folder.
bool IsAbsolutePath(const std::string& p) {
  if (!p.empty() && p[0] == '/') return true;
  if (p.size() >= 3 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == ':' &&
      (p[2] == '\\' || p[2] == '/'))
    return true;
  return p.size() >= 2 && p[0] == '\\' && p[1] == '\\';
}

std::string ParentDir(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && (p.back() == '/' || p.back() == '\\')) p.pop_back();
  size_t cut = p.find_last_of("/\\");
  if (cut == std::string::npos) return {};
  return cut == 0 ? "/" : p.substr(0, cut);
}

// `pattern` with at most one '*' component, expanded under `base`.
std::vector<std::string> ExpandDir(const FileSystem& fs, const std::string& base,
                                   const std::string& pattern) {
  size_t star = pattern.find('*');
  if (star == std::string::npos) return {JoinPath(base, pattern)};
  std::string head = pattern.substr(0, star);
  std::string tail = pattern.substr(star + 1);
  while (!head.empty() && head.back() == '/') head.pop_back();
  while (!tail.empty() && tail.front() == '/') tail.erase(tail.begin());
  std::string parent = head.empty() ? base : JoinPath(base, head);
  std::vector<std::string> out;
  auto entries = fs.ListDir(parent);
  if (!entries.ok()) return out;
  for (const auto& name : *entries) out.push_back(JoinPath(JoinPath(parent, name), tail));
  return out;
}

void AddFilesIn(const FileSystem& fs, const std::string& dir, const LibrarySpec& spec, LibraryOrigin origin,
                const std::string& where, std::vector<LibraryCandidate>& out) {
  if (!fs.IsDir(dir)) return;
  for (const auto& name : spec.file_names) {
    std::string path = JoinPath(dir, name);
    auto st = fs.Stat(path);
    if (!st.ok() || st->is_dir) continue;
    bool seen =
        std::any_of(out.begin(), out.end(), [&](const LibraryCandidate& c) { return c.path == path; });
    if (!seen) out.push_back({path, origin, where});
  }
}

}  // namespace

const char* ToString(LibraryOrigin origin) {
  switch (origin) {
    case LibraryOrigin::kFramework:
      return "framework";
    case LibraryOrigin::kSdk:
      return "sdk";
    case LibraryOrigin::kSystem:
      return "system";
  }
  return "system";
}

std::vector<std::string> FindSitePackages(const FileSystem& fs, const Environment& env) {
  std::vector<std::string> out;
  // Every root comes from a variable and must be absolute: a relative one ("venv", "." in VIRTUAL_ENV,
  // CONDA_PREFIX or HOME) names the current folder's contents, never a place to load a library from.
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"}) {
    if (auto root = env.Get(var); root && IsAbsolutePath(*root)) AddEnvironmentRoot(fs, *root, out);
  }
  // An environment whose bin/ is on PATH (activated, or the interpreter the user runs by default).
  // Windows spells the variable "Path". Relative entries ("." or "Scripts") name the current folder's
  // contents: never a place to load a library from, so they are skipped.
  auto path = env.Get("PATH");
  if (!path) path = env.Get("Path");
  if (path) {
    char sep = path->find(';') != std::string::npos ? ';' : ':';
    for (auto entry : Split(*path, sep)) {
      std::string dir(Trim(entry));
      if (dir.empty() || !IsAbsolutePath(dir)) continue;
      std::string root = ParentDir(dir);
      if (root.empty()) continue;
      if (fs.Exists(JoinPath(root, "pyvenv.cfg")) || fs.IsDir(JoinPath(root, "conda-meta")))
        AddEnvironmentRoot(fs, root, out);
    }
  }
  if (auto home = env.Get("HOME"); home && IsAbsolutePath(*home))
    AddEnvironmentRoot(fs, JoinPath(*home, ".local"), out);
  for (const char* root : {"/opt/conda", "/usr/local", "/usr"}) AddEnvironmentRoot(fs, root, out);
  return out;
}

std::vector<LibraryCandidate> SearchLibrary(const FileSystem& fs, const Environment& env,
                                            const std::vector<std::string>& site_packages,
                                            const LibrarySpec& spec) {
  std::vector<LibraryCandidate> out;
  for (const auto& sp : site_packages) {
    for (const auto& pattern : spec.framework_dirs) {
      for (const auto& dir : ExpandDir(fs, sp, pattern)) {
        std::string rel = dir.size() > sp.size() ? dir.substr(sp.size() + 1) : dir;
        AddFilesIn(fs, dir, spec, LibraryOrigin::kFramework, rel + " of " + sp, out);
      }
    }
  }
  for (const auto& var : spec.sdk_variables) {
    auto root = env.Get(var);
    if (!root || !IsAbsolutePath(*root)) continue;  // ROCM_PATH=. is the current folder: never searched
    for (const auto& sub : spec.sdk_dirs)
      AddFilesIn(fs, JoinPath(*root, sub), spec, LibraryOrigin::kSdk, var + "=" + *root, out);
  }
  for (const auto& name : spec.file_names) out.push_back({name, LibraryOrigin::kSystem, "system loader"});
  return out;
}

std::vector<std::string> CandidatePaths(const std::vector<LibraryCandidate>& candidates) {
  std::vector<std::string> out;
  out.reserve(candidates.size());
  for (const auto& c : candidates) out.push_back(c.path);
  return out;
}

const LibraryCandidate* LoadedCandidate(const std::vector<LibraryCandidate>& candidates,
                                        const LibraryLoadReport& report) {
  if (report.loaded_path.empty() || report.tried.empty()) return nullptr;
  for (const auto& c : candidates)
    if (c.path == report.tried.back()) return &c;
  return nullptr;
}

// ---- The vendor libraries. Framework folders: PyTorch keeps its ROCm libraries in torch/lib; NVIDIA's
// wheels put theirs in nvidia/<component>/lib (CUDA 12) or nvidia/cu13/lib (CUDA 13); the ROCm SDK wheels
// (rocm-sdk-core, rocm-sdk-libraries-*) in _rocm_sdk_core/lib and _rocm_sdk_libraries_*/lib.

namespace {
const std::vector<std::string> kNvidiaWheelDirs = {"nvidia/*/lib", "nvidia/*/bin", "torch/lib"};
const std::vector<std::string> kRocmWheelDirs = {"torch/lib", "_rocm_sdk_core/lib", "_rocm_sdk_core/bin",
                                                 "_rocm_sdk_libraries_*/lib", "_rocm_sdk_libraries_*/bin"};
const std::vector<std::string> kCudaSdkDirs = {"lib64", "lib", "bin", "targets/x86_64-linux/lib"};
const std::vector<std::string> kRocmSdkDirs = {"lib", "lib64", "bin"};
}  // namespace

LibrarySpec CudaDriverLibrarySpec() {
  // The driver belongs to the kernel module's release: never a wheel's or a toolkit's copy (the toolkit's
  // lib64/stubs/libcuda.so is a link-time stub that fails at run time).
  return {CudaDriverLibraryCandidates(), {}, {}, {}};
}
LibrarySpec NvrtcLibrarySpec() {
  return {NvrtcLibraryNames(), kNvidiaWheelDirs, {"CUDA_PATH", "CUDA_HOME"}, kCudaSdkDirs};
}
LibrarySpec CublasLibrarySpec() {
  return {CublasLibraryNames(), kNvidiaWheelDirs, {"CUDA_PATH", "CUDA_HOME"}, kCudaSdkDirs};
}
LibrarySpec NvmlLibrarySpec() {
  return {NvmlLibraryCandidates(), {}, {}, {}};
}
LibrarySpec HipLibrarySpec() {
  return {HipLibraryNames(), kRocmWheelDirs, {"ROCM_PATH", "HIP_PATH"}, kRocmSdkDirs};
}
LibrarySpec HiprtcLibrarySpec() {
  return {HiprtcLibraryNames(), kRocmWheelDirs, {"ROCM_PATH", "HIP_PATH"}, kRocmSdkDirs};
}
LibrarySpec RocblasLibrarySpec() {
  return {RocblasLibraryNames(), kRocmWheelDirs, {"ROCM_PATH", "HIP_PATH"}, kRocmSdkDirs};
}
LibrarySpec RocmSmiLibrarySpec() {
  return {RocmSmiLibraryNames(), kRocmWheelDirs, {"ROCM_PATH"}, kRocmSdkDirs};
}
LibrarySpec AmdSmiLibrarySpec() {
  return {AmdSmiLibraryNames(), kRocmWheelDirs, {"ROCM_PATH"}, kRocmSdkDirs};
}

}  // namespace gpudoctor
