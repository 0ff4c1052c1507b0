// Finds Python environments (python_env_finder.h). Every candidate is a prefix (an environment's root)
// or an interpreter; both expand to the site-packages folders that interpreter would import from, in
// sys.path order (the user site before the system's), and each folder is kept once, keyed by its path
// with links resolved (on Windows: without case). Nothing here runs Python; everything goes through
// ctx.fs and ctx.env, and every path through the machine's MachinePathStyle.
#include "probe/common/python_env_finder.h"

#include <algorithm>
#include <array>
#include <map>

#include "core/strings.h"
#include "core/windows_path.h"
#include "probe/common/machine_path_style.h"
#include "probe/common/machine_paths.h"
#include "probe/common/python_prefix_version.h"
#include "probe/common/python_text_files.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxConfigBytes = 64 * 1024;

bool VersionNewer(const std::string& a, const std::string& b) {
  auto pa = Split(a, '.'), pb = Split(b, '.');
  auto num = [](std::string_view s) { return ParseU64(s).value_or(0); };
  if (num(pa[0]) != num(pb[0])) return num(pa[0]) > num(pb[0]);
  return pa.size() > 1 && pb.size() > 1 && num(pa[1]) > num(pb[1]);
}

struct SiteOrigin {
  std::string kind;
  std::string found_by;
  std::string interpreter;
  std::string version_hint;  // from the interpreter's name
  bool active = false;
  bool given = false;
  bool on_path = false;
};

class Finder {
 public:
  Finder(const ProbeContext& ctx, const PythonSearch& search, std::vector<std::string>& warnings)
      : ctx_(ctx),
        search_(search),
        warnings_(warnings),
        paths_(search.windows),
        home_(HomeFolder(ctx, search.windows)),
        cwd_(paths_.IsAbsolute(search.cwd) ? paths_.Normalize(search.cwd) : "") {}

  std::vector<PythonSite> Run() {
    for (const auto& dir : search_.given) AddGiven(dir);
    if (auto v = EnvPath("VIRTUAL_ENV")) AddPrefix(*v, {"venv", "VIRTUAL_ENV", "", "", true, false, false});
    if (auto c = EnvPath("CONDA_PREFIX"))
      AddPrefix(*c, {"conda", "CONDA_PREFIX", "", "", true, false, false});
    if (!cwd_.empty()) {
      for (const char* name : {".venv", "venv"}) {
        std::string p = paths_.Join(cwd_, name);
        if (ctx_.fs.Exists(paths_.Join(p, "pyvenv.cfg")) || ctx_.fs.IsDir(paths_.Join(p, "conda-meta")))
          AddPrefix(p, {"venv", "current folder", "", "", false, false, false});
      }
    }
    AddPathInterpreters();
    if (!home_.empty())
      AddPrefix(paths_.Join(home_, ".venv"), {"venv", "~/.venv", "", "", false, false, false});
    AddConda();
    if (paths_.windows()) {  // pyenv's layout and /usr/lib/python3 are POSIX ones; Windows has its own
      for (const auto& c : search_.installs) AddCandidate(c);
    } else {
      AddPyenv();
      AddStandardLocations();
    }
    return std::move(sites_);
  }

 private:
  std::optional<std::string> EnvPath(const char* name) const {
    auto v = ctx_.env.Get(name);
    if (!v || !paths_.IsAbsolute(*v)) return std::nullopt;
    return paths_.Normalize(*v);
  }

  void Add(PythonSite site, const SiteOrigin& o) {
    site.canonical = paths_.Identity(ctx_.fs, site.site_packages);
    auto it = index_.find(site.canonical);
    if (it != index_.end()) {
      PythonSite& old = sites_[it->second];
      if (std::find(old.found_by.begin(), old.found_by.end(), o.found_by) == old.found_by.end())
        old.found_by.push_back(o.found_by);
      old.active = old.active || o.active;
      old.given = old.given || o.given;
      old.on_path = old.on_path || o.on_path;
      if (old.interpreter.empty()) old.interpreter = site.interpreter;
      if (old.python_version.empty()) {
        old.python_version = site.python_version;
        old.python_version_source = site.python_version_source;
      }
      if (old.kind == "other") old.kind = site.kind;
      return;
    }
    site.found_by = {o.found_by};
    site.active = o.active;
    site.given = o.given;
    site.on_path = o.on_path;
    index_[site.canonical] = sites_.size();
    sites_.push_back(std::move(site));
  }

  // The first interpreter that exists in a prefix.
  std::string InterpreterIn(const std::string& prefix) const {
    static constexpr std::array<const char*, 2> kPosix = {"bin/python3", "bin/python"};
    static constexpr std::array<const char*, 2> kWindows = {"Scripts/python.exe", "python.exe"};
    for (const char* rel : paths_.windows() ? kWindows : kPosix) {
      std::string p = paths_.Join(prefix, rel);
      auto st = ctx_.fs.Stat(p);
      if (st.ok() && !st->is_dir) return p;
    }
    return "";
  }

  // (folder, python version from its path) for each site-packages folder under a prefix, newest first.
  // A Windows prefix has one, Lib\site-packages, whose path names no version.
  std::vector<std::pair<std::string, std::string>> SitesOf(const std::string& prefix,
                                                           const std::string& only_version) const {
    std::vector<std::pair<std::string, std::string>> out;
    if (paths_.windows()) {
      std::string folder = paths_.Join(prefix, "Lib/site-packages");
      if (ctx_.fs.IsDir(folder)) out.emplace_back(folder, "");
      return out;
    }
    for (const char* lib_name : {"lib", "lib64"}) {
      std::string lib = JoinPath(prefix, lib_name);
      auto listing = ctx_.fs.ListDir(lib);
      if (!listing.ok()) continue;
      std::vector<std::string> versions;
      for (const auto& name : *listing) {
        auto v = PythonVersionFromFolder(name);
        if (v && (only_version.empty() || *v == only_version)) versions.push_back(*v);
      }
      std::sort(versions.begin(), versions.end(), VersionNewer);
      for (const auto& v : versions) {
        for (const char* leaf : {"site-packages", "dist-packages"}) {
          std::string folder = JoinPath(JoinPath(lib, "python" + v), leaf);
          if (ctx_.fs.IsDir(folder)) out.emplace_back(folder, v);
        }
      }
    }
    for (const char* rel : {"lib/python3/dist-packages", "Lib/site-packages"}) {
      std::string folder = JoinPath(prefix, rel);
      if (ctx_.fs.IsDir(folder)) out.emplace_back(folder, "");
    }
    return out;
  }

  // Adds every site-packages folder of the environment at `prefix`; false when it has none.
  bool AddPrefix(const std::string& prefix, SiteOrigin o) {
    if (!ctx_.fs.IsDir(prefix)) return false;
    std::string cfg_version;
    std::string cfg_path = paths_.Join(prefix, "pyvenv.cfg");
    if (ctx_.fs.Exists(cfg_path)) {
      o.kind = "venv";
      if (auto text = ctx_.fs.ReadFile(cfg_path, kMaxConfigBytes); text.ok()) {
        cfg_version = ParsePyvenvConfig(*text).python_version;
      } else {
        warnings_.push_back(text.error().message);
      }
    } else if (ctx_.fs.IsDir(paths_.Join(prefix, "conda-meta"))) {
      o.kind = "conda";
    }
    if (o.interpreter.empty()) o.interpreter = InterpreterIn(prefix);
    const std::string want = !cfg_version.empty() ? cfg_version : o.version_hint;
    PrefixPythonVersion of_prefix;  // Windows: Lib\site-packages names no version, the prefix's files do
    if (paths_.windows() && cfg_version.empty()) of_prefix = PythonVersionOfPrefix(ctx_.fs, paths_, prefix);
    bool any = false;
    for (const auto& [folder, folder_version] : SitesOf(prefix, o.on_path ? want : "")) {
      PythonSite s;
      s.site_packages = folder;
      s.prefix = prefix;
      s.kind = o.kind;
      s.interpreter = o.interpreter;
      if (!folder_version.empty()) {
        s.python_version = folder_version;
        s.python_version_source = "lib folder";
      } else if (!cfg_version.empty()) {
        s.python_version = cfg_version;
        s.python_version_source = "pyvenv.cfg";
      } else if (!of_prefix.version.empty()) {
        s.python_version = of_prefix.version;
        s.python_version_source = of_prefix.source;
      } else if (!o.version_hint.empty()) {
        s.python_version = o.version_hint;
        s.python_version_source = "interpreter name";
      }
      if (!cfg_version.empty() && folder_version == cfg_version) s.python_version_source = "pyvenv.cfg";
      Add(std::move(s), o);
      any = true;
    }
    return any;
  }

  // pip's --user folder of Python `version`: ~/.local/lib/pythonX.Y/site-packages, on Windows
  // %APPDATA%\Python\PythonXY\site-packages.
  void AddUserSite(const std::string& version, const SiteOrigin& o) {
    if (version.empty()) return;
    std::string prefix, folder;
    if (paths_.windows()) {
      auto app_data = ctx_.env.Get("APPDATA");
      if (!app_data || !paths_.IsAbsolute(*app_data)) return;
      std::string xy = version;
      xy.erase(std::remove(xy.begin(), xy.end(), '.'), xy.end());
      prefix = paths_.Join(*app_data, "Python/Python" + xy);
      folder = paths_.Join(prefix, "site-packages");
    } else {
      if (home_.empty()) return;
      prefix = JoinPath(home_, ".local");
      folder = JoinPath(prefix, "lib/python" + version + "/site-packages");
    }
    if (!ctx_.fs.IsDir(folder)) return;
    PythonSite s;
    s.site_packages = folder;
    s.prefix = prefix;
    s.kind = "user";
    s.interpreter = o.interpreter;
    s.python_version = version;
    s.python_version_source = paths_.windows() ? "folder name" : "lib folder";
    Add(std::move(s), o);
  }

  // A site-packages folder named directly: its prefix is above lib/pythonX.Y (or Windows' Lib).
  void AddGivenSite(const std::string& dir, const SiteOrigin& o) {
    std::string parent = paths_.Parent(dir);
    auto version = paths_.windows() ? std::nullopt : PythonVersionFromFolder(paths_.Base(parent));
    std::string prefix = parent;  // site-packages straight in the prefix
    if (version) {
      prefix = paths_.Parent(paths_.Parent(parent));  // <prefix>/lib/pythonX.Y/site-packages
    } else if (paths_.windows() && paths_.SameName(paths_.Base(parent), "Lib")) {
      prefix = paths_.Parent(parent);  // <prefix>\Lib\site-packages
    }
    PythonSite s;
    s.site_packages = dir;
    s.prefix = prefix;
    s.kind = ctx_.fs.Exists(paths_.Join(prefix, "pyvenv.cfg"))  ? "venv"
             : ctx_.fs.IsDir(paths_.Join(prefix, "conda-meta")) ? "conda"
                                                                : "other";
    s.interpreter = InterpreterIn(prefix);
    if (version) {
      s.python_version = *version;
      s.python_version_source = "lib folder";
    } else if (paths_.windows()) {
      PrefixPythonVersion v = PythonVersionOfPrefix(ctx_.fs, paths_, prefix);
      s.python_version = v.version;
      s.python_version_source = v.source;
    }
    Add(std::move(s), o);
  }

  void AddGiven(const std::string& raw) {
    std::string base_dir = !cwd_.empty() ? cwd_ : (paths_.windows() ? "" : "/");
    if (!paths_.IsAbsolute(raw) && base_dir.empty()) {
      warnings_.push_back("--python-env " + raw + ": a relative folder, and the current folder is unknown");
      return;
    }
    std::string dir = paths_.Absolute(base_dir, raw);
    SiteOrigin o{"other", "--python-env", "", "", false, true, false};
    if (!ctx_.fs.IsDir(dir)) {
      warnings_.push_back("--python-env " + raw + ": no such folder (" + dir + ")");
      return;
    }
    std::string base = paths_.Base(dir);
    if (paths_.SameName(base, "site-packages") || base == "dist-packages") return AddGivenSite(dir, o);
    if (!AddPrefix(dir, o))
      warnings_.push_back("--python-env " + raw + ": no site-packages folder found under " + dir);
  }

  // A candidate found by the Windows registry or an installer's folder.
  void AddCandidate(const PythonCandidate& c) {
    if (!ctx_.fs.IsDir(c.site_packages)) return;
    PythonSite s;
    s.site_packages = paths_.Normalize(c.site_packages);
    s.prefix = paths_.Normalize(c.prefix);
    s.kind = c.kind;
    s.python_version = c.python_version;
    s.python_version_source = c.python_version_source;
    s.interpreter = c.interpreter.empty() ? InterpreterIn(s.prefix) : c.interpreter;
    if (s.python_version.empty()) {
      PrefixPythonVersion v = PythonVersionOfPrefix(ctx_.fs, paths_, s.prefix);
      s.python_version = v.version;
      s.python_version_source = v.source;
    }
    Add(std::move(s), {c.kind, c.found_by, "", "", false, false, false});
  }

  // The pyenv version a shim runs: PYENV_VERSION, a .python-version in the current folder or above,
  // else $(pyenv root)/version; "" for the system python or when nothing says.
  std::string PyenvSelected(const std::string& root) const {
    if (auto v = ctx_.env.Get("PYENV_VERSION"); v && !v->empty()) return std::string(Split(*v, ':')[0]);
    std::vector<std::string> files;
    for (std::string d = cwd_; !d.empty(); d = d == "/" ? "" : ParentPath(d))
      files.push_back(JoinPath(d, ".python-version"));
    files.push_back(JoinPath(root, "version"));
    for (const auto& f : files) {
      if (!ctx_.fs.Exists(f)) continue;
      auto text = ctx_.fs.ReadFile(f, 4096);
      if (!text.ok()) continue;
      for (auto line : SplitLines(*text)) {
        line = Trim(line);
        if (!line.empty() && line.front() != '#') return line == "system" ? "" : std::string(line);
      }
    }
    return "";
  }

  // One python on PATH (or named by a shim): its venv, or its prefix with the user site first.
  void AddInterpreter(const std::string& dir, const std::string& exe) {
    SiteOrigin o{"system", "PATH", exe, "", false, false, true};
    for (const std::string& cand : {dir, ParentPath(dir)}) {
      if (!cand.empty() && ctx_.fs.Exists(JoinPath(cand, "pyvenv.cfg"))) {
        o.kind = "venv";
        AddPrefix(cand, o);
        return;
      }
    }
    if (BaseName(dir) == "shims") {
      std::string root = ParentPath(dir);
      std::string version = PyenvSelected(root);
      std::string prefix = JoinPath(JoinPath(root, "versions"), version);
      if (version.empty() || !ctx_.fs.IsDir(prefix)) return;  // the system python comes later on PATH
      o.kind = "pyenv";
      o.interpreter = InterpreterIn(prefix);
      o.version_hint = PythonMajorMinor(version).value_or("");
      AddUserSite(o.version_hint, o);
      AddPrefix(prefix, o);
      return;
    }
    std::string real = CanonicalPath(ctx_.fs, exe);
    if (auto v = PythonVersionFromFolder(BaseName(real))) o.version_hint = *v;
    std::string prefix = ParentPath(ParentPath(real));
    if (prefix.empty()) return;
    std::string pyenv_versions = JoinPath(PyenvRoot(), "versions");
    if (ctx_.fs.IsDir(JoinPath(prefix, "conda-meta"))) o.kind = "conda";
    if (PathIsUnder(prefix, pyenv_versions)) o.kind = "pyenv";
    AddUserSite(o.version_hint, o);
    if (prefix == "/usr" && !o.version_hint.empty()) {
      for (const char* leaf : {"dist-packages", "site-packages"}) {
        std::string folder = "/usr/local/lib/python" + o.version_hint + "/" + leaf;
        if (!ctx_.fs.IsDir(folder)) continue;
        PythonSite s;
        s.site_packages = folder;
        s.prefix = "/usr/local";
        s.kind = "system";
        s.interpreter = exe;
        s.python_version = o.version_hint;
        s.python_version_source = "lib folder";
        Add(std::move(s), o);
      }
    }
    AddPrefix(prefix, o);
  }

  // A python.exe on Windows' PATH: it sits at its environment's root (python.org, conda, an embeddable
  // or portable install), or in a venv's Scripts folder. The Store's app execution aliases
  // (%LOCALAPPDATA%\Microsoft\WindowsApps) are skipped: the registry finds the Store's Pythons.
  void AddWindowsInterpreter(const std::string& dir, const std::string& exe) {
    if (paths_.SameName(paths_.Base(dir), "WindowsApps")) return;
    SiteOrigin o{"system", "PATH", exe, "", false, false, true};
    std::string prefix = paths_.SameName(paths_.Base(dir), "Scripts") ? paths_.Parent(dir) : dir;
    if (ctx_.fs.Exists(paths_.Join(prefix, "pyvenv.cfg"))) {
      o.kind = "venv";
    } else if (ctx_.fs.IsDir(paths_.Join(prefix, "conda-meta"))) {
      o.kind = "conda";
    } else {
      AddUserSite(PythonVersionOfPrefix(ctx_.fs, paths_, prefix).version, o);
    }
    AddPrefix(prefix, o);
  }

  void AddPathInterpreters() {
    auto path = ctx_.env.Get("PATH");
    if (!path) return;
    std::vector<std::string> names = paths_.windows() ? std::vector<std::string>{"python.exe", "python3.exe"}
                                                      : std::vector<std::string>{"python3", "python"};
    for (auto entry : Split(*path, paths_.ListSeparator())) {
      entry = Trim(entry);
      if (paths_.windows() && entry.size() >= 2 && entry.front() == '"' && entry.back() == '"')
        entry = entry.substr(1, entry.size() - 2);  // cmd's quoted entries ("C:\Program Files\x")
      if (!paths_.IsAbsolute(entry)) continue;
      std::string dir = paths_.Normalize(entry);
      for (const auto& name : names) {
        std::string exe = paths_.Join(dir, name);
        auto st = ctx_.fs.Stat(exe);
        if (!st.ok() || st->is_dir) continue;
        if (paths_.windows()) {
          AddWindowsInterpreter(dir, exe);
        } else {
          AddInterpreter(dir, exe);
        }
        break;  // python3 and python in one folder are the same environment
      }
    }
  }

  std::string PyenvRoot() const {
    if (auto r = ctx_.env.Get("PYENV_ROOT"); r && !r->empty() && r->front() == '/') return NormalizePath(*r);
    return home_.empty() ? "" : JoinPath(home_, ".pyenv");
  }

  void AddConda() {
    std::vector<std::string> bases;
    if (auto exe = EnvPath("CONDA_EXE")) bases.push_back(paths_.Parent(paths_.Parent(*exe)));
    if (auto root = EnvPath("MAMBA_ROOT_PREFIX")) bases.push_back(*root);
    if (!home_.empty()) {
      for (const char* name : {"miniconda3", "anaconda3", "miniforge3", "mambaforge", "micromamba", ".conda"})
        bases.push_back(paths_.Join(home_, name));
    }
    SiteOrigin o{"conda", "conda", "", "", false, false, false};
    for (const auto& base : bases) {
      if (ctx_.fs.IsDir(paths_.Join(base, "conda-meta"))) AddPrefix(base, o);
      std::string envs = paths_.Join(base, "envs");
      auto listing = ctx_.fs.ListDir(envs);
      if (!listing.ok()) continue;
      for (const auto& name : *listing) AddPrefix(paths_.Join(envs, name), o);
    }
    if (home_.empty()) return;
    std::string list = paths_.Join(home_, ".conda/environments.txt");
    if (!ctx_.fs.Exists(list)) return;
    auto text = ctx_.fs.ReadFile(list, kMaxConfigBytes);
    if (!text.ok()) {
      warnings_.push_back(text.error().message);
      return;
    }
    for (const auto& prefix : ParseCondaEnvironments(*text)) {
      if (paths_.IsAbsolute(prefix)) AddPrefix(paths_.Normalize(prefix), o);
    }
  }

  void AddPyenv() {
    std::string root = PyenvRoot();
    if (root.empty()) return;
    std::string versions = JoinPath(root, "versions");
    auto listing = ctx_.fs.ListDir(versions);
    if (!listing.ok()) return;
    SiteOrigin o{"pyenv", "pyenv", "", "", false, false, false};
    for (const auto& name : *listing) AddPrefix(JoinPath(versions, name), o);
  }

  // The interpreter that uses a system folder of Python version `v`: /usr/bin/pythonX.Y, else the one
  // in /usr/local/bin; "" when neither is there.
  std::string SystemInterpreter(const std::string& v) const {
    for (const char* dir : {"/usr/bin/", "/usr/local/bin/"}) {
      std::string p = std::string(dir) + (v.empty() ? "python3" : "python" + v);
      auto st = ctx_.fs.Stat(p);
      if (st.ok() && !st->is_dir) return p;
    }
    return "";
  }

  void AddStandardLocations() {
    SiteOrigin o{"user", "standard location", "", "", false, false, false};
    if (!home_.empty()) {
      for (const auto& [folder, version] : SitesOf(JoinPath(home_, ".local"), "")) {
        PythonSite s;
        s.site_packages = folder;
        s.prefix = JoinPath(home_, ".local");
        s.kind = "user";
        s.python_version = version;
        s.python_version_source = version.empty() ? "" : "lib folder";
        s.interpreter = SystemInterpreter(version);
        Add(std::move(s), o);
      }
    }
    o.kind = "system";
    std::string usr_version;
    if (auto v = PythonVersionFromFolder(BaseName(CanonicalPath(ctx_.fs, "/usr/bin/python3"))))
      usr_version = *v;
    for (const char* prefix : {"/usr/local", "/usr"}) {
      for (const auto& [folder, version] : SitesOf(prefix, "")) {
        PythonSite s;
        s.site_packages = folder;
        s.prefix = prefix;
        s.kind = "system";
        s.python_version = version.empty() ? usr_version : version;
        s.python_version_source =
            version.empty() ? (usr_version.empty() ? "" : "interpreter name") : "lib folder";
        s.interpreter = SystemInterpreter(s.python_version);
        Add(std::move(s), o);
      }
    }
  }

  const ProbeContext& ctx_;
  const PythonSearch& search_;
  std::vector<std::string>& warnings_;
  MachinePathStyle paths_;
  std::string home_;
  std::string cwd_;  // the current folder, normalized; "" when unknown
  std::vector<PythonSite> sites_;
  std::map<std::string, size_t> index_;
};

}  // namespace

std::string HomeFolder(const ProbeContext& ctx, bool windows) {
  if (windows) {
    auto profile = ctx.env.Get("USERPROFILE");
    if (profile && IsWindowsAbsolutePath(*profile)) return NormalizeWindowsPath(*profile);
    std::string drive_path = ctx.env.Get("HOMEDRIVE").value_or("") + ctx.env.Get("HOMEPATH").value_or("");
    return IsWindowsAbsolutePath(drive_path) ? NormalizeWindowsPath(drive_path) : "";
  }
  if (auto home = ctx.env.Get("HOME"); home && !home->empty() && home->front() == '/')
    return NormalizePath(*home);
  if (ctx.identity.uid && *ctx.identity.uid == 0) return "/root";
  if (!ctx.identity.user_name.empty()) return "/home/" + ctx.identity.user_name;
  return {};
}

std::vector<PythonSite> FindPythonSites(const ProbeContext& ctx, const PythonSearch& search,
                                        std::vector<std::string>& warnings) {
  return Finder(ctx, search, warnings).Run();
}

}  // namespace gpudoctor
