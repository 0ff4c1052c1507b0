// Python on Windows from the registry (PEP 514, what `py --list-paths` shows) and the folders each
// installer uses. Store installs keep pip's packages outside their read-only WindowsApps folder, in
// %LOCALAPPDATA%\Packages\PythonSoftwareFoundation.Python.3.X_qbz5n2kfra8p0\LocalCache\local-packages.
#include "probe/windows/windows_python_locations.h"

#include <algorithm>

#include "core/strings.h"
#include "core/windows_path.h"
#include "probe/common/machine_path_style.h"
#include "probe/common/python_prefix_version.h"
#include "probe/common/python_text_files.h"

namespace gpudoctor {
namespace {

constexpr const char* kStorePackagePrefix = "PythonSoftwareFoundation.Python.";
constexpr const char* kStorePublisherId = "qbz5n2kfra8p0";  // the PSF's Store publisher id
// The folders a portable ComfyUI is unpacked as (the release archives hold ComfyUI_windows_portable;
// "Extract to <archive name>\" wraps it once more), each holding python_embeded.
constexpr const char* kPortableAppFolders[] = {
    "ComfyUI_windows_portable", "ComfyUI_windows_portable_nvidia\\ComfyUI_windows_portable",
    "ComfyUI_windows_portable_amd\\ComfyUI_windows_portable", "ComfyUI-Easy-Install"};
constexpr const char* kEmbeddedPython = "python_embeded";  // ComfyUI's spelling

std::string Join(std::string_view dir, std::string_view rel) {
  return JoinWindowsPath(dir, rel);
}

// "3.12", "3.12-32", "3.13t", "3.11.9" -> "3.12"; "" when the text does not start with X.Y.
std::string MajorMinor(std::string_view text) {
  text = Trim(text);
  size_t end = 0;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == '.')) ++end;
  return PythonMajorMinor(text.substr(0, end)).value_or("");
}

class Collector {
 public:
  explicit Collector(const ProbeContext& ctx) : ctx_(ctx), paths_(true) {}

  // Adds a prefix whose site-packages is <prefix>\Lib\site-packages (python.org, conda, venv, uv, portable).
  void AddPrefix(std::string_view prefix_in, const std::string& kind, const std::string& version,
                 const std::string& source) {
    if (!IsWindowsAbsolutePath(prefix_in)) return;
    std::string prefix = NormalizeWindowsPath(prefix_in);
    WindowsPythonLocation loc;
    loc.prefix = prefix;
    loc.kind = kind;
    loc.python_version = version;
    loc.version_source = version.empty() ? "" : StartsWith(source, "HK") ? "registry" : "folder name";
    loc.site_packages = Join(prefix, "Lib\\site-packages");
    loc.source = source;
    if (!ctx_.fs.IsDir(loc.site_packages)) return;
    if (loc.python_version.empty()) {
      PrefixPythonVersion v = PythonVersionOfPrefix(ctx_.fs, paths_, prefix);
      loc.python_version = v.version;
      loc.version_source = v.source;
    }
    for (const char* rel : {"Scripts\\python.exe", "python.exe"}) {
      auto st = ctx_.fs.Stat(Join(prefix, rel));
      if (st.ok() && !st->is_dir) {
        loc.interpreter = Join(prefix, rel);
        break;
      }
    }
    Add(std::move(loc));
  }

  void Add(WindowsPythonLocation loc) {
    if (!ctx_.fs.IsDir(loc.site_packages)) return;
    std::string key = WindowsPathKey(loc.site_packages);
    if (std::find(seen_.begin(), seen_.end(), key) != seen_.end()) return;
    seen_.push_back(key);
    out_.push_back(std::move(loc));
  }

  std::vector<WindowsPythonLocation> Take() { return std::move(out_); }

 private:
  const ProbeContext& ctx_;
  MachinePathStyle paths_;
  std::vector<std::string> seen_;
  std::vector<WindowsPythonLocation> out_;
};

std::string KindOfInstallPath(const std::string& company, const std::string& path) {
  std::string lower = ToLower(path);
  if (lower.find("\\windowsapps\\") != std::string::npos ||
      lower.find(ToLower(kStorePackagePrefix)) != std::string::npos)
    return "store";
  if (company == "PythonCore") return "python.org";
  if (company == "ContinuumAnalytics" || lower.find("conda") != std::string::npos ||
      lower.find("miniforge") != std::string::npos)
    return "conda";
  return "other";
}

// The Store package's pip folder: LocalCache\local-packages\PythonXY\site-packages of
// %LOCALAPPDATA%\Packages\PythonSoftwareFoundation.Python.X.Y_<publisher id>; the interpreter is the
// app execution alias %LOCALAPPDATA%\Microsoft\WindowsApps\pythonX.Y.exe where it is seen.
void AddStoreInstall(const ProbeContext& ctx, Collector& c, const std::string& install_path,
                     const std::string& version, const std::string& source,
                     const std::string& local_app_data) {
  if (local_app_data.empty() || version.empty()) return;
  std::string xy = version;
  xy.erase(std::remove(xy.begin(), xy.end(), '.'), xy.end());
  std::string package = Join(Join(local_app_data, "Packages"),
                             std::string(kStorePackagePrefix) + version + "_" + kStorePublisherId);
  std::string alias = Join(local_app_data, "Microsoft\\WindowsApps\\python" + version + ".exe");
  c.Add({NormalizeWindowsPath(install_path), "store", version, "registry",
         Join(package, "LocalCache\\local-packages\\Python" + xy + "\\site-packages"),
         ctx.fs.Exists(alias) ? alias : "", source});
}

// PEP 514: Software\Python\<Company>\<Tag>\InstallPath (default value), with SysVersion.
void FromRegistry(const ProbeContext& ctx, Collector& c, const std::string& local_app_data) {
  const WindowsSystemSource& w = *ctx.windows;
  struct Root {
    RegistryRoot root;
    const char* path;
  };
  for (const Root& r : {Root{RegistryRoot::kCurrentUser, "Software\\Python"},
                        Root{RegistryRoot::kLocalMachine, "SOFTWARE\\Python"},
                        Root{RegistryRoot::kLocalMachine, "SOFTWARE\\WOW6432Node\\Python"}}) {
    auto companies = w.RegistrySubkeys(r.root, r.path);
    if (!companies.ok()) continue;
    for (const auto& company : *companies) {
      if (company == "PyLauncher") continue;  // the launcher's own settings
      std::string company_key = std::string(r.path) + "\\" + company;
      auto tags = w.RegistrySubkeys(r.root, company_key);
      if (!tags.ok()) continue;
      for (const auto& tag : *tags) {
        std::string tag_key = company_key + "\\" + tag;
        std::string source = std::string(ToString(r.root)) + "\\" + tag_key;
        auto install = w.ReadRegistry(r.root, tag_key + "\\InstallPath", "");
        std::string path = install ? install->AsText().value_or("") : "";
        if (path.empty()) continue;
        std::string version;
        if (auto sys = w.ReadRegistry(r.root, tag_key, "SysVersion"))
          version = MajorMinor(sys->AsText().value_or(""));
        if (version.empty() && company == "PythonCore") version = MajorMinor(tag);
        std::string kind = KindOfInstallPath(company, path);
        if (kind == "store") {
          AddStoreInstall(ctx, c, path, version, source, local_app_data);
        } else {
          c.AddPrefix(path, kind, version, source);
        }
      }
    }
  }
}

void FromFolders(const ProbeContext& ctx, Collector& c, const std::string& local_app_data,
                 const std::string& profile) {
  // python.org installs: per user under %LOCALAPPDATA%\Programs\Python (listed), for all users
  // C:\Program Files\PythonXY (looked up by name: Program Files itself is not listed).
  if (!local_app_data.empty()) {
    std::string parent = Join(local_app_data, "Programs\\Python");
    if (auto listing = ctx.fs.ListDir(parent); listing.ok()) {
      for (const auto& name : *listing) {
        std::string version = PythonVersionFromWindowsName(name).value_or("");
        if (!version.empty()) c.AddPrefix(Join(parent, name), "python.org", version, "folder");
      }
    }
  }
  for (int minor = 8; minor <= 15; ++minor) {
    std::string name = "Python3" + std::to_string(minor);
    c.AddPrefix(Join("C:\\Program Files", name), "python.org", "3." + std::to_string(minor), "folder");
  }
  // conda: base and its envs.
  std::vector<std::string> conda_roots;
  for (const char* name : {"miniconda3", "anaconda3", "miniforge3", "mambaforge"}) {
    if (!profile.empty()) conda_roots.push_back(Join(profile, name));
    if (!local_app_data.empty()) conda_roots.push_back(Join(local_app_data, name));
    conda_roots.push_back(Join("C:\\ProgramData", name));
  }
  for (const auto& root : conda_roots) {
    if (!ctx.fs.IsDir(Join(root, "conda-meta"))) continue;
    c.AddPrefix(root, "conda", "", "folder");
    if (auto envs = ctx.fs.ListDir(Join(root, "envs")); envs.ok()) {
      for (const auto& env : *envs) c.AddPrefix(Join(Join(root, "envs"), env), "conda", "", "folder");
    }
  }
  if (!profile.empty() && ctx.fs.Exists(Join(Join(profile, ".venv"), "pyvenv.cfg")))
    c.AddPrefix(Join(profile, ".venv"), "venv", "", "folder");
}

// uv's managed Pythons: one folder per install, "cpython-3.12.7-windows-x86_64-none", under
// UV_PYTHON_INSTALL_DIR, else uv's data folder (%APPDATA%\uv\data\python; %APPDATA%\uv\python as
// uv's own source names it).
void FromUv(const ProbeContext& ctx, Collector& c, const std::string& app_data) {
  std::vector<std::string> roots;
  if (auto dir = ctx.env.Get("UV_PYTHON_INSTALL_DIR"); dir && IsWindowsAbsolutePath(*dir))
    roots.push_back(*dir);
  if (!app_data.empty()) {
    roots.push_back(Join(app_data, "uv\\data\\python"));
    roots.push_back(Join(app_data, "uv\\python"));
  }
  for (const auto& root : roots) {
    auto listing = ctx.fs.ListDir(root);
    if (!listing.ok()) continue;
    for (const auto& name : *listing) {
      auto parts = Split(name, '-');  // implementation, version, os, arch, libc
      if (name.empty() || name.front() == '.' || parts.size() < 2) continue;
      c.AddPrefix(Join(root, name), "uv", PythonMajorMinor(parts[1]).value_or(""), "uv");
    }
  }
}

// A portable app's embedded Python (ComfyUI's python_embeded): in or just above the current folder,
// and in the usual unpacking places under the names the release archives use. Only these names are
// looked up, never a listing of the user's folders (a recording must not carry their names).
void FromPortableApps(const ProbeContext& ctx, Collector& c, const std::string& profile) {
  std::vector<std::string> apps;
  if (IsWindowsAbsolutePath(ctx.cwd)) {
    apps.push_back(NormalizeWindowsPath(ctx.cwd));
    if (std::string up = WindowsParentPath(ctx.cwd); !up.empty()) apps.push_back(up);
  }
  std::vector<std::string> places;
  if (!profile.empty()) {
    for (const char* sub : {"", "Desktop", "Documents", "Downloads"}) places.push_back(Join(profile, sub));
  }
  std::string drive = ctx.env.Get("SystemDrive").value_or("C:");
  if (IsWindowsAbsolutePath(drive + "\\")) places.push_back(NormalizeWindowsPath(drive + "\\"));
  for (const auto& place : places) {
    for (const char* app : kPortableAppFolders) apps.push_back(Join(place, app));
  }
  for (const auto& app : apps) c.AddPrefix(Join(app, kEmbeddedPython), "portable", "", "portable");
}

// pip install --user: %APPDATA%\Python\PythonXY\site-packages.
void FromUserSite(const ProbeContext& ctx, Collector& c, const std::string& app_data) {
  if (app_data.empty()) return;
  std::string parent = Join(app_data, "Python");
  auto listing = ctx.fs.ListDir(parent);
  if (!listing.ok()) return;
  for (const auto& name : *listing) {
    std::string version = PythonVersionFromWindowsName(name).value_or("");
    if (version.empty()) continue;
    std::string prefix = Join(parent, name);
    c.Add({prefix, "user", version, "folder name", Join(prefix, "site-packages"), "", "APPDATA"});
  }
}

std::string EnvFolder(const ProbeContext& ctx, const char* name) {
  auto v = ctx.env.Get(name);
  return v && IsWindowsAbsolutePath(*v) ? NormalizeWindowsPath(*v) : "";
}

// The finder's word for where a location was found.
std::string FoundBy(const WindowsPythonLocation& loc) {
  if (StartsWith(loc.source, "HK")) return "registry";
  if (loc.source == "APPDATA") return "user site";
  if (loc.source != "folder") return loc.source;  // VIRTUAL_ENV, CONDA_PREFIX, uv, portable
  if (loc.kind == "python.org") return "python.org folder";
  if (loc.kind == "venv") return "~/.venv";
  return loc.kind;  // conda
}

std::string FinderKind(const std::string& kind) {
  if (kind == "venv" || kind == "conda" || kind == "user" || kind == "portable") return kind;
  return "system";  // python.org, store, uv, other
}

}  // namespace

std::vector<WindowsPythonLocation> WindowsPythonLocations(const ProbeContext& ctx) {
  if (!ctx.windows) return {};
  Collector c(ctx);
  std::string profile = EnvFolder(ctx, "USERPROFILE");
  std::string local_app_data = EnvFolder(ctx, "LOCALAPPDATA");
  std::string app_data = EnvFolder(ctx, "APPDATA");
  if (local_app_data.empty() && !profile.empty()) local_app_data = Join(profile, "AppData\\Local");
  if (app_data.empty() && !profile.empty()) app_data = Join(profile, "AppData\\Roaming");
  if (auto venv = EnvFolder(ctx, "VIRTUAL_ENV"); !venv.empty()) c.AddPrefix(venv, "venv", "", "VIRTUAL_ENV");
  if (auto conda = EnvFolder(ctx, "CONDA_PREFIX"); !conda.empty())
    c.AddPrefix(conda, "conda", "", "CONDA_PREFIX");
  FromRegistry(ctx, c, local_app_data);
  FromFolders(ctx, c, local_app_data, profile);
  FromUv(ctx, c, app_data);
  FromPortableApps(ctx, c, profile);
  FromUserSite(ctx, c, app_data);
  return c.Take();
}

void RecordWindowsPythonInstalls(const std::vector<WindowsPythonLocation>& locations, Snapshot& snap) {
  snap.looked_at.push_back(
      "Python: PEP 514 registry keys, %LOCALAPPDATA%\\Programs\\Python, Store packages, conda, venvs, uv, "
      "portable apps");
  for (const auto& loc : locations) {
    if (loc.kind == "user") continue;
    snap.windows.python_installs.push_back({loc.python_version, loc.prefix, loc.kind, loc.source});
  }
}

std::vector<PythonCandidate> WindowsPythonCandidates(const std::vector<WindowsPythonLocation>& locations) {
  std::vector<PythonCandidate> out;
  for (const auto& loc : locations) {
    PythonCandidate c{loc.prefix,         loc.site_packages, FinderKind(loc.kind), loc.python_version,
                      loc.version_source, loc.interpreter,   FoundBy(loc)};
    if (loc.kind == "user") {  // pip --user serves the python.org install of its version
      for (const auto& other : locations) {
        if (other.kind == "python.org" && other.python_version == loc.python_version &&
            !other.interpreter.empty()) {
          c.interpreter = other.interpreter;
          break;
        }
      }
    }
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace gpudoctor
