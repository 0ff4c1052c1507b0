// The native-Windows part of a Snapshot: the version details Windows keeps in its registry, each
// display adapter as DXGI and the display-class registry key describe it (driver version and the
// Adrenalin or NVIDIA release it maps to), the HIP SDKs, WSL and virtualization, and the Python
// interpreters installed. Empty on Linux. Plain data like the rest of the Snapshot.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpudoctor {

struct WindowsAdapter {
  std::string description;  // DXGI's description, else the registry's DriverDesc
  std::string pci_address;  // "0000:03:00.0" from the Enum key's LocationInformation; "" when unknown
  uint32_t vendor_id = 0;
  uint32_t device_id = 0;
  std::optional<uint32_t> subsystem_vendor_id;
  std::optional<uint32_t> subsystem_device_id;
  std::optional<uint32_t> revision;
  std::optional<uint64_t> dedicated_video_memory_bytes;   // DXGI
  std::optional<uint64_t> dedicated_system_memory_bytes;  // DXGI
  std::optional<uint64_t> shared_system_memory_bytes;     // DXGI
  std::optional<uint64_t> registry_memory_bytes;          // HardwareInformation.qwMemorySize
  std::string luid;                                       // "0x00000000:0x0000d6b3"; "" without DXGI
  bool software = false;  // DXGI_ADAPTER_FLAG_SOFTWARE (Microsoft Basic Render Driver)
  std::optional<bool> integrated;
  std::string integrated_reason;
  std::string class_key;           // "0000": the subkey of the display class that holds its driver
  std::string driver_description;  // DriverDesc
  std::string driver_version;      // DriverVersion: "31.0.24033.1003", "32.0.15.6094"
  std::string driver_date;         // DriverDate: "3-12-2024"
  std::string driver_provider;     // ProviderName
  std::string driver_service;      // the Enum key's Service: "amdkmdag", "nvlddmkm"
  std::string release;             // the vendor's release: "Adrenalin 24.3.1", "NVIDIA 560.94"; "" unknown
  std::string release_source;      // how the release was found
  std::string sources;             // "dxgi+registry", "registry", "dxgi"
};

struct WindowsWslDistro {
  std::string name;
  std::optional<uint32_t> version;  // 1 or 2
  bool is_default = false;
};

// A Python interpreter (not necessarily with torch): the py launcher's PEP 514 registrations,
// python.org and Microsoft Store installs, conda, venvs.
struct WindowsPythonInstall {
  std::string version;  // "3.12"
  std::string prefix;   // "C:\Users\bob\AppData\Local\Programs\Python\Python312"
  std::string kind;     // "python.org", "store", "conda", "venv", "uv", "portable", "other"
  std::string source;  // where it was found: "HKCU\Software\Python\PythonCore\3.12", "folder", "VIRTUAL_ENV",
                       // "uv", "portable"
};

struct WindowsInfo {
  std::string product_name;       // ProductName as the registry says it ("Windows 10 Pro" also on 11)
  std::string edition_id;         // EditionID: "Professional", "Core"
  std::string display_version;    // DisplayVersion ("23H2"), else ReleaseId ("2009")
  std::optional<uint32_t> ubr;    // update build revision: 22631.<ubr>
  std::optional<bool> windows11;  // build >= 22000
  std::optional<bool> windows11_22h2_or_newer;  // build >= 22621
  std::string system_directory;                 // "C:\WINDOWS\system32"
  std::optional<bool> virtualization_firmware_enabled;
  std::optional<bool> hypervisor_present;
  bool wsl_installed = false;
  std::vector<WindowsWslDistro> wsl_distros;
  std::string dxgi_status;  // "ok: 2 adapter(s)", or why DXGI gave nothing (a note, not an error)
  std::vector<WindowsAdapter> adapters;
  std::vector<WindowsPythonInstall> python_installs;
};

}  // namespace gpudoctor
