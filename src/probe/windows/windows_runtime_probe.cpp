// Windows runtimes by file presence and version resource (WindowsSystemSource::FileInfo), folders
// by listing (the FileSystem). Kinds: "hip-runtime" (the driver's amdhip64*.dll in System32),
// "hip-sdk" (an SDK folder: HIP_PATH or Program Files\AMD\ROCm\<version>), "libcuda" (nvcuda.dll),
// "nvml" (nvml.dll), "cuda-toolkit" (CUDA_PATH), "vc-runtime" (the Visual C++ 2015-2022 runtime DLLs in
// System32 that torch's own DLLs load).
#include "probe/windows/windows_runtime_probe.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/strings.h"
#include "knowledge/version.h"

namespace gpudoctor {
namespace {

std::string JoinWinPath(std::string dir, std::string_view name) {
  while (!dir.empty() && (dir.back() == '\\' || dir.back() == '/')) dir.pop_back();
  return dir + "\\" + std::string(name);
}

std::string StripSlashes(std::string dir) {
  while (dir.size() > 3 && (dir.back() == '\\' || dir.back() == '/')) dir.pop_back();
  return dir;
}

bool Seen(const Snapshot& snap, const std::string& kind, const std::string& path) {
  return std::any_of(snap.runtimes.begin(), snap.runtimes.end(), [&](const RuntimeInstall& r) {
    return r.kind == kind && ToLower(r.path) == ToLower(path);
  });
}

void AddFile(const ProbeContext& ctx, Snapshot& snap, const std::string& kind, const std::string& path) {
  snap.looked_at.push_back(path);
  auto info = ctx.windows->FileInfo(path);
  if (!info || Seen(snap, kind, path)) return;
  snap.runtimes.push_back({kind, path, info->version, info->version.empty() ? "" : "file version"});
}

// "C:\Program Files\AMD\ROCm\6.2\" -> "6.2" (the SDK names its folder by release).
std::string VersionFromFolder(const std::string& folder) {
  std::string f = StripSlashes(folder);
  size_t cut = f.find_last_of("\\/");
  std::string last = cut == std::string::npos ? f : f.substr(cut + 1);
  return Version::Parse(last) ? last : std::string();
}

void AddHipSdk(const ProbeContext& ctx, Snapshot& snap, const std::string& folder,
               const std::string& source) {
  std::string root = StripSlashes(folder);
  if (Seen(snap, "hip-sdk", root)) return;
  std::string bin = JoinWinPath(root, "bin");
  snap.looked_at.push_back(bin);
  if (!ctx.fs.IsDir(bin)) return;
  std::string dlls;
  for (const char* dll : {"amdhip64_7.dll", "amdhip64_6.dll", "amdhip64.dll"}) {
    if (ctx.fs.Exists(JoinWinPath(bin, dll))) dlls += (dlls.empty() ? "" : ", ") + std::string(dll);
  }
  std::string version = VersionFromFolder(root);
  snap.runtimes.push_back({"hip-sdk", root, version,
                           (version.empty() ? std::string() : "folder name; ") + source +
                               (dlls.empty() ? "" : "; bin holds " + dlls)});
}

}  // namespace

void ProbeWindowsRuntimes(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.windows) return;
  std::string system32 =
      snap.windows.system_directory.empty() ? "C:\\WINDOWS\\system32" : snap.windows.system_directory;
  // The driver's own HIP runtime: amdhip64_7.dll comes with ROCm 7 era drivers, amdhip64_6.dll with
  // ROCm 6 (ollama warns when only _6 is there: the driver predates ROCm 7).
  for (const char* dll : {"amdhip64_7.dll", "amdhip64_6.dll", "amdhip64.dll"})
    AddFile(ctx, snap, "hip-runtime", JoinWinPath(system32, dll));
  AddFile(ctx, snap, "libcuda", JoinWinPath(system32, "nvcuda.dll"));
  AddFile(ctx, snap, "nvml", JoinWinPath(system32, "nvml.dll"));
  AddFile(ctx, snap, "nvml", "C:\\Program Files\\NVIDIA Corporation\\NVSMI\\nvml.dll");
  for (const char* dll : {"vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll"})
    AddFile(ctx, snap, "vc-runtime", JoinWinPath(system32, dll));

  if (auto hip = ctx.env.Get("HIP_PATH"); hip && !hip->empty()) AddHipSdk(ctx, snap, *hip, "HIP_PATH");
  const std::string rocm_root = "C:\\Program Files\\AMD\\ROCm";
  snap.looked_at.push_back(rocm_root);
  if (auto listing = ctx.fs.ListDir(rocm_root); listing.ok()) {
    for (const auto& name : *listing) {
      if (Version::Parse(name)) AddHipSdk(ctx, snap, JoinWinPath(rocm_root, name), "installed");
    }
  }
  if (auto cuda = ctx.env.Get("CUDA_PATH"); cuda && !cuda->empty()) {
    std::string root = StripSlashes(*cuda);
    std::string version_json = JoinWinPath(root, "version.json");
    snap.looked_at.push_back(version_json);
    if (ctx.fs.IsDir(root)) {
      std::string version;
      if (auto text = ctx.fs.ReadFile(version_json, 64 * 1024); text.ok()) {
        // {"cuda": {"name": "CUDA SDK", "version": "12.6.85"}, ...}
        auto doc = ParseJsonWithinDepth<nlohmann::json>(*text);
        if (doc.is_object() && doc.contains("cuda") && doc["cuda"].is_object() &&
            doc["cuda"].contains("version") && doc["cuda"]["version"].is_string())
          version = doc["cuda"]["version"].get<std::string>();
        if (!Version::Parse(version)) version.clear();
      }
      snap.runtimes.push_back({"cuda-toolkit", root, version, version.empty() ? "" : "version.json"});
    }
  }
}

}  // namespace gpudoctor
