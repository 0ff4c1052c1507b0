// What gpudoctor reads from Windows besides files: the version RtlGetVersion reports, memory and
// processor counts, the registry, DXGI's adapters and the version resources of DLLs. One small
// interface, so the Windows probes (probe/windows/) run the same on the live machine
// (platform/windows/windows_system_live.cpp) and on a recorded one read from JSON on any OS
// (probe/windows/recorded_windows_source.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

enum class RegistryRoot { kLocalMachine, kCurrentUser };
const char* ToString(RegistryRoot root);  // "HKLM", "HKCU"

// One registry value, typed as the registry stores it.
struct RegistryValue {
  enum class Type { kString, kExpandString, kMultiString, kDword, kQword, kBinary };
  Type type = Type::kString;
  std::string text;                  // REG_SZ, REG_EXPAND_SZ (not expanded)
  std::vector<std::string> strings;  // REG_MULTI_SZ
  uint64_t number = 0;               // REG_DWORD, REG_QWORD
  std::string bytes;                 // REG_BINARY, raw
  bool operator==(const RegistryValue&) const = default;

  static RegistryValue String(std::string s);
  static RegistryValue Dword(uint32_t v);
  static RegistryValue Qword(uint64_t v);
  // The value as a number: DWORD/QWORD, or REG_BINARY of 4 or 8 bytes (little-endian; older drivers
  // store HardwareInformation.MemorySize that way). nullopt otherwise.
  std::optional<uint64_t> AsNumber() const;
  // REG_SZ / REG_EXPAND_SZ text, the first string of a REG_MULTI_SZ; nullopt for numbers and binary.
  std::optional<std::string> AsText() const;
};

// RtlGetVersion: the true version (GetVersionEx lies to programs without a manifest).
struct WindowsVersion {
  uint32_t major = 0;
  uint32_t minor = 0;
  uint32_t build = 0;
  bool operator==(const WindowsVersion&) const = default;
};

// The machine facts that are neither registry values nor files.
struct WindowsSystemFacts {
  std::optional<WindowsVersion> version;
  std::string system_directory;  // GetSystemDirectoryW: "C:\WINDOWS\system32"
  std::optional<uint64_t> memory_total_bytes;
  std::optional<uint64_t> memory_available_bytes;
  std::optional<uint32_t> logical_processors;
  std::optional<uint32_t> processor_cores;
  std::optional<uint32_t> processor_packages;
  // IsProcessorFeaturePresent(PF_VIRT_FIRMWARE_ENABLED): VT-x / AMD-V switched on in the firmware.
  // Windows reports false here while its own hypervisor runs, so hypervisor_present is read too.
  std::optional<bool> virtualization_firmware_enabled;
  std::optional<bool> hypervisor_present;  // CPUID leaf 1, ECX bit 31
  bool operator==(const WindowsSystemFacts&) const = default;
};

// One adapter as IDXGIAdapter1::GetDesc1 describes it.
struct DxgiAdapterDesc {
  std::string description;
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  uint32_t subsys_id = 0;  // subsystem device id << 16 | subsystem vendor id, as in the PCI config space
  uint32_t revision = 0;
  uint64_t dedicated_video_memory = 0;
  uint64_t dedicated_system_memory = 0;
  uint64_t shared_system_memory = 0;
  uint64_t luid = 0;   // HighPart << 32 | LowPart
  uint32_t flags = 0;  // DXGI_ADAPTER_FLAG: 1 remote, 2 software
  bool operator==(const DxgiAdapterDesc&) const = default;
};

inline constexpr uint32_t kDxgiAdapterFlagRemote = 1;
inline constexpr uint32_t kDxgiAdapterFlagSoftware = 2;

struct DxgiAdapters {
  bool available = false;  // CreateDXGIFactory1 and EnumAdapters1 worked
  std::string error;       // why not: "CreateDXGIFactory1 returned DXGI_ERROR_UNSUPPORTED (0x887A0004)"
  std::vector<DxgiAdapterDesc> adapters;
  bool operator==(const DxgiAdapters&) const = default;
};

// A file's presence and its VS_FIXEDFILEINFO file version ("31.0.24033.1003"; "" without a resource).
struct WindowsFileInfo {
  std::string version;
  bool operator==(const WindowsFileInfo&) const = default;
};

class WindowsSystemSource {
 public:
  virtual ~WindowsSystemSource() = default;

  virtual WindowsSystemFacts System() const = 0;
  virtual DxgiAdapters Adapters() const = 0;
  // Immediate subkey names of `path` ("SOFTWARE\Python\PythonCore"); an error when the key is absent.
  virtual Result<std::vector<std::string>> RegistrySubkeys(RegistryRoot root,
                                                           std::string_view path) const = 0;
  // nullopt when the key or the value is absent (or unreadable for this user).
  virtual std::optional<RegistryValue> ReadRegistry(RegistryRoot root, std::string_view path,
                                                    std::string_view name) const = 0;
  // nullopt when there is no such file. `path` is a Windows path ("C:\WINDOWS\system32\nvcuda.dll").
  virtual std::optional<WindowsFileInfo> FileInfo(std::string_view path) const = 0;
};

// This machine's source on a Windows build; nullptr on any other (platform/posix).
std::unique_ptr<WindowsSystemSource> MakeLiveWindowsSystemSource();

}  // namespace gpudoctor
