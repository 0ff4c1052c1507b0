// The replay side of the Windows facts: registry keys, DXGI adapters, system facts and file versions
// read from the recorded JSON files, looked up without case as Windows does.
#include "probe/windows/recorded_windows_source.h"

#include <algorithm>
#include <map>

#include "probe/windows/recorded_windows_json.h"

namespace gpudoctor {
namespace {

class RecordedWindowsSource final : public WindowsSystemSource {
 public:
  WindowsSystemFacts facts;
  DxgiAdapters dxgi;
  RecordedRegistry registry;
  std::map<std::string, WindowsFileInfo> files;

  WindowsSystemFacts System() const override { return facts; }
  DxgiAdapters Adapters() const override { return dxgi; }

  Result<std::vector<std::string>> RegistrySubkeys(RegistryRoot root, std::string_view path) const override {
    const std::string key = RegistryLookupKey(root, path);
    const std::string prefix = key + "\\";
    std::vector<std::string> out;
    std::vector<std::string> seen;  // lower-case names already listed
    bool exists = registry.keys.count(key) > 0;
    for (auto it = registry.keys.lower_bound(prefix); it != registry.keys.end(); ++it) {
      if (it->first.compare(0, prefix.size(), prefix) != 0) break;
      exists = true;
      std::string lower_child = it->first.substr(prefix.size());
      lower_child = lower_child.substr(0, lower_child.find('\\'));
      if (std::find(seen.begin(), seen.end(), lower_child) != seen.end()) continue;
      seen.push_back(lower_child);
      // The child's name as written: the component of the recorded path at the child's depth.
      size_t depth = static_cast<size_t>(std::count(key.begin(), key.end(), '\\')) + 1;
      std::vector<std::string> parts;
      std::string part;
      for (char c : it->second.path + "\\") {
        if (c == '\\' || c == '/') {
          if (!part.empty()) parts.push_back(part);
          part.clear();
        } else {
          part += c;
        }
      }
      out.push_back(depth < parts.size() ? parts[depth] : lower_child);
    }
    if (!exists) return EnvError(std::string(ToString(root)) + "\\" + std::string(path) + ": not recorded");
    return out;
  }

  std::optional<RegistryValue> ReadRegistry(RegistryRoot root, std::string_view path,
                                            std::string_view name) const override {
    auto key = registry.keys.find(RegistryLookupKey(root, path));
    if (key == registry.keys.end()) return std::nullopt;
    auto value = key->second.values.find(ToLowerAscii(name));
    if (value == key->second.values.end()) return std::nullopt;
    return value->second.second;
  }

  std::optional<WindowsFileInfo> FileInfo(std::string_view path) const override {
    auto it = files.find(FileLookupKey(path));
    if (it == files.end()) return std::nullopt;
    return it->second;
  }

 private:
  static std::string ToLowerAscii(std::string_view s) {
    std::string out(s);
    for (char& c : out)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return out;
  }
};

std::optional<std::string> ReadRecorded(const FileSystem& fs, const char* name, bool required,
                                        std::vector<std::string>& warnings) {
  std::string path = std::string(kRecordedWindowsDir) + "/" + name;
  if (!fs.Exists(path)) {
    if (required) warnings.push_back("no recorded " + path);
    return std::nullopt;
  }
  auto text = fs.ReadFile(path, 16 << 20);
  if (!text.ok()) {
    warnings.push_back(text.error().message);
    return std::nullopt;
  }
  return std::move(text).value();
}

template <typename T>
void Take(Result<T> parsed, T& into, const char* name, std::vector<std::string>& problems,
          std::vector<std::string>& warnings) {
  for (const auto& p : problems) warnings.push_back(std::string(kRecordedWindowsDir) + "/" + name + ": " + p);
  problems.clear();
  if (!parsed.ok()) {
    warnings.push_back(std::string(kRecordedWindowsDir) + "/" + name + ": " + parsed.error().message);
    return;
  }
  into = std::move(parsed).value();
}

}  // namespace

bool HasRecordedWindows(const FileSystem& fs) {
  return fs.Exists(std::string(kRecordedWindowsDir) + "/os.json");
}

std::unique_ptr<WindowsSystemSource> LoadRecordedWindowsSource(const FileSystem& fs,
                                                               std::vector<std::string>& warnings) {
  auto source = std::make_unique<RecordedWindowsSource>();
  std::vector<std::string> problems;
  if (auto text = ReadRecorded(fs, "os.json", true, warnings))
    Take(ParseRecordedOs(*text, problems), source->facts, "os.json", problems, warnings);
  if (auto text = ReadRecorded(fs, "dxgi.json", false, warnings)) {
    Take(ParseRecordedDxgi(*text, problems), source->dxgi, "dxgi.json", problems, warnings);
  } else {
    source->dxgi.error = "not recorded";
  }
  if (auto text = ReadRecorded(fs, "registry.json", true, warnings))
    Take(ParseRecordedRegistry(*text, problems), source->registry, "registry.json", problems, warnings);
  if (auto text = ReadRecorded(fs, "files.json", false, warnings))
    Take(ParseRecordedFiles(*text, problems), source->files, "files.json", problems, warnings);
  return source;
}

}  // namespace gpudoctor
