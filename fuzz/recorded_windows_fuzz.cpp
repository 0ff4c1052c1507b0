// libFuzzer target: the readers of a recorded Windows machine (.gpudoctor/windows/os.json, dxgi.json,
// registry.json, files.json; probe/windows/recorded_windows_json.h) on arbitrary bytes. Whatever
// parses must write back to JSON that parses again. Seeds: fuzz/seeds/recorded_windows_fuzz.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "probe/windows/recorded_windows_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> problems;
  if (auto os = ParseRecordedOs(text, problems); os.ok()) {
    if (!ParseRecordedOs(RecordedOsToJson(*os), problems).ok()) __builtin_trap();
  }
  if (auto dxgi = ParseRecordedDxgi(text, problems); dxgi.ok()) {
    auto again = ParseRecordedDxgi(RecordedDxgiToJson(*dxgi), problems);
    if (!again.ok() || again->adapters.size() != dxgi->adapters.size()) __builtin_trap();
  }
  if (auto reg = ParseRecordedRegistry(text, problems); reg.ok()) {
    std::map<std::string, std::map<std::string, RegistryValue>> keys;
    for (const auto& [lookup, key] : reg->keys)
      for (const auto& [lower, value] : key.values) keys[key.path][value.first] = value.second;
    if (!ParseRecordedRegistry(RecordedRegistryToJson(keys), problems).ok()) __builtin_trap();
  }
  (void)ParseRecordedFiles(text, problems);
  return 0;
}
