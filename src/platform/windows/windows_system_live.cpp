// Windows: the live WindowsSystemSource. The version comes from ntdll's RtlGetVersion (GetVersionEx
// lies to programs without a compatibility manifest); the registry through RegOpenKeyExW /
// RegQueryValueExW; adapters from DXGI, and file versions from version.dll, both loaded at run time
// from System32 alone (LOAD_LIBRARY_SEARCH_SYSTEM32), so the executable links neither and a DLL
// planted beside it or in the current folder is never picked up. Nothing here writes anything.
#include <windows.h>
// windows.h first: dxgi.h needs its types.
#include <dxgi.h>

#if defined(__GNUC__)
#include <cpuid.h>
#else
#include <intrin.h>
#endif

#include <cstdio>
#include <cstring>

#include "platform/windows/windows_text.h"
#include "platform/windows_system.h"

namespace gpudoctor {
namespace {

#ifndef PF_VIRT_FIRMWARE_ENABLED
#define PF_VIRT_FIRMWARE_ENABLED 21
#endif

// IID_IDXGIFactory1 {770aae78-f26f-4dba-a829-253c83d1b387}, defined here so dxguid is not linked.
constexpr GUID kIidDxgiFactory1 = {
    0x770aae78, 0xf26f, 0x4dba, {0xa8, 0x29, 0x25, 0x3c, 0x83, 0xd1, 0xb3, 0x87}};

std::string HresultText(HRESULT hr) {
  const char* name = nullptr;
  switch (static_cast<uint32_t>(hr)) {
    case 0x887A0004u:
      name = "DXGI_ERROR_UNSUPPORTED";
      break;
    case 0x887A0002u:
      name = "DXGI_ERROR_NOT_FOUND";
      break;
    case 0x80004001u:
      name = "E_NOTIMPL";
      break;
    case 0x80004002u:
      name = "E_NOINTERFACE";
      break;
    default:
      break;
  }
  char hex[16];
  std::snprintf(hex, sizeof hex, "0x%08lX", static_cast<unsigned long>(static_cast<uint32_t>(hr)));
  return name ? std::string(name) + " (" + hex + ")" : std::string(hex);
}

// A system DLL from System32 only; never the application folder or the current one.
HMODULE LoadSystemLibrary(const wchar_t* name) {
  DWORD old_mode = 0;
  ::SetThreadErrorMode(SEM_FAILCRITICALERRORS | SEM_NOOPENFILEERRORBOX, &old_mode);
  HMODULE module = ::LoadLibraryExW(name, nullptr, LOAD_LIBRARY_SEARCH_SYSTEM32);
  ::SetThreadErrorMode(old_mode, nullptr);
  return module;
}

template <typename F>
F Proc(HMODULE module, const char* name) {
  FARPROC p = ::GetProcAddress(module, name);
  F out = nullptr;
  static_assert(sizeof out == sizeof p);
  std::memcpy(&out, &p, sizeof out);
  return out;
}

HKEY RootKey(RegistryRoot root) {
  return root == RegistryRoot::kCurrentUser ? HKEY_CURRENT_USER : HKEY_LOCAL_MACHINE;
}

class RegKey {
 public:
  RegKey(RegistryRoot root, std::string_view path) {
    std::wstring wide = Utf8ToWide(path);
    status_ = ::RegOpenKeyExW(RootKey(root), wide.c_str(), 0, KEY_READ | KEY_WOW64_64KEY, &key_);
    if (status_ != ERROR_SUCCESS) key_ = nullptr;
  }
  RegKey(const RegKey&) = delete;
  RegKey& operator=(const RegKey&) = delete;
  ~RegKey() {
    if (key_) ::RegCloseKey(key_);
  }
  HKEY get() const { return key_; }
  LONG status() const { return status_; }

 private:
  HKEY key_ = nullptr;
  LONG status_ = ERROR_SUCCESS;
};

// UTF-16 data of a string value without its terminating NULs.
std::wstring WideData(const std::vector<BYTE>& data) {
  std::wstring out(data.size() / sizeof(wchar_t), L'\0');
  if (!out.empty()) std::memcpy(out.data(), data.data(), out.size() * sizeof(wchar_t));
  return out;
}

std::string TrimNuls(std::wstring text) {
  while (!text.empty() && text.back() == L'\0') text.pop_back();
  return WideToUtf8(text);
}

uint32_t CountBits(KAFFINITY mask) {
  uint32_t n = 0;
  for (; mask; mask &= mask - 1) ++n;
  return n;
}

void ReadProcessorCounts(WindowsSystemFacts& f) {
  DWORD size = 0;
  ::GetLogicalProcessorInformationEx(RelationAll, nullptr, &size);
  if (size == 0) return;
  std::vector<char> buffer(size);
  auto* info = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data());
  if (!::GetLogicalProcessorInformationEx(RelationAll, info, &size)) return;
  uint32_t cores = 0, packages = 0, logical = 0;
  for (DWORD offset = 0; offset < size;) {
    auto* item = reinterpret_cast<SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX*>(buffer.data() + offset);
    if (item->Size == 0) break;
    if (item->Relationship == RelationProcessorCore) {
      ++cores;
      for (WORD g = 0; g < item->Processor.GroupCount; ++g)
        logical += CountBits(item->Processor.GroupMask[g].Mask);
    } else if (item->Relationship == RelationProcessorPackage) {
      ++packages;
    }
    offset += item->Size;
  }
  if (cores) f.processor_cores = cores;
  if (packages) f.processor_packages = packages;
  if (logical) f.logical_processors = logical;
}

bool HypervisorPresent() {
#if defined(__GNUC__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  return (c >> 31) & 1u;
#else
  int regs[4] = {};
  __cpuid(regs, 1);
  return (static_cast<unsigned>(regs[2]) >> 31) & 1u;
#endif
}

class LiveWindowsSystemSource final : public WindowsSystemSource {
 public:
  WindowsSystemFacts System() const override {
    WindowsSystemFacts f;
    using RtlGetVersionFn = LONG(WINAPI*)(OSVERSIONINFOW*);
    if (HMODULE ntdll = ::GetModuleHandleW(L"ntdll.dll")) {
      if (auto rtl = Proc<RtlGetVersionFn>(ntdll, "RtlGetVersion")) {
        OSVERSIONINFOW v{};
        v.dwOSVersionInfoSize = sizeof v;
        if (rtl(&v) == 0) f.version = WindowsVersion{v.dwMajorVersion, v.dwMinorVersion, v.dwBuildNumber};
      }
    }
    wchar_t dir[MAX_PATH + 1] = {};
    UINT n = ::GetSystemDirectoryW(dir, MAX_PATH);
    if (n > 0 && n < MAX_PATH) f.system_directory = WideToUtf8(std::wstring_view(dir, n));
    MEMORYSTATUSEX mem{};
    mem.dwLength = sizeof mem;
    if (::GlobalMemoryStatusEx(&mem)) {
      f.memory_total_bytes = mem.ullTotalPhys;
      f.memory_available_bytes = mem.ullAvailPhys;
    }
    ReadProcessorCounts(f);
    f.virtualization_firmware_enabled = ::IsProcessorFeaturePresent(PF_VIRT_FIRMWARE_ENABLED) != 0;
    f.hypervisor_present = HypervisorPresent();
    return f;
  }

  DxgiAdapters Adapters() const override {
    DxgiAdapters out;
    HMODULE dxgi = LoadSystemLibrary(L"dxgi.dll");
    if (!dxgi) {
      out.error = "dxgi.dll could not be loaded from System32: " + WindowsErrorText(::GetLastError());
      return out;
    }
    using CreateFactoryFn = HRESULT(WINAPI*)(REFIID, void**);
    auto create = Proc<CreateFactoryFn>(dxgi, "CreateDXGIFactory1");
    if (!create) {
      out.error = "dxgi.dll has no CreateDXGIFactory1";
      ::FreeLibrary(dxgi);
      return out;
    }
    IDXGIFactory1* factory = nullptr;
    HRESULT hr = create(kIidDxgiFactory1, reinterpret_cast<void**>(&factory));
    if (FAILED(hr) || !factory) {
      out.error = "CreateDXGIFactory1 returned " + HresultText(hr);
      ::FreeLibrary(dxgi);
      return out;
    }
    out.available = true;
    for (UINT i = 0; i < 64; ++i) {
      IDXGIAdapter1* adapter = nullptr;
      hr = factory->EnumAdapters1(i, &adapter);
      if (hr == DXGI_ERROR_NOT_FOUND) break;
      if (FAILED(hr) || !adapter) {
        out.error = "EnumAdapters1(" + std::to_string(i) + ") returned " + HresultText(hr);
        break;
      }
      DXGI_ADAPTER_DESC1 desc{};
      if (SUCCEEDED(adapter->GetDesc1(&desc))) {
        DxgiAdapterDesc d;
        d.description = WideToUtf8(std::wstring_view(desc.Description, ::wcsnlen(desc.Description, 128)));
        d.vendor_id = desc.VendorId;
        d.device_id = desc.DeviceId;
        d.subsys_id = desc.SubSysId;
        d.revision = desc.Revision;
        d.dedicated_video_memory = desc.DedicatedVideoMemory;
        d.dedicated_system_memory = desc.DedicatedSystemMemory;
        d.shared_system_memory = desc.SharedSystemMemory;
        d.luid = (static_cast<uint64_t>(static_cast<uint32_t>(desc.AdapterLuid.HighPart)) << 32) |
                 desc.AdapterLuid.LowPart;
        d.flags = desc.Flags;
        out.adapters.push_back(std::move(d));
      }
      adapter->Release();
    }
    factory->Release();
    ::FreeLibrary(dxgi);
    return out;
  }

  Result<std::vector<std::string>> RegistrySubkeys(RegistryRoot root, std::string_view path) const override {
    RegKey key(root, path);
    if (!key.get()) {
      return EnvError(std::string(ToString(root)) + "\\" + std::string(path) + ": " +
                      WindowsErrorText(key.status()));
    }
    std::vector<std::string> out;
    for (DWORD i = 0; i < 4096; ++i) {
      wchar_t name[256];
      DWORD len = 256;
      LONG rc = ::RegEnumKeyExW(key.get(), i, name, &len, nullptr, nullptr, nullptr, nullptr);
      if (rc == ERROR_NO_MORE_ITEMS) break;
      if (rc != ERROR_SUCCESS) continue;
      out.push_back(WideToUtf8(std::wstring_view(name, len)));
    }
    return out;
  }

  std::optional<RegistryValue> ReadRegistry(RegistryRoot root, std::string_view path,
                                            std::string_view name) const override {
    RegKey key(root, path);
    if (!key.get()) return std::nullopt;
    std::wstring wide_name = Utf8ToWide(name);
    DWORD type = 0, size = 0;
    if (::RegQueryValueExW(key.get(), wide_name.c_str(), nullptr, &type, nullptr, &size) != ERROR_SUCCESS)
      return std::nullopt;
    if (size > (1u << 20)) return std::nullopt;
    std::vector<BYTE> data(size + 2 * sizeof(wchar_t), 0);
    DWORD got = size;
    if (::RegQueryValueExW(key.get(), wide_name.c_str(), nullptr, &type, data.data(), &got) != ERROR_SUCCESS)
      return std::nullopt;
    data.resize(got);
    RegistryValue v;
    switch (type) {
      case REG_SZ:
      case REG_EXPAND_SZ:
        v.type = type == REG_SZ ? RegistryValue::Type::kString : RegistryValue::Type::kExpandString;
        v.text = TrimNuls(WideData(data));
        return v;
      case REG_MULTI_SZ: {
        v.type = RegistryValue::Type::kMultiString;
        std::wstring all = WideData(data);
        size_t start = 0;
        while (start < all.size()) {
          size_t end = all.find(L'\0', start);
          if (end == std::wstring::npos) end = all.size();
          if (end == start) break;
          v.strings.push_back(WideToUtf8(std::wstring_view(all).substr(start, end - start)));
          start = end + 1;
        }
        return v;
      }
      case REG_DWORD:
        if (got < 4) return std::nullopt;
        v.type = RegistryValue::Type::kDword;
        v.number = static_cast<uint64_t>(data[0]) | static_cast<uint64_t>(data[1]) << 8 |
                   static_cast<uint64_t>(data[2]) << 16 | static_cast<uint64_t>(data[3]) << 24;
        return v;
      case REG_QWORD:
        if (got < 8) return std::nullopt;
        v.type = RegistryValue::Type::kQword;
        for (int i = 7; i >= 0; --i) v.number = (v.number << 8) | data[static_cast<size_t>(i)];
        return v;
      default:
        v.type = RegistryValue::Type::kBinary;
        v.bytes.assign(reinterpret_cast<const char*>(data.data()), data.size());
        return v;
    }
  }

  std::optional<WindowsFileInfo> FileInfo(std::string_view path) const override {
    std::wstring wide = Utf8ToWide(path);
    DWORD attrs = ::GetFileAttributesW(wide.c_str());
    if (attrs == INVALID_FILE_ATTRIBUTES || (attrs & FILE_ATTRIBUTE_DIRECTORY)) return std::nullopt;
    WindowsFileInfo info;
    info.version = FileVersion(wide);
    return info;
  }

 private:
  // The file version from the version resource, read as data (no code of the file runs).
  static std::string FileVersion(const std::wstring& path) {
    HMODULE version_dll = LoadSystemLibrary(L"version.dll");
    if (!version_dll) return {};
    using SizeFn = DWORD(WINAPI*)(LPCWSTR, LPDWORD);
    using InfoFn = BOOL(WINAPI*)(LPCWSTR, DWORD, DWORD, LPVOID);
    using QueryFn = BOOL(WINAPI*)(LPCVOID, LPCWSTR, LPVOID*, PUINT);
    auto size_fn = Proc<SizeFn>(version_dll, "GetFileVersionInfoSizeW");
    auto info_fn = Proc<InfoFn>(version_dll, "GetFileVersionInfoW");
    auto query_fn = Proc<QueryFn>(version_dll, "VerQueryValueW");
    std::string out;
    if (size_fn && info_fn && query_fn) {
      DWORD ignored = 0;
      DWORD size = size_fn(path.c_str(), &ignored);
      if (size > 0 && size < (16u << 20)) {
        std::vector<char> block(size);
        VS_FIXEDFILEINFO* fixed = nullptr;
        UINT len = 0;
        if (info_fn(path.c_str(), 0, size, block.data()) &&
            query_fn(block.data(), L"\\", reinterpret_cast<void**>(&fixed), &len) && fixed &&
            len >= sizeof(VS_FIXEDFILEINFO) && fixed->dwSignature == 0xFEEF04BD) {
          out = std::to_string(HIWORD(fixed->dwFileVersionMS)) + "." +
                std::to_string(LOWORD(fixed->dwFileVersionMS)) + "." +
                std::to_string(HIWORD(fixed->dwFileVersionLS)) + "." +
                std::to_string(LOWORD(fixed->dwFileVersionLS));
        }
      }
    }
    ::FreeLibrary(version_dll);
    return out;
  }
};

}  // namespace

std::unique_ptr<WindowsSystemSource> MakeLiveWindowsSystemSource() {
  return std::make_unique<LiveWindowsSystemSource>();
}

}  // namespace gpudoctor
