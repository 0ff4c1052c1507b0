// Reads an environment's Python version from its root folder (python_prefix_version.h).
#include "probe/common/python_prefix_version.h"

#include "core/strings.h"
#include "probe/common/python_text_files.h"

namespace gpudoctor {
namespace {

constexpr size_t kMaxPrefixConfigBytes = 64 * 1024;

// conda-meta/python-3.12.4-h14ffc60_0.json -> "3.12" (python_abi-*, python-dateutil-* are other packages).
std::string CondaMetaVersion(const FileSystem& fs, const MachinePathStyle& paths, std::string_view prefix) {
  auto listing = fs.ListDir(paths.Join(prefix, "conda-meta"));
  if (!listing.ok()) return {};
  for (const auto& name : *listing) {
    if (!StartsWith(name, "python-") || !EndsWith(name, ".json")) continue;
    std::string_view rest = std::string_view(name).substr(7);
    if (rest.empty() || rest.front() < '0' || rest.front() > '9') continue;
    if (auto v = PythonMajorMinor(rest.substr(0, rest.find('-')))) return *v;
  }
  return {};
}

std::string InterpreterFilesVersion(const FileSystem& fs, std::string_view prefix) {
  auto listing = fs.ListDir(prefix);
  if (!listing.ok()) return {};
  for (const auto& name : *listing) {
    if (!EndsWith(ToLower(name), ".dll") && !EndsWith(ToLower(name), "._pth") &&
        !EndsWith(ToLower(name), ".zip"))
      continue;
    if (auto v = PythonVersionFromWindowsName(name)) return *v;
  }
  return {};
}

}  // namespace

PrefixPythonVersion PythonVersionOfPrefix(const FileSystem& fs, const MachinePathStyle& paths,
                                          std::string_view prefix) {
  std::string cfg = paths.Join(prefix, "pyvenv.cfg");
  if (fs.Exists(cfg)) {
    if (auto text = fs.ReadFile(cfg, kMaxPrefixConfigBytes); text.ok()) {
      std::string v = ParsePyvenvConfig(*text).python_version;
      if (!v.empty()) return {v, "pyvenv.cfg"};
    }
  }
  if (std::string v = CondaMetaVersion(fs, paths, prefix); !v.empty()) return {v, "conda-meta"};
  if (paths.windows()) {
    if (std::string v = InterpreterFilesVersion(fs, prefix); !v.empty()) return {v, "python DLL"};
  }
  return {};
}

}  // namespace gpudoctor
