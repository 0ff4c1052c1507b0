// Holds a fix against the pins of the environment's project (pinned_fixes.h): the pins that would undo it
// become evidence and a first edit step, and a uv, poetry or conda project gets its own tool's command
// in place of pip's. Pure: everything comes from PythonEnv::project, which probe/common/project_probe.cpp
// filled from the files.
#include "rules/pinned_fixes.h"

#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "rules/shell.h"

namespace gpudoctor {
namespace {

enum class FileKind { kRequirements, kPyproject, kUvLock, kPoetryLock, kConda };

std::string FileName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

FileKind KindOf(const std::string& path) {
  const std::string name = ToLower(FileName(path));
  if (name == "pyproject.toml") return FileKind::kPyproject;
  if (name == "uv.lock") return FileKind::kUvLock;
  if (name == "poetry.lock") return FileKind::kPoetryLock;
  if (name == "environment.yml" || name == "environment.yaml") return FileKind::kConda;
  return FileKind::kRequirements;  // requirements*.txt and the files their -r / -c lines name
}

bool IsLock(FileKind k) {
  return k == FileKind::kUvLock || k == FileKind::kPoetryLock;
}

std::string NoSlash(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

// "==2.7.1+cpu" -> "cpu".
std::string SpecLocalTag(const std::string& spec) {
  size_t plus = spec.find('+');
  if (plus == std::string::npos) return "";
  size_t end = spec.find_first_of(",;) ", plus);
  return spec.substr(plus + 1, end == std::string::npos ? std::string::npos : end - plus - 1);
}

// "==2.7.1+cpu" -> "2.7.1"; conda's "=2.1.0" too; "" for anything but one exact version.
std::string ExactVersion(const std::string& spec) {
  if (spec.empty() || spec[0] != '=' || spec.find(',') != std::string::npos) return "";
  std::string v = spec.substr(spec.find_first_not_of('='));
  return v.substr(0, v.find('+'));
}

// The command that reads the file again: "pip install -r requirements.txt", "uv sync".
std::string NextInstall(const ProjectPin& pin, const std::string& manager) {
  switch (KindOf(pin.file)) {
    case FileKind::kRequirements:
      return "pip install -r " + FileName(pin.file);
    case FileKind::kUvLock:
      return "uv sync";
    case FileKind::kPoetryLock:
      return "poetry install";
    case FileKind::kConda:
      return "conda env update";
    case FileKind::kPyproject:
      break;
  }
  if (manager == "uv") return "uv sync";
  if (manager == "poetry") return "poetry install";
  return "pip install .";
}

std::string IndexName(const FixInstall& in) {
  return "pytorch-" + (in.variant.empty() ? std::string("gpu") : in.variant);
}

// Poetry's form of a requirement's version: "xformers==0.0.29.post3" -> "0.0.29.post3"; "*" for any.
std::string PoetryVersion(const std::string& write) {
  size_t eq = write.find("==");
  if (eq != std::string::npos) return write.substr(eq + 2);
  size_t op = write.find_first_of("<>=!~");
  return op == std::string::npos ? "*" : write.substr(op);
}

// Told once per file: where the index a pyproject.toml names for the fix is defined.
bool FirstTell(const ProjectPin& pin, std::vector<std::string>& told) {
  if (std::find(told.begin(), told.end(), pin.file) != told.end()) return false;
  told.push_back(pin.file);
  return true;
}

std::string PyprojectEdit(const ProjectPin& pin, const FixInstall& in, const std::string& manager,
                          std::vector<std::string>& index_told) {
  const std::string name = IndexName(in);
  if (manager == "uv" && !in.index_url.empty()) {
    // A [tool.uv.sources] line ("torch = { index = ... }" or one entry of its list) names the index; a
    // dependency line gets its source beside it.
    const bool source_line = pin.spec.empty() && pin.text.find('{') != std::string::npos;
    const bool keyed = StartsWith(pin.text, in.package);
    std::string what = source_line ? "write `" + std::string(keyed ? in.package + " = " : "") +
                                         "{ index = \"" + name + "\" }" + (keyed ? "" : ",") + "` there"
                                   : "write `\"" + in.write + "\",` there, and `" + in.package +
                                         " = { index = \"" + name + "\" }` under [tool.uv.sources]";
    if (FirstTell(pin, index_told))
      what += "; define that index once: `[[tool.uv.index]] name = \"" + name + "\", url = \"" +
              in.index_url + "\", explicit = true`";
    return what;
  }
  if (manager == "poetry") {
    if (in.index_url.empty()) return "write `" + in.package + " = \"" + PoetryVersion(in.write) + "\"` there";
    std::string what = "write `" + in.package + " = { version = \"" + PoetryVersion(in.write) +
                       "\", source = \"" + name + "\" }` there";
    if (FirstTell(pin, index_told))
      what += "; define that source once: `[[tool.poetry.source]] name = \"" + name + "\", url = \"" +
              in.index_url + "\", priority = \"explicit\"`";
    return what;
  }
  return "write `\"" + in.write + "\",` there" +
         (in.index_url.empty()
              ? ""
              : ", and install it from " + in.index_url + " (pip reads no index from pyproject.toml)");
}

// The manual step for one pin: which line, and what to write there. `index_told`: the files whose index
// line an earlier step already changed (a requirements file's index applies to all its lines).
std::string EditStep(const ProjectPin& pin, const FixInstall& in, const std::string& manager,
                     std::vector<std::string>& index_told) {
  std::string what;
  const FileKind kind = KindOf(pin.file);
  const bool same_index = NoSlash(pin.index_url) == NoSlash(in.index_url);
  if (in.write.empty()) {
    what =
        "delete the line, or the next `" + NextInstall(pin, manager) + "` installs " + in.package + " again";
  } else if (kind == FileKind::kPyproject) {
    what = PyprojectEdit(pin, in, manager, index_told);
  } else if (kind == FileKind::kConda && StartsWith(pin.text, "-")) {
    what = "delete the line and list `" + in.write + "` among the file's `- pip:` entries" +
           (in.index_url.empty() ? "" : ", with `- --index-url " + in.index_url + "` there");
  } else {
    what = "write `" + in.write + "` there";
    if (!in.index_url.empty() && !same_index && FirstTell(pin, index_told)) {
      const std::string line = kind == FileKind::kConda ? "- --index-url " : "--index-url ";
      what += pin.index_url.empty()
                  ? ", and `" + line + in.index_url + "` on a line of its own"
                  : ", and in the file's index line (--index-url or --extra-index-url) replace " +
                        pin.index_url + " with " + in.index_url;
    }
  }
  return "edit " + pin.file + " line " + std::to_string(pin.line) + " (`" + pin.text + "`): " + what;
}

ShellCommands InFolder(const std::string& head, const std::string& dir, const std::string& tail) {
  return {head + QuoteBash(dir) + tail, head + QuotePowerShell(dir) + tail, head + "\"" + dir + "\"" + tail};
}

bool IsPip(const FixAction& a) {
  return a.kind == FixAction::Kind::kCommand && a.commands.bash.find(" -m pip ") != std::string::npos;
}

// The project tool's commands that replace the fix's pip commands; none when pip stays.
std::vector<ShellCommands> ManagerCommands(const PythonEnv& env, const std::vector<FixInstall>& installs,
                                           const std::vector<const ProjectPin*>& pins) {
  const PythonProject& p = *env.project;
  std::string upgrade, remove;
  for (const auto& in : installs) (in.write.empty() ? remove : upgrade) += " " + in.package;
  if (p.manager == "uv") {
    // uv sync installs into the project's own .venv: only when that is the environment being fixed.
    if (env.path != p.folder + "/.venv" && env.path != p.folder + "\\.venv") return {};
    std::string flags;
    for (const auto& in : installs)
      if (!in.write.empty()) flags += " --upgrade-package " + in.package;
    return {InFolder("uv sync --project ", p.folder, flags)};
  }
  if (p.manager == "poetry") {
    std::vector<ShellCommands> out;
    if (!upgrade.empty()) out.push_back(InFolder("poetry --directory ", p.folder, " update" + upgrade));
    if (!remove.empty()) {
      out.push_back(InFolder("poetry --directory ", p.folder, " lock"));
      out.push_back(InFolder("poetry --directory ", p.folder, " install --sync"));
    }
    return out;
  }
  if (p.manager == "conda" && env.kind == "conda") {
    for (const ProjectPin* pin : pins) {
      if (KindOf(pin->file) != FileKind::kConda) continue;
      ShellCommands c = InFolder("conda env update --prefix ", env.path, " --file ");
      c.bash += QuoteBash(pin->file) + " --prune";
      c.powershell += QuotePowerShell(pin->file) + " --prune";
      c.cmd += "\"" + pin->file + "\" --prune";
      return {c};
    }
  }
  return {};
}

// A package only a lock file holds on the old index (pyproject.toml names no source for it): re-locking
// alone would pick the same index again, so the project file gets a source for it first.
void LockOnlyPins(const PythonProject& p, const std::vector<FixInstall>& installs,
                  const std::vector<const ProjectPin*>& in_the_way, std::vector<std::string>& index_told,
                  std::vector<FixAction>& edits) {
  if (p.manager != "uv" && p.manager != "poetry") return;
  std::vector<std::string> done;
  for (const ProjectPin* pin : in_the_way) {
    if (!IsLock(KindOf(pin->file)) || std::find(done.begin(), done.end(), pin->package) != done.end())
      continue;
    done.push_back(pin->package);
    const bool edited = std::any_of(in_the_way.begin(), in_the_way.end(), [&](const ProjectPin* other) {
      return other->package == pin->package && !IsLock(KindOf(other->file));
    });
    auto in = std::find_if(installs.begin(), installs.end(),
                           [&](const FixInstall& i) { return i.package == pin->package; });
    if (edited || in == installs.end() || in->index_url.empty()) continue;
    ProjectPin project_file{p.folder + (p.folder.find('\\') != std::string::npos ? "\\" : "/") +
                            "pyproject.toml"};
    const std::string name = IndexName(*in);
    std::string what = p.manager == "uv"
                           ? "`" + in->package + " = { index = \"" + name + "\" }` under [tool.uv.sources]"
                           : "`" + in->package + " = { version = \"*\", source = \"" + name +
                                 "\" }` under [tool.poetry.dependencies]";
    if (FirstTell(project_file, index_told))
      what += p.manager == "uv" ? "; define that index once: `[[tool.uv.index]] name = \"" + name +
                                      "\", url = \"" + in->index_url + "\", explicit = true`"
                                : "; define that source once: `[[tool.poetry.source]] name = \"" + name +
                                      "\", url = \"" + in->index_url + "\", priority = \"explicit\"`";
    edits.push_back(FixAction::Manual("in " + project_file.file + " take " + in->package + " from " +
                                      in->index_url + ": " + what));
  }
}

}  // namespace

std::string IndexUrlOf(const std::string& command) {
  for (const char* flag : {"--index-url ", "--extra-index-url "}) {
    size_t at = command.find(flag);
    if (at == std::string::npos) continue;
    std::string rest = command.substr(at + std::char_traits<char>::length(flag));
    return rest.substr(0, rest.find(' '));
  }
  return "";
}

bool PinInTheWay(const ProjectPin& pin, const FixInstall& in) {
  if (pin.package != in.package) return false;
  if (in.write.empty()) return true;
  // A URL, or a conda package that selects the build ("cpuonly", "pytorch-cuda=12.1").
  if (StartsWith(pin.spec, "@") ||
      (!pin.spec.empty() && std::isalpha(static_cast<unsigned char>(pin.spec[0]))))
    return true;
  if (!in.index_url.empty() && !pin.index_url.empty() && NoSlash(pin.index_url) != NoSlash(in.index_url))
    return true;
  const std::string tag = SpecLocalTag(pin.spec);
  if (!tag.empty() && tag != in.variant) return true;
  const std::string exact = ExactVersion(pin.spec);
  if (exact.empty()) return false;
  if (EndsWith(in.version, ".*"))  // a release series: "0.22.*" takes 0.22.1
    return !StartsWith(exact + ".", in.version.substr(0, in.version.size() - 1));
  return in.version.empty() || exact != in.version;
}

void ApplyProjectPins(const PythonEnv* env, const std::vector<FixInstall>& installs,
                      const std::string& wanted, Finding& f) {
  if (!env || !env->project) return;
  const PythonProject& p = *env->project;
  std::vector<FixAction> edits;
  std::vector<const ProjectPin*> in_the_way;
  std::vector<std::string> index_told;
  for (const auto& pin : p.pins) {
    auto in = std::find_if(installs.begin(), installs.end(),
                           [&](const FixInstall& i) { return PinInTheWay(pin, i); });
    if (in == installs.end()) continue;
    in_the_way.push_back(&pin);
    f.evidence.push_back("required " + wanted + ", found " + pin.file + ":" + std::to_string(pin.line) +
                         " pins `" + pin.text + "`" +
                         (pin.index_url.empty() ? "" : " (index " + pin.index_url + ")") + ": the next `" +
                         NextInstall(pin, p.manager) + "` puts it back");
    if (!IsLock(KindOf(pin.file)))
      edits.push_back(FixAction::Manual(EditStep(pin, *in, p.manager, index_told)));
  }
  if (in_the_way.empty()) return;
  LockOnlyPins(p, installs, in_the_way, index_told, edits);
  std::vector<ShellCommands> own = ManagerCommands(*env, installs, in_the_way);
  if (!own.empty()) {
    auto first = std::find_if(f.fix.begin(), f.fix.end(), IsPip);
    size_t at = static_cast<size_t>(first - f.fix.begin());
    f.fix.erase(std::remove_if(f.fix.begin(), f.fix.end(), IsPip), f.fix.end());
    at = std::min(at, f.fix.size());
    for (auto it = own.rbegin(); it != own.rend(); ++it)
      f.fix.insert(f.fix.begin() + static_cast<std::ptrdiff_t>(at), FixAction::PerShell(*it));
  }
  f.fix.insert(f.fix.begin(), edits.begin(), edits.end());
  const ProjectPin& first = *in_the_way.front();
  f.fix_summary += (f.fix_summary.empty() ? "" : "; ") + std::string("first change the project's pin (") +
                   FileName(first.file) + ":" + std::to_string(first.line) + "), or the next `" +
                   NextInstall(first, p.manager) + "` undoes the fix";
}

}  // namespace gpudoctor
