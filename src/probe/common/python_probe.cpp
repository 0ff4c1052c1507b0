// Finds Python environments and their PyTorch by reading torch/version.py under the usual
// site-packages folders: no interpreter is started (importing torch takes seconds; knowledge-facts 4.4
// describes the file). Every path goes through the sysroot's FileSystem.
#include "probe/common/python_probe.h"

#include <algorithm>
#include <set>
#include <vector>

#include "core/strings.h"

namespace gpudoctor {
namespace {

// `name = 'value'`, `name: Optional[str] = "value"` or `name = None` -> value ("" for None);
// nullopt when the line does not assign `name` that way.
std::optional<std::string> AssignedString(std::string_view line, std::string_view name) {
  line = Trim(line);
  if (!StartsWith(line, name)) return std::nullopt;
  std::string_view rest = line.substr(name.size());
  // The name must end here: `cuda_version = ...` is not `cuda`.
  if (!rest.empty() && rest.front() != ' ' && rest.front() != '=' && rest.front() != ':') return std::nullopt;
  size_t eq = rest.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  std::string_view annotation = Trim(rest.substr(0, eq));
  if (!annotation.empty() && annotation.front() != ':') return std::nullopt;
  std::string_view value = Trim(rest.substr(eq + 1));
  if (value == "None" || StartsWith(value, "None ") || StartsWith(value, "None#")) return std::string();
  if (value.size() < 2) return std::nullopt;
  char quote = value.front();
  if (quote != '\'' && quote != '"') return std::nullopt;
  size_t close = value.find(quote, 1);
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view inner = value.substr(1, close - 1);
  if (inner.size() > 128 || inner.find('\\') != std::string_view::npos) return std::nullopt;
  return std::string(inner);
}

struct Candidate {
  std::string prefix;         // the environment ("/home/alice/.venv")
  std::string kind;           // venv, conda, user, system
  std::string lib_dir;        // where pythonX.Y folders live ("/home/alice/.venv/lib")
  std::string packages_name;  // "site-packages" or "dist-packages"
  std::string fixed_folder;   // a site-packages folder without a version in its path ("" when none)
};

std::string HomeFolder(const ProbeContext& ctx) {
  if (auto home = ctx.env.Get("HOME"); home && !home->empty() && home->front() == '/') return *home;
  if (ctx.identity.uid && *ctx.identity.uid == 0) return "/root";
  if (!ctx.identity.user_name.empty()) return "/home/" + ctx.identity.user_name;
  return {};
}

std::vector<Candidate> Candidates(const ProbeContext& ctx) {
  std::vector<Candidate> out;
  auto env_prefix = [&](const char* var, const char* kind) {
    auto v = ctx.env.Get(var);
    if (!v || v->empty() || v->front() != '/') return;
    out.push_back({*v, kind, JoinPath(*v, "lib"), "site-packages", ""});
  };
  env_prefix("VIRTUAL_ENV", "venv");
  env_prefix("CONDA_PREFIX", "conda");
  std::string home = HomeFolder(ctx);
  if (!home.empty()) {
    std::string venv = JoinPath(home, ".venv");
    out.push_back({venv, "venv", JoinPath(venv, "lib"), "site-packages", ""});
    out.push_back({JoinPath(home, ".local"), "user", JoinPath(home, ".local/lib"), "site-packages", ""});
  }
  out.push_back({"/usr/local", "system", "/usr/local/lib", "dist-packages", ""});
  out.push_back({"/usr", "system", "/usr/lib", "", "/usr/lib/python3/dist-packages"});
  return out;
}

// The site-packages folders of one candidate, newest Python first.
std::vector<std::pair<std::string, std::string>> PackageFolders(const ProbeContext& ctx, const Candidate& c) {
  std::vector<std::pair<std::string, std::string>> out;  // (folder, python version)
  if (!c.fixed_folder.empty()) {
    if (ctx.fs.IsDir(c.fixed_folder)) out.emplace_back(c.fixed_folder, "");
    return out;
  }
  auto listing = ctx.fs.ListDir(c.lib_dir);
  if (!listing.ok()) return out;
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& name : *listing) {
    auto version = PythonVersionFromFolder(name);
    if (!version) continue;
    std::string folder = JoinPath(JoinPath(c.lib_dir, name), c.packages_name);
    if (ctx.fs.IsDir(folder)) found.emplace_back(folder, *version);
  }
  // "3.12" after "3.9": compare as versions, newest first.
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    auto pa = Split(a.second, '.'), pb = Split(b.second, '.');
    auto num = [](std::string_view s) { return ParseU64(s).value_or(0); };
    if (num(pa[0]) != num(pb[0])) return num(pa[0]) > num(pb[0]);
    return num(pa[1]) > num(pb[1]);
  });
  return found;
}

}  // namespace

std::optional<TorchVersionFile> ParseTorchVersionFile(std::string_view text) {
  TorchVersionFile out;
  bool have_version = false;
  for (std::string_view line : SplitLines(text)) {
    if (auto v = AssignedString(line, "__version__")) {
      if (v->empty()) continue;
      out.version = *v;
      have_version = true;
    } else if (auto c = AssignedString(line, "cuda")) {
      out.cuda = *c;
    } else if (auto h = AssignedString(line, "hip")) {
      out.hip = *h;
    }
  }
  if (!have_version) return std::nullopt;
  return out;
}

std::optional<std::string> PythonVersionFromFolder(std::string_view name) {
  if (!StartsWith(name, "python")) return std::nullopt;
  std::string_view v = name.substr(6);
  auto parts = Split(v, '.');
  if (parts.size() != 2) return std::nullopt;
  for (auto p : parts) {
    if (p.empty() || p.size() > 3 || !ParseU64(p)) return std::nullopt;
  }
  return std::string(v);
}

void ProbePythonEnvs(const ProbeContext& ctx, Snapshot& snap) {
  std::set<std::string> seen;
  for (const Candidate& c : Candidates(ctx)) {
    for (const auto& [folder, python] : PackageFolders(ctx, c)) {
      if (!seen.insert(folder).second) continue;
      snap.looked_at.push_back(folder + " (torch/version.py)");
      PythonEnv env;
      env.path = c.prefix;
      env.kind = c.kind;
      env.python_version = python;
      env.site_packages = folder;
      std::string torch_dir = JoinPath(folder, "torch");
      std::string version_py = JoinPath(torch_dir, "version.py");
      if (ctx.fs.Exists(version_py)) {
        auto text = ctx.fs.ReadFile(version_py, 64 * 1024);
        if (!text.ok()) {
          snap.warnings.push_back(text.error().message);
        } else if (auto parsed = ParseTorchVersionFile(*text)) {
          env.torch = TorchInstall{parsed->version, parsed->cuda, parsed->hip, torch_dir};
        } else {
          snap.warnings.push_back(version_py + " has no __version__ line");
        }
      }
      // Environments without torch matter only when active; system folders are listed when they hold torch.
      bool active =
          c.kind == "venv" ? c.prefix == ctx.env.Get("VIRTUAL_ENV").value_or("") : c.kind == "conda";
      if (env.torch || active) snap.python_envs.push_back(std::move(env));
    }
  }
}

}  // namespace gpudoctor
