// Finds the GPU runtimes and toolkits installed on disk — ROCm trees, HIP runtime libraries, CUDA toolkits,
// libcuda and NVML — from directory listings and small version files only, never by walking whole trees.
#include "probe/common/runtime_probe.h"

#include <algorithm>
#include <array>
#include <exception>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/json_depth.h"
#include "core/strings.h"
#include "probe/linux/procfs_parse.h"

namespace gpudoctor {
namespace {

// Where distributions put shared libraries (Debian multiarch, Fedora/RHEL lib64, the rest).
constexpr std::array<const char*, 4> kSystemLibraryDirs = {"/usr/lib/x86_64-linux-gnu", "/usr/lib64",
                                                           "/usr/lib", "/usr/lib/aarch64-linux-gnu"};
// WSL2: the Windows driver's libcuda and NVML, mapped into the distribution.
constexpr const char* kWslLibraryDir = "/usr/lib/wsl/lib";

// A shared library family recognised by its file name: "<stem>" or "<stem>.<version>".
struct LibraryFamily {
  const char* kind;
  const char* stem;
};
constexpr LibraryFamily kHipRuntime{"hip-runtime", "libamdhip64.so"};
constexpr LibraryFamily kLibCuda{"libcuda", "libcuda.so"};
constexpr LibraryFamily kNvml{"nvml", "libnvidia-ml.so"};

struct LibraryFile {
  std::string name;
  std::string version;  // "" for the bare "<stem>"
};

std::string StripTrailingSlashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

std::string ParentFolder(const std::string& path) {
  size_t pos = path.find_last_of('/');
  return pos == std::string::npos || pos == 0 ? "/" : path.substr(0, pos);
}

// "/usr/local/nvidia/lib/../lib64/./libcuda.so" -> "/usr/local/nvidia/lib64/libcuda.so" (lexically).
std::string LexicallyNormal(std::string_view path) {
  std::vector<std::string_view> parts;
  for (auto part : Split(path, '/')) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (auto part : parts) out += "/" + std::string(part);
  return out.empty() ? "/" : out;
}

// The paths a symbolic link leads through, read through the FileSystem so that a sysroot's absolute
// links stay inside it (/usr/local/cuda -> /etc/alternatives/cuda -> /usr/local/cuda-13.0); at most 8 hops.
std::vector<std::string> LinkChain(const ProbeContext& ctx, std::string path) {
  std::vector<std::string> chain;
  for (int hop = 0; hop < 8; ++hop) {
    auto target = ctx.fs.ReadLink(path);
    if (!target.ok() || target->empty()) break;
    path = LexicallyNormal(target->front() == '/' ? *target : JoinPath(ParentFolder(path), *target));
    chain.push_back(path);
  }
  return chain;
}

// Where a path finally leads (itself when it is no link).
std::string Resolved(const ProbeContext& ctx, const std::string& path) {
  auto chain = LinkChain(ctx, path);
  return chain.empty() ? path : chain.back();
}

// "580.159.03": digits separated by single dots, as shared library names carry them.
bool IsDottedNumber(std::string_view s) {
  if (s.empty() || s.size() > 64 || s.front() == '.' || s.back() == '.') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.' && s[i - 1] == '.') return false;
    if (s[i] != '.' && (s[i] < '0' || s[i] > '9')) return false;
  }
  return true;
}

// "libcuda.so.580.159.03" with stem "libcuda.so" -> "580.159.03"; "libcuda.so" -> ""; other names -> nullopt.
std::optional<std::string> SoNameVersion(std::string_view file, std::string_view stem) {
  if (!StartsWith(file, stem)) return std::nullopt;
  std::string_view rest = file.substr(stem.size());
  if (rest.empty()) return std::string();
  if (rest.front() != '.' || !IsDottedNumber(rest.substr(1))) return std::nullopt;
  return std::string(rest.substr(1));
}

size_t Components(const std::string& version) {
  return version.empty() ? 0 : Split(version, '.').size();
}

// One install usually appears as several names (libcuda.so -> .so.1 -> .so.580.159.03): keep the
// real files, dropping links to siblings and versions that a more precise sibling extends.
std::vector<LibraryFile> DropAliases(const ProbeContext& ctx, const std::string& dir,
                                     std::vector<LibraryFile> files) {
  std::set<std::string> names;
  for (const auto& f : files) names.insert(f.name);
  size_t most_components = 0;
  for (const auto& f : files) most_components = std::max(most_components, Components(f.version));
  std::vector<LibraryFile> kept;
  for (const auto& f : files) {
    auto target = ctx.fs.ReadLink(JoinPath(dir, f.name));
    if (target.ok() && names.count(std::string(BaseName(*target))) &&
        std::string(BaseName(*target)) != f.name)
      continue;
    bool extended = false;
    for (const auto& other : files) {
      if (&other != &f && StartsWith(other.version, f.version + ".")) extended = true;
    }
    if (f.version.empty() && files.size() > 1) extended = true;
    // The soname's lone major ("libcuda.so.1") says nothing once a full version sits beside it.
    if (Components(f.version) == 1 && most_components > 1) extended = true;
    if (!extended) kept.push_back(f);
  }
  return kept;
}

void ScanLibraryFolder(const ProbeContext& ctx, Snapshot& snap, const std::string& folder,
                       const std::vector<LibraryFamily>& families, const std::string& version_source) {
  // Listed where it leads, so a folder reached by two names (lib -> lib64) is reported once.
  const std::string dir = Resolved(ctx, folder);
  if (!ctx.fs.IsDir(dir)) return;
  snap.looked_at.push_back(dir + " (listing)");
  auto listing = ctx.fs.ListDir(dir);
  if (!listing.ok()) {
    snap.warnings.push_back(listing.error().message);
    return;
  }
  for (const auto& family : families) {
    std::vector<LibraryFile> files;
    for (const auto& name : *listing) {
      if (auto version = SoNameVersion(name, family.stem)) files.push_back({name, *version});
    }
    for (const auto& f : DropAliases(ctx, dir, std::move(files))) {
      std::string path = JoinPath(dir, f.name);
      // A folder may be reached twice (a ROCm tree's lib/ that LD_LIBRARY_PATH names too).
      bool known = std::any_of(snap.runtimes.begin(), snap.runtimes.end(),
                               [&](const RuntimeInstall& r) { return r.path == path; });
      if (known) continue;
      RuntimeInstall r;
      r.kind = family.kind;
      r.path = path;
      if (!version_source.empty()) {
        r.version_source = version_source;
      } else {
        r.version = f.version;
        r.version_source = f.version.empty() ? "" : "file name";
        // A link to another folder (/usr/lib/libcuda.so.1 -> /usr/local/nvidia/lib64/...) names its
        // version at the end of the chain.
        auto chain = LinkChain(ctx, path);
        auto linked = chain.empty() ? std::nullopt : SoNameVersion(BaseName(chain.back()), family.stem);
        if (linked && Components(*linked) > Components(r.version)) {
          r.version = *linked;
          r.version_source = "link target " + chain.back();
        }
      }
      snap.runtimes.push_back(std::move(r));
    }
  }
}

// The first line of a small version file, when it looks like a version; a warning when it does not.
std::optional<std::string> ReadVersionFile(const ProbeContext& ctx, Snapshot& snap, const std::string& path) {
  snap.looked_at.push_back(path);
  if (!ctx.fs.Exists(path)) return std::nullopt;
  auto text = ctx.fs.ReadFile(path, 64 * 1024);
  if (!text.ok()) {
    snap.warnings.push_back(text.error().message);
    return std::nullopt;
  }
  auto lines = SplitLines(*text);
  std::string_view first = lines.empty() ? std::string_view{} : Trim(lines.front());
  if (!LooksLikeVersion(first)) {
    snap.warnings.push_back(path + " does not hold a version");
    return std::nullopt;
  }
  return std::string(first);
}

// "rocm-6.2.4" with prefix "rocm-" -> "6.2.4"; also reads where a link such as /opt/rocm points.
std::optional<std::string> VersionFromFolderName(const ProbeContext& ctx, const std::string& path,
                                                 std::string_view prefix, std::string& source) {
  auto versioned = [&](std::string_view name) {
    return StartsWith(name, prefix) && LooksLikeVersion(name.substr(prefix.size()));
  };
  std::string_view name = BaseName(path);
  if (versioned(name)) {
    source = "folder name";
    return std::string(name.substr(prefix.size()));
  }
  for (const auto& hop : LinkChain(ctx, path)) {
    std::string_view tname = BaseName(hop);
    if (versioned(tname)) {
      source = "link target " + hop;
      return std::string(tname.substr(prefix.size()));
    }
  }
  return std::nullopt;
}

void AddRocmTree(const ProbeContext& ctx, Snapshot& snap, const std::string& path,
                 std::vector<std::string>& lib_dirs) {
  RuntimeInstall r;
  r.kind = "rocm";
  r.path = path;
  if (auto v = ReadVersionFile(ctx, snap, JoinPath(Resolved(ctx, path), ".info/version"))) {
    r.version = *v;
    r.version_source = ".info/version";
  } else if (auto named = VersionFromFolderName(ctx, path, "rocm-", r.version_source)) {
    r.version = *named;
  }
  snap.runtimes.push_back(std::move(r));
  for (const char* sub : {"lib", "lib64"}) lib_dirs.push_back(JoinPath(Resolved(ctx, path), sub));
}

// Folders named by an environment variable, when set: a path that is not a folder is worth a warning.
std::optional<std::string> FolderFromEnv(const ProbeContext& ctx, Snapshot& snap, const char* var) {
  auto value = ctx.env.Get(var);
  if (!value || value->empty()) return std::nullopt;
  std::string path = StripTrailingSlashes(*value);
  snap.looked_at.push_back(std::string("$") + var + " = " + path);
  if (path.front() != '/' || !ctx.fs.IsDir(Resolved(ctx, path))) {
    snap.warnings.push_back(std::string(var) + "=" + *value + " is not a folder");
    return std::nullopt;
  }
  return path;
}

// Entries of `dir` named exactly `name` or starting with `name` + "-", as machine paths.
std::vector<std::string> VersionedFolders(const ProbeContext& ctx, Snapshot& snap, const char* dir,
                                          std::string_view name) {
  std::vector<std::string> out;
  snap.looked_at.push_back(std::string(dir) + " (listing)");
  if (!ctx.fs.IsDir(dir)) return out;
  auto listing = ctx.fs.ListDir(dir);
  if (!listing.ok()) {
    snap.warnings.push_back(listing.error().message);
    return out;
  }
  for (const auto& entry : *listing) {
    if (entry != name && !StartsWith(entry, std::string(name) + "-")) continue;
    std::string path = JoinPath(dir, entry);
    if (ctx.fs.IsDir(Resolved(ctx, path))) out.push_back(path);
  }
  return out;
}

// One install reached by several names (/usr/local/cuda -> /usr/local/cuda-13.0, /opt/rocm ->
// /opt/rocm-6.2.0, CUDA_HOME naming the link): listed once, under the first link's name (the one users
// type and set in CUDA_HOME or ROCM_PATH; its version says which folder it leads to), else the folder's.
std::vector<std::string> OnePerInstall(const ProbeContext& ctx, const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  std::vector<std::string> targets;
  for (const std::string& path : paths) {
    const std::string target = Resolved(ctx, path);
    auto same = std::find(targets.begin(), targets.end(), target);
    if (same == targets.end()) {
      out.push_back(path);
      targets.push_back(target);
    } else if (std::string& kept = out[static_cast<size_t>(same - targets.begin())]; kept == target) {
      kept = path;  // a link to a folder already listed under its own name
    }
  }
  return out;
}

void ProbeRocm(const ProbeContext& ctx, Snapshot& snap) {
  std::vector<std::string> trees = VersionedFolders(ctx, snap, "/opt", "rocm");
  for (const char* var : {"ROCM_PATH", "HIP_PATH"}) {
    auto path = FolderFromEnv(ctx, snap, var);
    if (path && std::find(trees.begin(), trees.end(), *path) == trees.end()) trees.push_back(*path);
  }
  trees = OnePerInstall(ctx, trees);
  std::vector<std::string> lib_dirs;
  for (const auto& tree : trees) AddRocmTree(ctx, snap, tree, lib_dirs);
  for (const auto& dir : lib_dirs) ScanLibraryFolder(ctx, snap, dir, {kHipRuntime}, "");
}

// version.json (CUDA 11.1+): {"cuda": {"name": "CUDA SDK", "version": "12.4.1"}, ...}.
std::optional<std::string> CudaVersionFromJson(std::string_view text) {
  try {
    auto doc = ParseJsonWithinDepth<nlohmann::json>(text);
    if (!doc.is_object()) return std::nullopt;
    auto cuda = doc.find("cuda");
    if (cuda == doc.end() || !cuda->is_object()) return std::nullopt;
    auto version = cuda->find("version");
    if (version == cuda->end() || !version->is_string()) return std::nullopt;
    std::string v = version->get<std::string>();
    if (!LooksLikeVersion(v)) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// version.txt (CUDA 11.0 and older): "CUDA Version 10.2.89".
std::optional<std::string> CudaVersionFromText(std::string_view text) {
  for (auto line : SplitLines(text)) {
    line = Trim(line);
    if (!StartsWith(line, "CUDA Version ")) continue;
    std::string_view v = Trim(line.substr(13));
    if (LooksLikeVersion(v)) return std::string(v);
  }
  return std::nullopt;
}

void AddCudaToolkit(const ProbeContext& ctx, Snapshot& snap, const std::string& path) {
  RuntimeInstall r;
  r.kind = "cuda-toolkit";
  r.path = path;
  struct VersionFile {
    const char* name;
    std::optional<std::string> (*parse)(std::string_view);
  };
  for (VersionFile vf :
       {VersionFile{"version.json", CudaVersionFromJson}, VersionFile{"version.txt", CudaVersionFromText}}) {
    std::string file = JoinPath(Resolved(ctx, path), vf.name);
    snap.looked_at.push_back(file);
    if (!ctx.fs.Exists(file)) continue;
    auto text = ctx.fs.ReadFile(file, 1 << 20);
    if (!text.ok()) {
      snap.warnings.push_back(text.error().message);
      continue;
    }
    if (auto v = vf.parse(*text)) {
      r.version = *v;
      r.version_source = vf.name;
      break;
    }
    snap.warnings.push_back(file + " holds no readable CUDA version");
  }
  if (r.version.empty()) {
    if (auto named = VersionFromFolderName(ctx, path, "cuda-", r.version_source)) r.version = *named;
  }
  snap.runtimes.push_back(std::move(r));
}

void ProbeCudaToolkits(const ProbeContext& ctx, Snapshot& snap) {
  std::vector<std::string> toolkits = VersionedFolders(ctx, snap, "/usr/local", "cuda");
  for (const char* var : {"CUDA_PATH", "CUDA_HOME"}) {
    auto path = FolderFromEnv(ctx, snap, var);
    if (path && std::find(toolkits.begin(), toolkits.end(), *path) == toolkits.end())
      toolkits.push_back(*path);
  }
  for (const auto& path : OnePerInstall(ctx, toolkits)) AddCudaToolkit(ctx, snap, path);
}

}  // namespace

// The system folders, then each absolute LD_LIBRARY_PATH entry (where containers often mount the driver's
// libraries, e.g. /usr/local/nvidia/lib64), each folder once.
std::vector<std::string> LibrarySearchFolders(const ProbeContext& ctx) {
  std::vector<std::string> out(kSystemLibraryDirs.begin(), kSystemLibraryDirs.end());
  const std::string search_path = ctx.env.Get("LD_LIBRARY_PATH").value_or("");
  for (auto entry : Split(search_path, ':')) {
    std::string dir = StripTrailingSlashes(std::string(Trim(entry)));
    if (dir.empty() || dir.front() != '/' || dir == kWslLibraryDir) continue;
    if (std::find(out.begin(), out.end(), dir) == out.end()) out.push_back(dir);
  }
  return out;
}

void ProbeRuntimes(const ProbeContext& ctx, Snapshot& snap) {
  ProbeRocm(ctx, snap);
  for (const auto& dir : LibrarySearchFolders(ctx))
    ScanLibraryFolder(ctx, snap, dir, {kHipRuntime, kLibCuda, kNvml}, "");
  // The WSL file names carry no driver version (libcuda.so.1.1): that version is the Windows driver's.
  ScanLibraryFolder(ctx, snap, kWslLibraryDir, {kLibCuda, kNvml},
                    "Windows driver (WSL: the file name carries no version)");
  ProbeCudaToolkits(ctx, snap);
}

}  // namespace gpudoctor
