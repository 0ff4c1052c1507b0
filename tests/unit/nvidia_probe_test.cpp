// Tests of the NVIDIA probe: /proc driver version, the recorded NVML answers under a sysroot (valid,
// malformed, wrong types), their JSON round trip, bus id normalization, the mirrored ABI structs and
// the symbol binder; the live query only where no GPU is needed to judge it.
#include "probe/linux/nvidia_probe.h"

#include <gtest/gtest.h>

#include <cstddef>

#include "core/pci_address.h"
#include "gpu/api/cuda_driver_api.h"
#include "gpu/api/nvml_api.h"
#include "probe/linux/nvidia_record.h"
#include "probe/linux/procfs_parse.h"
#include "probe_test_sysroot.h"

namespace gpudoctor {
namespace {

using testing::HasWarning;
using testing::LookedAt;
using testing::ProbeSysroot;

constexpr const char* kProprietaryVersion =
    "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.03  Thu Oct  9 20:05:43 UTC 2025\n"
    "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n";
constexpr const char* kOpenVersion =
    "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.65.06  Release Build  "
    "(dvs-builder@U16-I3-B03-4-3)  Sun Jul 27 06:54:38 UTC 2025\nGCC version:  gcc version 13.3.0\n";

constexpr const char* kRecordedH200 = R"({
  "driver_version": "580.65.06",
  "cuda_driver_version": 13000,
  "devices": [
    {"index": 0, "name": "NVIDIA H200", "uuid": "GPU-1b2c3d4e-0000-1111-2222-333344445555",
     "pci_address": "00000000:17:00.0", "memory_total_bytes": 150754820096, "cc_major": 9, "cc_minor": 0},
    {"index": 1, "name": "NVIDIA H200", "uuid": "GPU-aaaaaaaa-0000-1111-2222-333344445555",
     "pci_address": "0000:3D:00.0", "memory_total_bytes": 150754820096, "cc_major": 9, "cc_minor": 0}
  ]
})";

const LibraryProbe* FindLibrary(const Snapshot& snap, const std::string& name) {
  for (const auto& l : snap.nvidia.libraries)
    if (l.library == name) return &l;
  return nullptr;
}

TEST(NvidiaProcVersion, ParsesProprietaryAndOpenModules) {
  EXPECT_EQ(ParseNvidiaProcVersion(kProprietaryVersion).value_or(""), "580.159.03");
  EXPECT_EQ(ParseNvidiaProcVersion(kOpenVersion).value_or(""), "580.65.06");
  EXPECT_EQ(ParseNvidiaProcVersion("NVRM version: NVIDIA UNIX aarch64 Kernel Module  535.216.01  Wed\n")
                .value_or(""),
            "535.216.01");
  EXPECT_FALSE(ParseNvidiaProcVersion("").ok());
  EXPECT_FALSE(ParseNvidiaProcVersion("NVRM version: NVIDIA UNIX x86_64 Kernel Module").ok());
  EXPECT_FALSE(ParseNvidiaProcVersion("GCC version: 12.2.0\n").ok());
}

// Issue 13: Blackwell needs the open flavour, so the probe tells the two apart by the NVRM line.
TEST(NvidiaProcVersion, TellsTheOpenModuleFromTheProprietaryOne) {
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion(kProprietaryVersion), NvidiaKernelModule::kProprietary);
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion(kOpenVersion), NvidiaKernelModule::kOpen);
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion("NVRM version: NVIDIA UNIX aarch64 Kernel Module  580.95.05\n"),
            NvidiaKernelModule::kProprietary);
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion(
                "NVRM version: NVIDIA UNIX Open Kernel Module for aarch64  580.95.05  Release Build\n"),
            NvidiaKernelModule::kOpen);
  // "Open" after the module words (a build host name) does not make it open.
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion(
                "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.95.05  (Open-builder)\n"),
            NvidiaKernelModule::kProprietary);
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion(""), NvidiaKernelModule::kUnknown);
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion("GCC version: 12.2.0\n"), NvidiaKernelModule::kUnknown);
  EXPECT_EQ(NvidiaKernelModuleFromProcVersion("NVRM version: something else 1.2\n"),
            NvidiaKernelModule::kUnknown);
}

TEST(NvidiaProbe, ReadsDriverVersionFromProc) {
  ProbeSysroot root;
  root.Write("/proc/driver/nvidia/version", kOpenVersion);
  Snapshot snap = root.Run(ProbeNvidia);
  EXPECT_EQ(snap.nvidia.kernel_module, NvidiaKernelModule::kOpen);
  EXPECT_EQ(snap.nvidia.driver_version, "580.65.06");
  EXPECT_EQ(snap.nvidia.driver_version_source, "/proc/driver/nvidia/version");
  EXPECT_TRUE(LookedAt(snap, "/proc/driver/nvidia/version"));
  EXPECT_TRUE(snap.warnings.empty());
}

TEST(NvidiaProbe, NoNvidiaAtAllIsQuiet) {
  ProbeSysroot root;
  Snapshot snap = root.Run(ProbeNvidia);
  EXPECT_FALSE(snap.nvidia.driver_version.has_value());
  EXPECT_TRUE(snap.nvidia.devices.empty());
  EXPECT_TRUE(snap.warnings.empty());
  ASSERT_EQ(snap.nvidia.libraries.size(), 2u);
  for (const auto& lib : snap.nvidia.libraries) {
    EXPECT_EQ(lib.status, LoadStatus::kNotProbed);
    EXPECT_NE(lib.detail.find("no recorded answers"), std::string::npos);
  }
}

TEST(NvidiaProbe, UsesRecordedAnswersUnderASysroot) {
  ProbeSysroot root;
  root.Write("/proc/driver/nvidia/version", kProprietaryVersion);
  root.Write("/.gpudoctor/nvml.json", kRecordedH200);
  Snapshot snap = root.Run(ProbeNvidia);
  const NvidiaInfo& nv = snap.nvidia;
  EXPECT_EQ(nv.driver_version, "580.159.03");  // /proc wins over the recorded NVML answer
  EXPECT_EQ(nv.driver_version_source, "/proc/driver/nvidia/version");
  EXPECT_EQ(nv.cuda_driver_version, 13000u);
  ASSERT_EQ(nv.devices.size(), 2u);
  EXPECT_EQ(nv.devices[0].index, 0u);
  EXPECT_EQ(nv.devices[0].name, "NVIDIA H200");
  EXPECT_EQ(nv.devices[0].uuid, "GPU-1b2c3d4e-0000-1111-2222-333344445555");
  EXPECT_EQ(nv.devices[0].pci_address, "0000:17:00.0");
  EXPECT_EQ(nv.devices[0].memory_total_bytes, 150754820096ull);
  EXPECT_EQ(nv.devices[0].cc_major, 9u);
  EXPECT_EQ(nv.devices[0].cc_minor, 0u);
  EXPECT_EQ(nv.devices[1].pci_address, "0000:3d:00.0");
  const LibraryProbe* nvml = FindLibrary(snap, "nvml");
  ASSERT_NE(nvml, nullptr);
  EXPECT_EQ(nvml->status, LoadStatus::kNotProbed);
  EXPECT_EQ(nvml->detail, "recorded answers from .gpudoctor/nvml.json");
  ASSERT_NE(FindLibrary(snap, "cuda"), nullptr);
  EXPECT_TRUE(snap.warnings.empty());
  EXPECT_TRUE(LookedAt(snap, "/.gpudoctor/nvml.json"));
}

TEST(NvidiaProbe, RecordedDriverVersionFillsInWhenProcHasNone) {
  ProbeSysroot root;
  root.Write("/.gpudoctor/nvml.json", kRecordedH200);
  Snapshot snap = root.Run(ProbeNvidia);
  EXPECT_EQ(snap.nvidia.driver_version, "580.65.06");
  EXPECT_EQ(snap.nvidia.driver_version_source, "nvml (recorded)");
}

TEST(NvidiaProbe, MalformedRecordedAnswersWarn) {
  for (const char* bad : {"", "{", "[1,2,3]", "\"just a string\"", "{\"devices\": [", "\xff\xfe{}", "null"}) {
    ProbeSysroot root;
    root.Write("/.gpudoctor/nvml.json", bad);
    Snapshot snap = root.Run(ProbeNvidia);
    EXPECT_TRUE(HasWarning(snap, "/.gpudoctor/nvml.json")) << bad;
    EXPECT_TRUE(snap.nvidia.devices.empty());
    ASSERT_NE(FindLibrary(snap, "nvml"), nullptr);
    EXPECT_NE(FindLibrary(snap, "nvml")->detail.find("malformed"), std::string::npos);
  }
}

TEST(NvidiaProbe, WrongTypesAreSkippedFieldByField) {
  ProbeSysroot root;
  root.Write("/.gpudoctor/nvml.json", R"({
    "driver_version": 580, "cuda_driver_version": "13000",
    "devices": [
      {"index": "zero", "name": 42, "uuid": "GPU-x", "pci_address": "garbage",
       "memory_total_bytes": -5, "cc_major": 9.5, "cc_minor": 99999999999},
      "not an object",
      {"index": 3, "name": "NVIDIA A100-SXM4-80GB", "pci_address": "0000:07:00.0", "memory_total_bytes": null}
    ]})");
  Snapshot snap = root.Run(ProbeNvidia);
  const NvidiaInfo& nv = snap.nvidia;
  EXPECT_FALSE(nv.driver_version.has_value());
  EXPECT_FALSE(nv.cuda_driver_version.has_value());
  ASSERT_EQ(nv.devices.size(), 2u);
  EXPECT_EQ(nv.devices[0].index, 0u);  // its position stands in for a wrong index
  EXPECT_EQ(nv.devices[0].name, "");
  EXPECT_EQ(nv.devices[0].uuid, "GPU-x");
  EXPECT_EQ(nv.devices[0].pci_address, "");
  EXPECT_FALSE(nv.devices[0].memory_total_bytes.has_value());
  EXPECT_FALSE(nv.devices[0].cc_major.has_value());
  EXPECT_FALSE(nv.devices[0].cc_minor.has_value());
  EXPECT_EQ(nv.devices[1].index, 3u);
  EXPECT_EQ(nv.devices[1].name, "NVIDIA A100-SXM4-80GB");
  EXPECT_FALSE(nv.devices[1].memory_total_bytes.has_value());
  for (const char* field : {"driver_version", "cuda_driver_version", "devices[0].index", "devices[0].name",
                            "devices[0].pci_address", "devices[0].memory_total_bytes", "devices[0].cc_major",
                            "devices[0].cc_minor", "devices[1] is not an object"}) {
    EXPECT_TRUE(HasWarning(snap, field)) << field;
  }
  EXPECT_EQ(snap.warnings.size(), 9u);
}

TEST(NvidiaProbe, RecordedFileThatIsAFolderWarns) {
  ProbeSysroot root;
  root.MakeDir("/.gpudoctor/nvml.json");
  Snapshot snap = root.Run(ProbeNvidia);
  EXPECT_TRUE(HasWarning(snap, "nvml.json"));
  EXPECT_TRUE(snap.nvidia.devices.empty());
}

TEST(NvidiaProbe, GarbageProcVersionWarns) {
  ProbeSysroot root;
  root.Write("/proc/driver/nvidia/version", std::string("\x00\x01NVRM version: \xff\xff", 18));
  Snapshot snap = root.Run(ProbeNvidia);
  EXPECT_FALSE(snap.nvidia.driver_version.has_value());
  EXPECT_TRUE(HasWarning(snap, "/proc/driver/nvidia/version"));

  ProbeSysroot folder_root;
  folder_root.MakeDir("/proc/driver/nvidia/version");
  EXPECT_TRUE(HasWarning(folder_root.Run(ProbeNvidia), "/proc/driver/nvidia/version"));
}

TEST(NvidiaRecord, RoundTripsThroughJson) {
  NvidiaInfo info;
  info.driver_version = "580.159.03";
  info.cuda_driver_version = 13000;
  NvidiaDevice d;
  d.index = 2;
  d.name = "NVIDIA H200";
  d.uuid = "GPU-1b2c3d4e-0000-1111-2222-333344445555";
  d.pci_address = "0000:17:00.0";
  d.memory_total_bytes = 150754820096ull;
  d.cc_major = 9;
  d.cc_minor = 0;
  info.devices.push_back(d);
  NvidiaDevice partial;
  partial.index = 3;
  info.devices.push_back(partial);

  auto back = ParseNvidiaAnswersJson(NvidiaAnswersToJson(info));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->problems.empty());
  EXPECT_EQ(back->driver_version, info.driver_version);
  EXPECT_EQ(back->cuda_driver_version, info.cuda_driver_version);
  ASSERT_EQ(back->devices.size(), 2u);
  EXPECT_EQ(back->devices[0].index, 2u);
  EXPECT_EQ(back->devices[0].name, d.name);
  EXPECT_EQ(back->devices[0].uuid, d.uuid);
  EXPECT_EQ(back->devices[0].pci_address, d.pci_address);
  EXPECT_EQ(back->devices[0].memory_total_bytes, d.memory_total_bytes);
  EXPECT_EQ(back->devices[0].cc_major, 9u);
  EXPECT_EQ(back->devices[0].cc_minor, 0u);
  EXPECT_FALSE(back->devices[1].memory_total_bytes.has_value());
  EXPECT_FALSE(back->devices[1].cc_major.has_value());
}

TEST(NvidiaRecord, NormalizesBusIds) {
  EXPECT_EQ(NormalizeNvidiaBusId("00000000:17:00.0"), "0000:17:00.0");
  EXPECT_EQ(NormalizeNvidiaBusId("0000:17:00.0"), "0000:17:00.0");
  EXPECT_EQ(NormalizeNvidiaBusId("17:00.0"), "0000:17:00.0");
  EXPECT_EQ(NormalizeNvidiaBusId("00000001:C1:1F.7\n"), "0001:c1:1f.7");
  EXPECT_EQ(NormalizeNvidiaBusId("00010000:01:00.0"), "10000:01:00.0");
  for (const char* bad : {"", "garbage", "0000:17:00", "0000:17:20.0", "0000:17:00.8", "000000000:17:00.0",
                          "0000:117:00.0", "a:b:c:d.0", "0000:17:00.0.1", "-1:17:00.0"}) {
    EXPECT_EQ(NormalizeNvidiaBusId(bad), "") << bad;
  }
}

TEST(NvmlAbi, MirroredStructsMatchNvmlH) {
  // The same checks the header makes at compile time, visible in the test list.
  EXPECT_EQ(sizeof(nvmlMemory_t), 24u);
  EXPECT_EQ(offsetof(nvmlMemory_t, used), 16u);
  EXPECT_EQ(sizeof(nvmlPciInfo_t), 68u);
  EXPECT_EQ(offsetof(nvmlPciInfo_t, domain), 16u);
  EXPECT_EQ(offsetof(nvmlPciInfo_t, pciSubSystemId), 32u);
  EXPECT_EQ(offsetof(nvmlPciInfo_t, busId), 36u);
  EXPECT_EQ(sizeof(CUuuid), 16u);
}

TEST(CudaDriverApi, FormatsUuidsLikeNvidiaSmi) {
  CUuuid u{};
  for (int i = 0; i < 16; ++i) u.bytes[i] = static_cast<char>(i * 0x11);
  EXPECT_EQ(FormatCudaUuid(u), "GPU-00112233-4455-6677-8899-aabbccddeeff");
}

#ifdef __linux__
// libc is present everywhere: it loads, and lacks every NVML symbol.
TEST(NvidiaSymbolBinder, ReportsMissingSymbolsByName) {
  struct Table {
    void* (*Malloc)(size_t) = nullptr;
    int (*Init)() = nullptr;
    int (*Optional)() = nullptr;
  };
  auto t =
      LoadTable<Table>({"libgpudoctor-does-not-exist.so", "libc.so.6"}, [](SymbolBinder& b, Table& table) {
        b.Required(table.Malloc, {"gpudoctor_no_such_v2", "malloc"});
        b.Required(table.Init, {"nvmlInit_v2", "nvmlInit"});
        b.Optional(table.Optional, {"cuDeviceGetUuid"});
      });
  EXPECT_EQ(t.status, LoadStatus::kBroken);
  EXPECT_NE(t.api.Malloc, nullptr);
  EXPECT_EQ(t.api.Init, nullptr);
  ASSERT_EQ(t.load.tried.size(), 2u);
  EXPECT_FALSE(t.load.loaded_path.empty());
  ASSERT_EQ(t.symbols.missing_required.size(), 1u);
  EXPECT_EQ(t.symbols.missing_required[0], "nvmlInit_v2|nvmlInit");
  EXPECT_EQ(t.symbols.missing_optional.size(), 1u);
  EXPECT_EQ(t.symbols.variants_bound, std::vector<std::string>{"malloc"});
  EXPECT_NE(t.symbols.Summary().find("missing nvmlInit_v2|nvmlInit"), std::string::npos);
  EXPECT_EQ(t.load.missing_symbols, t.symbols.missing_required);

  auto absent = LoadTable<Table>({"libgpudoctor-does-not-exist.so"}, [](SymbolBinder&, Table&) {});
  EXPECT_EQ(absent.status, LoadStatus::kAbsent);
  EXPECT_FALSE(absent.load.last_error.empty());
}

// On any machine: each library is loaded, absent or broken, and whatever NVML lists is well formed.
TEST(NvidiaProbe, LiveQueryNeverCrashes) {
  auto fs = MakeRootedFileSystem("/");
  Environment env;
  UserIdentity identity;
  ProbeContext ctx{*fs, env, identity, /*live=*/true};
  Snapshot snap;
  ProbeNvidia(ctx, snap);
  ASSERT_EQ(snap.nvidia.libraries.size(), 2u);
  for (const auto& lib : snap.nvidia.libraries) {
    EXPECT_TRUE(lib.status == LoadStatus::kLoaded || lib.status == LoadStatus::kAbsent ||
                lib.status == LoadStatus::kBroken)
        << LoadStatusName(lib.status);
    if (lib.status == LoadStatus::kAbsent) {
      EXPECT_FALSE(lib.detail.empty());
    }
    std::printf("[ info     ] %s: %s %s %s\n", lib.library.c_str(),
                std::string(LoadStatusName(lib.status)).c_str(), lib.loaded_path.c_str(), lib.detail.c_str());
  }
  for (const auto& d : snap.nvidia.devices) {
    EXPECT_EQ(d.pci_address, NormalizeNvidiaBusId(d.pci_address));
    std::printf("[ info     ] device %u %s %s %s cc %u.%u\n", d.index, d.name.c_str(), d.uuid.c_str(),
                d.pci_address.c_str(), d.cc_major.value_or(0), d.cc_minor.value_or(0));
  }
  for (const auto& w : snap.warnings) std::printf("[ info     ] warning: %s\n", w.c_str());
  if (snap.nvidia.cuda_driver_version)
    std::printf("[ info     ] cuda %u\n", *snap.nvidia.cuda_driver_version);
  std::printf("%s", NvidiaAnswersToJson(snap.nvidia).c_str());
}
#endif

}  // namespace
}  // namespace gpudoctor
