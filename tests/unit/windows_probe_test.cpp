// The Windows probes on machines built in code (FakeWindowsSource plus a temporary sysroot for the
// files): Windows 11 told by its build, adapters from the registry matched to DXGI, stale driver keys
// dropped, the registry alone when DXGI fails (as under wine), the NVIDIA release from the driver
// version, HIP SDKs and the driver's HIP DLLs, and the Python locations the `py` launcher and the
// installers leave.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "probe/probe_inputs.h"
#include "probe/windows/windows_python_locations.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "windows_fake_source.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing_windows::FakeWindowsSource;

constexpr const char* kClass =
    "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}";
constexpr const char* kEnum = "HKLM\\SYSTEM\\CurrentControlSet\\Enum\\PCI";
constexpr const char* kDisplay = "{4d36e968-e325-11ce-bfc1-08002be10318}";
using testing::kGiB;

class WindowsProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = stdfs::temp_directory_path() /
            ("gpudoctor_winprobe_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    stdfs::remove_all(root_);
    stdfs::create_directories(root_);
    auto fake = std::make_unique<FakeWindowsSource>();
    w = fake.get();
    source_ = std::move(fake);
    w->facts.version = WindowsVersion{10, 0, 22631};
    w->facts.system_directory = "C:\\WINDOWS\\system32";
    w->Set("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "ProductName",
           RegistryValue::String("Windows 10 Pro"));
    w->Set("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "DisplayVersion",
           RegistryValue::String("23H2"));
    w->Set("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "UBR", RegistryValue::Dword(4317));
  }
  void TearDown() override { stdfs::remove_all(root_); }

  // A file under the sysroot at a Windows path ("C:\\x\\y").
  void Touch(const std::string& windows_path, const std::string& text = "") {
    stdfs::path p = root_ / RecordedWindowsPath(windows_path).substr(1);
    stdfs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  // One display device: its Enum instance and its driver key.
  void Device(const std::string& hwid, const std::string& class_key, const std::string& location,
              const std::string& desc, const std::string& driver_version,
              const std::string& service = "amdkmdag") {
    std::string inst = std::string(kEnum) + "\\" + hwid + "\\4&1&0&0008";
    w->Set(inst, "ClassGUID", RegistryValue::String(kDisplay));
    w->Set(inst, "Driver", RegistryValue::String(std::string(kDisplay) + "\\" + class_key));
    w->Set(inst, "LocationInformation", RegistryValue::String(location));
    w->Set(inst, "Service", RegistryValue::String(service));
    std::string key = std::string(kClass) + "\\" + class_key;
    w->Set(key, "DriverDesc", RegistryValue::String(desc));
    w->Set(key, "DriverVersion", RegistryValue::String(driver_version));
  }
  DxgiAdapterDesc Adapter(uint32_t vendor, uint32_t device, uint64_t dedicated, uint64_t shared,
                          const std::string& desc) {
    DxgiAdapterDesc a;
    a.vendor_id = vendor;
    a.device_id = device;
    a.dedicated_video_memory = dedicated;
    a.shared_system_memory = shared;
    a.description = desc;
    return a;
  }
  Snapshot Probe(std::map<std::string, std::string> env = {}) {
    ProbeInputs in;
    in.fs = MakeRootedFileSystem(root_.string());
    in.env = Environment(std::move(env));
    in.cwd = in.env.Get("PWD").value_or("");  // as MakeRecordedInputs takes it
    in.windows = std::move(source_);
    Snapshot s = ProbeMachine(in);
    source_ = std::move(in.windows);
    return s;
  }
  std::vector<WindowsPythonLocation> Locations(std::map<std::string, std::string> env) {
    ProbeInputs in;
    in.fs = MakeRootedFileSystem(root_.string());
    in.env = Environment(std::move(env));
    in.cwd = in.env.Get("PWD").value_or("");
    in.windows = std::move(source_);
    auto out = WindowsPythonLocations(in.Context());
    source_ = std::move(in.windows);
    return out;
  }

  stdfs::path root_;
  FakeWindowsSource* w = nullptr;
  std::unique_ptr<WindowsSystemSource> source_;
};

TEST_F(WindowsProbeTest, Windows11IsNamedFromItsBuildAndFlagged) {
  Snapshot s = Probe();
  EXPECT_EQ(s.os.family, OsFamily::kWindows);
  EXPECT_EQ(s.os.windows_build, 22631u);
  EXPECT_EQ(s.os.distro_name, "Windows 11 Pro 23H2 (build 22631.4317)");
  EXPECT_EQ(s.windows.windows11_22h2_or_newer, true);
  w->facts.version = WindowsVersion{10, 0, 19045};
  w->Set("HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion", "DisplayVersion",
         RegistryValue::String("22H2"));
  s = Probe();
  EXPECT_EQ(s.os.distro_name, "Windows 10 Pro 22H2 (build 19045.4317)");
  EXPECT_EQ(s.windows.windows11, false);
  EXPECT_EQ(s.windows.windows11_22h2_or_newer, false);
}

TEST_F(WindowsProbeTest, RegistryDevicesAreMatchedToDxgiAndStaleOnesDropped) {
  Device("VEN_1002&DEV_744C&SUBSYS_471E1DA2&REV_C8", "0001",
         "@System32\\drivers\\pci.sys,#65536;PCI bus %1, device %2, function %3;(3,0,0)",
         "AMD Radeon RX 7900 XTX", "32.0.22029.1019");
  w->Set(std::string(kClass) + "\\0001", "RadeonSoftwareVersion", RegistryValue::String("25.12.1"));
  w->Set(std::string(kClass) + "\\0001", "HardwareInformation.qwMemorySize", RegistryValue::Qword(24 * kGiB));
  // A card removed long ago: its Enum instance and driver key stay, DXGI does not list it.
  Device("VEN_10DE&DEV_1B81&SUBSYS_33021462&REV_A1", "0000", "PCI bus 4, device 0, function 0",
         "NVIDIA GeForce GTX 1070", "31.0.15.3713", "nvlddmkm");
  w->dxgi.available = true;
  auto a = Adapter(0x1002, 0x744c, 24560ull << 20, 32ull << 30, "AMD Radeon RX 7900 XTX");
  a.subsys_id = 0x471e1da2;
  a.revision = 0xc8;
  w->dxgi.adapters.push_back(a);
  auto sw = Adapter(0x1414, 0x8c, 0, 32ull << 30, "Microsoft Basic Render Driver");
  sw.flags = kDxgiAdapterFlagSoftware;
  w->dxgi.adapters.push_back(sw);
  Snapshot s = Probe();
  ASSERT_EQ(s.windows.adapters.size(), 2u);
  const WindowsAdapter& gpu = s.windows.adapters[0];
  EXPECT_EQ(gpu.pci_address, "0000:03:00.0");
  EXPECT_EQ(gpu.sources, "dxgi+registry");
  EXPECT_EQ(gpu.release, "Adrenalin 25.12.1");
  EXPECT_EQ(gpu.registry_memory_bytes, 24 * kGiB);
  EXPECT_EQ(gpu.driver_service, "amdkmdag");
  EXPECT_TRUE(s.windows.adapters[1].software);
  ASSERT_EQ(s.pci_devices.size(), 1u);  // the GTX 1070 is not present; the software adapter is no device
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].pci_address, "0000:03:00.0");
  EXPECT_EQ(s.gpus[0].vram_bytes, 24560ull << 20);
  EXPECT_EQ(s.gpus[0].driver, "amdkmdag");
  EXPECT_EQ(s.windows.dxgi_status, "ok: 1 hardware adapter(s)");
}

TEST_F(WindowsProbeTest, WithoutDxgiTheRegistryAloneSpeaksAndItIsANoteNotAWarning) {
  Device("VEN_10DE&DEV_2684&SUBSYS_889D1043&REV_A1", "0000",
         "@System32\\drivers\\pci.sys,#65536;PCI bus %1, device %2, function %3;(1,0,0)",
         "NVIDIA GeForce RTX 4090", "32.0.15.6094", "nvlddmkm");
  w->dxgi.available = false;
  w->dxgi.error = "CreateDXGIFactory1 returned DXGI_ERROR_UNSUPPORTED (0x887A0004)";
  Snapshot s = Probe();
  ASSERT_EQ(s.windows.adapters.size(), 1u);
  EXPECT_EQ(s.windows.adapters[0].sources, "registry");
  EXPECT_EQ(s.windows.adapters[0].release, "NVIDIA 560.94");
  EXPECT_NE(s.windows.dxgi_status.find("DXGI_ERROR_UNSUPPORTED"), std::string::npos);
  for (const auto& warning : s.warnings) EXPECT_EQ(warning.find("DXGI"), std::string::npos) << warning;
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].name, "NVIDIA GeForce RTX 4090");  // no knowledge base here: the driver's name
  EXPECT_EQ(s.nvidia.driver_version, "560.94");
  EXPECT_EQ(s.nvidia.driver_version_source, "registry DriverVersion 32.0.15.6094");
}

TEST_F(WindowsProbeTest, ACardOnTheBasicDisplayAdapterIsPresentWithoutItsDriver) {
  Device("VEN_1002&DEV_744C&SUBSYS_471E1DA2&REV_C8", "0003", "PCI bus 3, device 0, function 0",
         "Microsoft Basic Display Adapter", "10.0.22621.1", "BasicDisplay");
  w->dxgi.available = true;
  w->dxgi.adapters.push_back(Adapter(0x1414, 0x8c, 0, 32ull << 30, "Microsoft Basic Render Driver"));
  w->dxgi.adapters.back().flags = kDxgiAdapterFlagSoftware;
  Snapshot s = Probe();
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].driver, "BasicDisplay");
  EXPECT_EQ(s.gpus[0].vendor, GpuVendor::kAmd);
}

TEST_F(WindowsProbeTest, AnIntegratedGpuIsToldByDxgiMemory) {
  Device("VEN_1002&DEV_164E&SUBSYS_80101043&REV_C1", "0002", "PCI bus 19, device 0, function 0",
         "AMD Radeon(TM) Graphics", "32.0.22029.1019");
  w->dxgi.available = true;
  w->dxgi.adapters.push_back(Adapter(0x1002, 0x164e, 512ull << 20, 32ull << 30, "AMD Radeon(TM) Graphics"));
  Snapshot s = Probe();
  ASSERT_EQ(s.gpus.size(), 1u);
  EXPECT_EQ(s.gpus[0].integrated, true);
  EXPECT_NE(s.windows.adapters[0].integrated_reason.find("512.0 MiB dedicated"), std::string::npos);
}

TEST_F(WindowsProbeTest, RuntimesFromSystem32AndTheHipSdkFolders) {
  w->File("C:\\WINDOWS\\system32\\amdhip64_6.dll", "6.4.50107.0");
  w->File("C:\\WINDOWS\\system32\\nvcuda.dll", "32.0.15.6094");
  Touch("C:\\Program Files\\AMD\\ROCm\\6.4\\bin\\amdhip64_6.dll");
  Touch("C:\\Program Files\\AMD\\ROCm\\7.1\\bin\\amdhip64_7.dll");
  Snapshot s = Probe({{"HIP_PATH", "C:\\Program Files\\AMD\\ROCm\\7.1\\"}});
  std::vector<std::string> got;
  for (const auto& r : s.runtimes) got.push_back(r.kind + " " + r.version + " " + r.path);
  std::vector<std::string> want = {"hip-runtime 6.4.50107.0 C:\\WINDOWS\\system32\\amdhip64_6.dll",
                                   "libcuda 32.0.15.6094 C:\\WINDOWS\\system32\\nvcuda.dll",
                                   "hip-sdk 7.1 C:\\Program Files\\AMD\\ROCm\\7.1",
                                   "hip-sdk 6.4 C:\\Program Files\\AMD\\ROCm\\6.4"};
  EXPECT_EQ(got, want);
}

TEST_F(WindowsProbeTest, WslDistributionsAndVirtualization) {
  const std::string lxss = "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Lxss";
  w->Set(lxss, "DefaultDistribution", RegistryValue::String("{B}"));
  w->Set(lxss + "\\{A}", "DistributionName", RegistryValue::String("Debian"));
  w->Set(lxss + "\\{A}", "Version", RegistryValue::Dword(1));
  w->Set(lxss + "\\{B}", "DistributionName", RegistryValue::String("Ubuntu-24.04"));
  w->Set(lxss + "\\{B}", "Version", RegistryValue::Dword(2));
  w->facts.virtualization_firmware_enabled = false;
  w->facts.hypervisor_present = true;
  Snapshot s = Probe();
  EXPECT_TRUE(s.windows.wsl_installed);
  ASSERT_EQ(s.windows.wsl_distros.size(), 2u);
  EXPECT_EQ(s.windows.wsl_distros[1].name, "Ubuntu-24.04");
  EXPECT_EQ(s.windows.wsl_distros[1].version, 2u);
  EXPECT_TRUE(s.windows.wsl_distros[1].is_default);
  EXPECT_FALSE(s.windows.wsl_distros[0].is_default);
  EXPECT_EQ(s.windows.hypervisor_present, true);
}

TEST_F(WindowsProbeTest, PythonFromThePyLauncherRegistryStoreCondaAndVenv) {
  const std::string local = "C:\\Users\\u\\AppData\\Local";
  const std::string core = "HKCU\\Software\\Python\\PythonCore";
  // python.org 3.11 registered for the user (what `py -0p` lists).
  w->Set(core + "\\3.11", "SysVersion", RegistryValue::String("3.11"));
  w->Set(core + "\\3.11\\InstallPath", "", RegistryValue::String(local + "\\Programs\\Python\\Python311\\"));
  Touch(local + "\\Programs\\Python\\Python311\\Lib\\site-packages\\pip\\__init__.py");
  // The Store's 3.12: read-only install folder, pip's packages in the package's LocalCache.
  w->Set(core + "\\3.12\\InstallPath", "",
         RegistryValue::String(
             "C:\\Program "
             "Files\\WindowsApps\\PythonSoftwareFoundation.Python.3.12_3.12.2544.0_x64__qbz5n2kfra8p0\\"));
  const std::string store_site =
      local +
      "\\Packages\\PythonSoftwareFoundation.Python.3.12_qbz5n2kfra8p0\\LocalCache\\local-"
      "packages\\Python312\\site-packages";
  Touch(store_site + "\\x.py");
  // A python.org 3.13 nobody registered (installed for all users).
  Touch("C:\\Program Files\\Python313\\Lib\\site-packages\\x.py");
  // Miniconda with one env, and an active venv made by uv.
  Touch("C:\\Users\\u\\miniconda3\\conda-meta\\python-3.10.14-h4de0772_0.json");
  Touch("C:\\Users\\u\\miniconda3\\Lib\\site-packages\\x.py");
  Touch("C:\\Users\\u\\miniconda3\\envs\\ml\\conda-meta\\python-3.12.4-h14ffc60_0.json");
  Touch("C:\\Users\\u\\miniconda3\\envs\\ml\\Lib\\site-packages\\x.py");
  Touch("D:\\proj\\.venv\\pyvenv.cfg",
        "home = C:\\x\nimplementation = CPython\nversion_info = 3.11.9.final.0\n");
  Touch("D:\\proj\\.venv\\Lib\\site-packages\\x.py");
  Touch("C:\\Users\\u\\AppData\\Roaming\\Python\\Python311\\site-packages\\x.py");
  auto locs = Locations({{"USERPROFILE", "C:\\Users\\u"},
                         {"LOCALAPPDATA", local},
                         {"APPDATA", "C:\\Users\\u\\AppData\\Roaming"},
                         {"VIRTUAL_ENV", "D:\\proj\\.venv"}});
  std::vector<std::string> got;
  for (const auto& l : locs) got.push_back(l.kind + " " + l.python_version + " " + l.site_packages);
  std::vector<std::string> want = {
      "venv 3.11 D:\\proj\\.venv\\Lib\\site-packages",
      "python.org 3.11 " + local + "\\Programs\\Python\\Python311\\Lib\\site-packages",
      "store 3.12 " + store_site,
      "python.org 3.13 C:\\Program Files\\Python313\\Lib\\site-packages",
      "conda 3.10 C:\\Users\\u\\miniconda3\\Lib\\site-packages",
      "conda 3.12 C:\\Users\\u\\miniconda3\\envs\\ml\\Lib\\site-packages",
      "user 3.11 C:\\Users\\u\\AppData\\Roaming\\Python\\Python311\\site-packages"};
  EXPECT_EQ(got, want);
  Snapshot s = Probe({{"USERPROFILE", "C:\\Users\\u"}, {"LOCALAPPDATA", local}});
  std::vector<std::string> installs;
  for (const auto& p : s.windows.python_installs) installs.push_back(p.version + " " + p.kind);
  EXPECT_EQ(installs, (std::vector<std::string>{"3.11 python.org", "3.12 store", "3.13 python.org",
                                                "3.10 conda", "3.12 conda"}));
}

// Issue 31: uv's managed Pythons (both folders uv has used, and UV_PYTHON_INSTALL_DIR) and a portable
// app's embedded Python, beside the app in the current folder or unpacked on the Desktop, are
// environments too; each with its interpreter and the version its files give.
TEST_F(WindowsProbeTest, PythonFromUvAndPortableApps) {
  const std::string roaming = "C:\\Users\\u\\AppData\\Roaming";
  Touch(roaming + "\\uv\\data\\python\\cpython-3.12.7-windows-x86_64-none\\python.exe");
  Touch(roaming + "\\uv\\data\\python\\cpython-3.12.7-windows-x86_64-none\\Lib\\site-packages\\x.py");
  Touch(roaming + "\\uv\\data\\python\\.lock");
  Touch(roaming + "\\uv\\python\\cpython-3.11.10-windows-x86_64-none\\Lib\\site-packages\\x.py");
  Touch("D:\\uvpy\\pypy-3.10.14-windows-x86_64-none\\Lib\\site-packages\\x.py");
  const std::string desktop_app = "C:\\Users\\u\\Desktop\\ComfyUI_windows_portable\\python_embeded";
  Touch(desktop_app + "\\python.exe");
  Touch(desktop_app + "\\python313._pth", "python313.zip\n.\nLib/site-packages\n");
  Touch(desktop_app + "\\Lib\\site-packages\\torch\\version.py",
        "__version__ = '2.8.0+cu129'\ncuda = '12.9'\n");
  const std::string here_app = "F:\\AI\\comfy-rocm\\python_embeded";  // any name: the current folder's
  Touch(here_app + "\\python312.dll");
  Touch(here_app + "\\Lib\\site-packages\\x.py");
  std::map<std::string, std::string> env = {{"USERPROFILE", "C:\\Users\\u"},
                                            {"APPDATA", roaming},
                                            {"UV_PYTHON_INSTALL_DIR", "D:\\uvpy"},
                                            {"PWD", "F:\\AI\\comfy-rocm\\ComfyUI"}};
  auto locs = Locations(env);
  std::vector<std::string> got;
  for (const auto& l : locs)
    got.push_back(l.kind + " " + l.python_version + " " + l.prefix + " " + l.interpreter);
  std::vector<std::string> want = {
      "uv 3.10 D:\\uvpy\\pypy-3.10.14-windows-x86_64-none ",
      "uv 3.12 " + roaming + "\\uv\\data\\python\\cpython-3.12.7-windows-x86_64-none " + roaming +
          "\\uv\\data\\python\\cpython-3.12.7-windows-x86_64-none\\python.exe",
      "uv 3.11 " + roaming + "\\uv\\python\\cpython-3.11.10-windows-x86_64-none ",
      "portable 3.12 " + here_app + " ", "portable 3.13 " + desktop_app + " " + desktop_app + "\\python.exe"};
  EXPECT_EQ(got, want);
  // The Python probe lists the one with torch, found by its place.
  Snapshot s = Probe(env);
  ASSERT_EQ(s.python_envs.size(), 1u);
  EXPECT_EQ(s.python_envs[0].path, desktop_app);
  EXPECT_EQ(s.python_envs[0].kind, "portable");
  EXPECT_EQ(s.python_envs[0].python_version, "3.13");
  EXPECT_EQ(s.python_envs[0].interpreter, desktop_app + "\\python.exe");
  EXPECT_EQ(s.python_envs[0].found_by, (std::vector<std::string>{"portable"}));
  ASSERT_TRUE(s.python_envs[0].torch.has_value());
  EXPECT_EQ(s.python_envs[0].torch->version, "2.8.0+cu129");
}

}  // namespace
}  // namespace gpudoctor
