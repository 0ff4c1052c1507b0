// Python on Windows from the registry (PEP 514, what `py --list-paths` shows) and the folders each
// installer uses. Store installs keep pip's packages outside their read-only WindowsApps folder, in
// %LOCALAPPDATA%\Packages\PythonSoftwareFoundation.Python.3.X_qbz5n2kfra8p0\LocalCache\local-packages.
#include "probe/windows/windows_python_locations.h"

#include <algorithm>

#include "core/strings.h"

namespace gpudoctor {
namespace {

constexpr const char* kStorePackagePrefix = "PythonSoftwareFoundation.Python.";
constexpr const char* kStorePublisherId = "qbz5n2kfra8p0";  // the PSF's Store publisher id

std::string Join(std::string dir, std::string_view name) {
  while (!dir.empty() && (dir.back() == '\\' || dir.back() == '/')) dir.pop_back();
  return dir + "\\" + std::string(name);
}

std::string StripSlashes(std::string dir) {
  while (dir.size() > 3 && (dir.back() == '\\' || dir.back() == '/')) dir.pop_back();
  return dir;
}

// "3.12", "3.12-32", "3.13t", "3.11.9" -> "3.12"; "" when the text does not start with X.Y.
std::string MajorMinor(std::string_view text) {
  text = Trim(text);
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i - start;
  };
  size_t major = digits();
  if (major == 0 || major > 2 || i >= text.size() || text[i] != '.') return {};
  ++i;
  size_t minor_start = i;
  size_t minor = digits();
  if (minor == 0 || minor > 3) return {};
  return std::string(text.substr(0, minor_start + minor));
}

// "Python312" / "Python312-32" / "Python39" -> "3.12" / "3.9".
std::string VersionFromPythonFolder(std::string_view name) {
  if (!StartsWith(ToLower(name), "python")) return {};
  std::string_view rest = name.substr(6);
  size_t n = 0;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  if (n < 2 || n > 4) return {};
  return std::string(rest.substr(0, 1)) + "." + std::string(rest.substr(1, n - 1));
}

class Collector {
 public:
  explicit Collector(const ProbeContext& ctx) : ctx_(ctx) {}

  // Adds a prefix whose site-packages is <prefix>\Lib\site-packages (python.org, conda, venv).
  void AddPrefix(const std::string& prefix_in, const std::string& kind, std::string version,
                 const std::string& source) {
    std::string prefix = StripSlashes(prefix_in);
    if (prefix.empty()) return;
    std::string site = Join(prefix, "Lib\\site-packages");
    if (!ctx_.fs.IsDir(site)) return;
    if (version.empty()) version = VersionOfPrefix(prefix);
    Add(prefix, kind, version, site, source);
  }

  void Add(const std::string& prefix, const std::string& kind, const std::string& version,
           const std::string& site, const std::string& source) {
    if (!ctx_.fs.IsDir(site)) return;
    std::string key = ToLower(site);
    if (std::find(seen_.begin(), seen_.end(), key) != seen_.end()) return;
    seen_.push_back(key);
    out_.push_back({prefix, kind, version, site, source});
  }

  // pyvenv.cfg ("version = 3.11.9", uv: "version_info = 3.11.9.final.0") or conda-meta\python-X.Y.Z-*.json.
  std::string VersionOfPrefix(const std::string& prefix) const {
    if (auto cfg = ctx_.fs.ReadFile(Join(prefix, "pyvenv.cfg"), 16 * 1024); cfg.ok()) {
      for (auto line : SplitLines(*cfg)) {
        size_t eq = line.find('=');
        if (eq == std::string_view::npos) continue;
        std::string key = ToLower(Trim(line.substr(0, eq)));
        if (key == "version" || key == "version_info") {
          std::string v = MajorMinor(line.substr(eq + 1));
          if (!v.empty()) return v;
        }
      }
    }
    if (auto meta = ctx_.fs.ListDir(Join(prefix, "conda-meta")); meta.ok()) {
      for (const auto& name : *meta) {
        if (StartsWith(name, "python-") && EndsWith(name, ".json")) {
          std::string v = MajorMinor(std::string_view(name).substr(7));
          if (!v.empty()) return v;
        }
      }
    }
    return {};
  }

  std::vector<WindowsPythonLocation> Take() { return std::move(out_); }

 private:
  const ProbeContext& ctx_;
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
          // The Store package's pip folder: LocalCache\local-packages\PythonXY\site-packages of
          // %LOCALAPPDATA%\Packages\PythonSoftwareFoundation.Python.X.Y_<publisher id>.
          std::string xy = version;
          xy.erase(std::remove(xy.begin(), xy.end(), '.'), xy.end());
          if (!local_app_data.empty() && !version.empty()) {
            std::string package = Join(Join(local_app_data, "Packages"),
                                       std::string(kStorePackagePrefix) + version + "_" + kStorePublisherId);
            c.Add(StripSlashes(path), kind, version,
                  Join(package, "LocalCache\\local-packages\\Python" + xy + "\\site-packages"), source);
          }
          continue;
        }
        c.AddPrefix(path, kind, version, source);
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
        std::string version = VersionFromPythonFolder(name);
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

// pip install --user: %APPDATA%\Python\PythonXY\site-packages.
void FromUserSite(const ProbeContext& ctx, Collector& c) {
  auto app_data = ctx.env.Get("APPDATA");
  if (!app_data || app_data->empty()) return;
  std::string parent = Join(*app_data, "Python");
  auto listing = ctx.fs.ListDir(parent);
  if (!listing.ok()) return;
  for (const auto& name : *listing) {
    std::string version = VersionFromPythonFolder(name);
    if (version.empty()) continue;
    std::string prefix = Join(parent, name);
    c.Add(prefix, "user", version, Join(prefix, "site-packages"), "APPDATA");
  }
}

}  // namespace

std::vector<WindowsPythonLocation> WindowsPythonLocations(const ProbeContext& ctx) {
  if (!ctx.windows) return {};
  Collector c(ctx);
  std::string profile = ctx.env.Get("USERPROFILE").value_or("");
  std::string local_app_data = ctx.env.Get("LOCALAPPDATA").value_or("");
  if (local_app_data.empty() && !profile.empty()) local_app_data = Join(profile, "AppData\\Local");
  if (auto venv = ctx.env.Get("VIRTUAL_ENV"); venv && !venv->empty())
    c.AddPrefix(*venv, "venv", "", "VIRTUAL_ENV");
  if (auto conda = ctx.env.Get("CONDA_PREFIX"); conda && !conda->empty())
    c.AddPrefix(*conda, "conda", "", "CONDA_PREFIX");
  FromRegistry(ctx, c, local_app_data);
  FromFolders(ctx, c, local_app_data, profile);
  FromUserSite(ctx, c);
  return c.Take();
}

void ProbeWindowsPythonInstalls(const ProbeContext& ctx, Snapshot& snap) {
  if (!ctx.windows) return;
  snap.looked_at.push_back(
      "Python: PEP 514 registry keys, %LOCALAPPDATA%\\Programs\\Python, Store packages, conda, venvs");
  for (const auto& loc : WindowsPythonLocations(ctx)) {
    if (loc.kind == "user") continue;
    snap.windows.python_installs.push_back({loc.python_version, loc.prefix, loc.kind, loc.source});
  }
}

}  // namespace gpudoctor
