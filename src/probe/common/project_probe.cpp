// Finds each Python environment's project pin files (project_probe.h) and reads them with
// project_pins.h. A requirements file's -r / -c includes are followed one level; every file is read once
// however many environments it belongs to.
#include "probe/common/project_probe.h"

#include <algorithm>
#include <map>

#include "knowledge/knowledge_db.h"
#include "probe/common/machine_path_style.h"
#include "probe/common/project_pins.h"
#include "probe/common/python_env_finder.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxPinFileBytes = 1 << 20;
constexpr size_t kMaxParents = 32;

struct ReadFile {
  std::string path;
  PinFileKind kind = PinFileKind::kRequirements;
  PinFileContents contents;
};

class ProjectReader {
 public:
  ProjectReader(const ProbeContext& ctx, const MachinePathStyle& paths, std::vector<std::string> wanted,
                std::vector<std::string>& warnings)
      : ctx_(ctx), paths_(paths), wanted_(std::move(wanted)), warnings_(warnings) {}

  // The pin files of `folder`, in name order.
  const std::vector<ReadFile>& Folder(const std::string& folder) {
    auto it = folders_.find(folder);
    if (it != folders_.end()) return it->second;
    std::vector<ReadFile>& files = folders_[folder];
    auto names = ctx_.fs.ListDir(folder);
    if (!names.ok()) return files;
    std::vector<std::string> sorted = *names;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& name : sorted) {
      auto kind = PinFileKindOf(name);
      if (!kind) continue;
      std::string path = paths_.Join(folder, name);
      if (!Read(path, *kind, files)) continue;
      if (*kind != PinFileKind::kRequirements) continue;
      // One level of -r / -c: the files they name are read, their own includes are not.
      std::vector<std::string> includes = files.back().contents.includes;
      for (const auto& inc : includes) Read(paths_.Absolute(folder, inc), PinFileKind::kRequirements, files);
    }
    return files;
  }

 private:
  bool Read(const std::string& path, PinFileKind kind, std::vector<ReadFile>& files) {
    for (const auto& f : files)
      if (f.path == path) return false;
    auto st = ctx_.fs.Stat(path);
    if (!st.ok() || st->is_dir) return false;
    auto text = ctx_.fs.ReadFile(path, kMaxPinFileBytes);
    if (!text.ok()) {
      warnings_.push_back(path + ": could not be read: " + text.error().message);
      return false;
    }
    ReadFile f{path, kind, ParsePinFile(kind, path, *text, wanted_)};
    for (const auto& w : f.contents.warnings) warnings_.push_back(w);
    files.push_back(std::move(f));
    return true;
  }

  const ProbeContext& ctx_;
  const MachinePathStyle& paths_;
  std::vector<std::string> wanted_;
  std::vector<std::string>& warnings_;
  std::map<std::string, std::vector<ReadFile>> folders_;
};

// Who installs from a file, ranked uv > poetry > conda > pip: the tool whose files say most precisely
// what gets installed wins where a folder holds several. 0: none.
struct Manager {
  int rank = 0;
  const char* name = "";
};
Manager ManagerOf(const ReadFile& f) {
  if (f.kind == PinFileKind::kUvLock || (f.kind == PinFileKind::kPyproject && f.contents.uv))
    return {4, "uv"};
  if (f.kind == PinFileKind::kPoetryLock || (f.kind == PinFileKind::kPyproject && f.contents.poetry))
    return {3, "poetry"};
  if (f.kind == PinFileKind::kCondaEnvironment) return {2, "conda"};
  if (f.kind == PinFileKind::kRequirements) return {1, "pip"};
  return {};
}

std::optional<PythonProject> Project(ProjectReader& reader, const std::vector<std::string>& folders) {
  PythonProject p;
  for (const auto& folder : folders) {
    Manager best;
    for (const auto& f : reader.Folder(folder)) {
      p.files.push_back(f.path);
      p.pins.insert(p.pins.end(), f.contents.pins.begin(), f.contents.pins.end());
      if (Manager m = ManagerOf(f); m.rank > best.rank) best = m;
    }
    if (p.folder.empty() && best.rank > 0) {  // the nearest folder with pin files says who manages them
      p.folder = folder;
      p.manager = best.name;
    }
  }
  if (p.files.empty()) return std::nullopt;
  return p;
}

bool FoundHere(const PythonEnv& env) {
  return env.active ||
         std::find(env.found_by.begin(), env.found_by.end(), "current folder") != env.found_by.end();
}

}  // namespace

std::vector<std::string> PinnedPackages(const KnowledgeDb* db) {
  std::vector<std::string> out = {"torch", "torchvision", "torchaudio"};
  if (!db) return out;
  for (const auto& a : db->addon_libraries) {
    for (const auto& d : a.distributions) out.push_back(d);
    for (const auto& d : a.shadowed_by) out.push_back(d);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void ProbeProjects(const ProbeContext& ctx, Snapshot& snap) {
  if (snap.python_envs.empty()) return;
  const bool windows = snap.os.family == OsFamily::kWindows;
  MachinePathStyle paths(windows);
  const std::string home = HomeFolder(ctx, windows);
  // The current folder and its parents, up to the home folder (or the root).
  std::vector<std::string> here;
  if (paths.IsAbsolute(ctx.cwd)) {
    for (std::string dir = paths.Normalize(ctx.cwd); !dir.empty() && here.size() < kMaxParents;) {
      here.push_back(dir);
      std::string parent = paths.Parent(dir);
      if (parent == dir || (!home.empty() && paths.SameName(dir, paths.Normalize(home))))
        break;  // home: last
      dir = parent;
    }
  }
  const bool any_here = std::any_of(snap.python_envs.begin(), snap.python_envs.end(), FoundHere);
  ProjectReader reader(ctx, paths, PinnedPackages(ctx.db), snap.warnings);
  for (size_t i = 0; i < snap.python_envs.size(); ++i) {
    PythonEnv& env = snap.python_envs[i];
    std::vector<std::string> folders;
    const std::string base = paths.Base(env.path);
    if (env.kind == "venv" && (base == ".venv" || base == "venv")) folders.push_back(paths.Parent(env.path));
    if (FoundHere(env) || (!any_here && i == 0)) {
      for (const auto& dir : here)
        if (std::find(folders.begin(), folders.end(), dir) == folders.end()) folders.push_back(dir);
    }
    env.project = Project(reader, folders);
  }
}

}  // namespace gpudoctor
