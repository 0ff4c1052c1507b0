// A WindowsSystemSource built in code for the Windows probe tests: registry keys and values, DXGI
// adapters, system facts and file versions set by the test, looked up without case like Windows.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/strings.h"
#include "platform/windows_system.h"
#include "probe/windows/recorded_windows_json.h"

namespace gpudoctor::testing_windows {

class FakeWindowsSource final : public WindowsSystemSource {
 public:
  WindowsSystemFacts facts;
  DxgiAdapters dxgi;
  std::map<std::string, WindowsFileInfo> files;  // FileLookupKey -> info

  // "HKLM\\A\\B" -> values by name; parents need not be set.
  void Set(const std::string& key, const std::string& name, RegistryValue value) {
    keys_[Lookup(key)].path = key;
    keys_[Lookup(key)].values[ToLower(name)] = {name, std::move(value)};
  }
  void Key(const std::string& key) { keys_[Lookup(key)].path = key; }
  void File(const std::string& path, const std::string& version) { files[FileLookupKey(path)] = {version}; }

  WindowsSystemFacts System() const override { return facts; }
  DxgiAdapters Adapters() const override { return dxgi; }
  Result<std::vector<std::string>> RegistrySubkeys(RegistryRoot root, std::string_view path) const override {
    std::string key = RegistryLookupKey(root, path);
    std::vector<std::string> out;
    bool exists = keys_.count(key) > 0;
    for (const auto& [k, v] : keys_) {
      if (k.size() <= key.size() + 1 || k.compare(0, key.size() + 1, key + "\\") != 0) continue;
      exists = true;
      std::string rest = v.path.substr(v.path.size() - (k.size() - key.size() - 1));
      std::string child = rest.substr(0, rest.find('\\'));
      bool seen = false;
      for (const auto& o : out) seen |= ToLower(o) == ToLower(child);
      if (!seen) out.push_back(child);
    }
    if (!exists) return EnvError("no key " + key);
    return out;
  }
  std::optional<RegistryValue> ReadRegistry(RegistryRoot root, std::string_view path,
                                            std::string_view name) const override {
    auto k = keys_.find(RegistryLookupKey(root, path));
    if (k == keys_.end()) return std::nullopt;
    auto v = k->second.values.find(ToLower(name));
    if (v == k->second.values.end()) return std::nullopt;
    return v->second.second;
  }
  std::optional<WindowsFileInfo> FileInfo(std::string_view path) const override {
    auto it = files.find(FileLookupKey(path));
    if (it == files.end()) return std::nullopt;
    return it->second;
  }

 private:
  static std::string Lookup(const std::string& full) {
    size_t sep = full.find('\\');
    RegistryRoot root =
        ToLower(full.substr(0, sep)) == "hkcu" ? RegistryRoot::kCurrentUser : RegistryRoot::kLocalMachine;
    return RegistryLookupKey(root, sep == std::string::npos ? "" : full.substr(sep + 1));
  }
  std::map<std::string, RecordedRegistryKey> keys_;
};

}  // namespace gpudoctor::testing_windows
