// The files that hold a recorded Windows machine's non-file inputs, under /.gpudoctor/windows/ of a
// sysroot (written by `gather` on Windows, read back by recorded_windows_source.cpp):
//
//   os.json        {"version": {"major": 10, "minor": 0, "build": 22631}, "system_directory":
//   "C:\\WINDOWS\\system32",
//                   "memory": {"total_bytes": N, "available_bytes": N},
//                   "processors": {"logical": 32, "cores": 16, "packages": 1},
//                   "virtualization": {"firmware_enabled": true, "hypervisor_present": false}}
//   dxgi.json      {"available": true, "error": "", "adapters": [{"description": "...", "vendor_id":
//   "0x1002",
//                   "device_id": "0x744c", "subsys_id": "0x471e1da2", "revision": "0xc8",
//                   "dedicated_video_memory": N, "dedicated_system_memory": N, "shared_system_memory": N,
//                   "luid": "0x000000000000d6b3", "flags": 0}]}
//   registry.json  {"HKLM\\SOFTWARE\\...\\CurrentVersion": {"CurrentBuild": "22631", "UBR": 4317,
//                   "InstallDate": {"type": "REG_QWORD", "value": N}, "HardwareID": ["PCI\\VEN_...", ...]}}
//                  a value is a string (REG_SZ), an integer (REG_DWORD), an array of strings (REG_MULTI_SZ)
//                  or {"type": "REG_SZ|REG_EXPAND_SZ|REG_MULTI_SZ|REG_DWORD|REG_QWORD|REG_BINARY", "value":
//                  ...} (REG_BINARY as hex text). A key's subkeys are the recorded keys below it.
//   files.json     {"C:\\WINDOWS\\system32\\amdhip64_6.dll": {"version": "6.1.40252.0"}}: files that exist.
//
// Numbers may be JSON integers or "0x..." strings. Registry keys, value names and file paths compare
// without case, as Windows compares them. Parsers never throw; a malformed entry is skipped and named.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "platform/windows_system.h"

namespace gpudoctor {

inline constexpr const char* kRecordedWindowsDir = "/.gpudoctor/windows";

struct RecordedRegistryKey {
  std::string path;                                                     // as written: "HKLM\SOFTWARE\Python"
  std::map<std::string, std::pair<std::string, RegistryValue>> values;  // lower-case name -> (name, value)
};

struct RecordedRegistry {
  std::map<std::string, RecordedRegistryKey> keys;  // lower-case "hklm\software\python" -> key
};

// "HKLM" + "SOFTWARE\\Python" -> "hklm\\software\\python" (the lookup form).
std::string RegistryLookupKey(RegistryRoot root, std::string_view path);
// Any Windows path -> the lookup form of files.json: lower case, '/' as '\\'.
std::string FileLookupKey(std::string_view path);

Result<WindowsSystemFacts> ParseRecordedOs(std::string_view text, std::vector<std::string>& problems);
Result<DxgiAdapters> ParseRecordedDxgi(std::string_view text, std::vector<std::string>& problems);
Result<RecordedRegistry> ParseRecordedRegistry(std::string_view text, std::vector<std::string>& problems);
Result<std::map<std::string, WindowsFileInfo>> ParseRecordedFiles(std::string_view text,
                                                                  std::vector<std::string>& problems);

std::string RecordedOsToJson(const WindowsSystemFacts& facts);
std::string RecordedDxgiToJson(const DxgiAdapters& adapters);
// `keys`: full key path ("HKLM\\...") -> values by name. Keys with no values are written as {}.
std::string RecordedRegistryToJson(const std::map<std::string, std::map<std::string, RegistryValue>>& keys);
std::string RecordedFilesToJson(const std::map<std::string, WindowsFileInfo>& files);

}  // namespace gpudoctor
