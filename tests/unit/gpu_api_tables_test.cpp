// The vendor tables without a GPU: a library that lacks the exports is "broken" with every missing symbol
// named, absent libraries are "absent", mirrored layouts hold, and the fp16/bf16 conversions round as the
// hardware does.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/api/adl_api.h"
#include "gpu/api/cublas_api.h"
#include "gpu/api/cuda_driver_api.h"
#include "gpu/api/hip_api.h"
#include "gpu/api/hiprtc_api.h"
#include "gpu/api/nvml_api.h"
#include "gpu/api/nvrtc_api.h"
#include "gpu/api/rocblas_api.h"
#include "gpu/api/rocm_smi_api.h"
#include "gpu/backend.h"
#include "gpu/numeric.h"

namespace gpudoctor {
namespace {

// A library every test machine has, which exports none of the vendor symbols (both systems' names).
const std::vector<std::string> kPlainLibrary = {"libc.so.6", "msvcrt.dll"};

TEST(GpuApiTables, ALibraryWithoutTheExportsIsBrokenAndNamesEachMissingSymbol) {
  auto hip = LoadHip(kPlainLibrary);
  ASSERT_EQ(hip.status, LoadStatus::kBroken);
  EXPECT_NE(hip.symbols.Summary().find("hipInit"), std::string::npos);
  EXPECT_NE(hip.symbols.Summary().find("hipModuleLaunchKernel"), std::string::npos);
  auto nvrtc = LoadNvrtc(kPlainLibrary);
  ASSERT_EQ(nvrtc.status, LoadStatus::kBroken);
  EXPECT_NE(nvrtc.symbols.Summary().find("nvrtcCompileProgram"), std::string::npos);
  auto cublas = LoadCublas(kPlainLibrary);
  ASSERT_EQ(cublas.status, LoadStatus::kBroken);
  EXPECT_NE(cublas.symbols.Summary().find("cublasGemmEx"), std::string::npos);
  EXPECT_NE(LoadRocblas(kPlainLibrary).symbols.Summary().find("rocblas_gemm_ex"), std::string::npos);
  EXPECT_NE(LoadHiprtc(kPlainLibrary).symbols.Summary().find("hiprtcGetCode"), std::string::npos);
  EXPECT_NE(LoadRocmSmi(kPlainLibrary).symbols.Summary().find("rsmi_init"), std::string::npos);
  // ADL (Windows `monitor`): the context and adapter calls are required, each metric's call optional.
  auto adl = LoadAdl(kPlainLibrary);
  ASSERT_EQ(adl.status, LoadStatus::kBroken);
  EXPECT_NE(adl.symbols.Summary().find("ADL2_Main_Control_Create"), std::string::npos);
  EXPECT_NE(adl.symbols.Summary().find("ADL2_Adapter_AdapterInfo_Get"), std::string::npos);
  EXPECT_NE(adl.symbols.Summary().find("ADL2_New_QueryPMLogData_Get"), std::string::npos);
  for (const auto& required : adl.symbols.missing_required) {
    EXPECT_EQ(required.find("ADL2_New_QueryPMLogData_Get"), std::string::npos);
    EXPECT_EQ(required.find("ADL2_Adapter_DedicatedVRAMUsage_Get"), std::string::npos);
  }
}

TEST(GpuApiTables, TheBenchmarksExportsAreOptionalAndNamedWhenMissing) {
  // Pinned memory, asynchronous copies and the telemetry behind the benchmarks' cause findings: an older
  // library without them still loads; the report names each one it lacks.
  auto cuda = LoadCudaDriver(kPlainLibrary);
  std::string cuda_missing = cuda.symbols.Summary();
  for (const char* name : {"cuMemAllocHost_v2", "cuMemFreeHost", "cuMemcpyHtoDAsync_v2",
                           "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoDAsync_v2"}) {
    EXPECT_NE(cuda_missing.find(name), std::string::npos) << name;
    for (const auto& required : cuda.symbols.missing_required)
      EXPECT_EQ(required.find(name), std::string::npos);
  }
  auto hip = LoadHip(kPlainLibrary);
  for (const char* name : {"hipHostMalloc", "hipHostFree", "hipMemcpyAsync", "hipDeviceCanAccessPeer",
                           "hipDeviceEnablePeerAccess", "hipMemcpyPeer"}) {
    EXPECT_NE(hip.symbols.Summary().find(name), std::string::npos) << name;
    for (const auto& required : hip.symbols.missing_required)
      EXPECT_EQ(required.find(name), std::string::npos);
  }
  auto nvml = LoadNvml(kPlainLibrary);
  EXPECT_NE(nvml.symbols.Summary().find(
                "nvmlDeviceGetComputeRunningProcesses_v3|nvmlDeviceGetComputeRunningProcesses_v2"),
            std::string::npos);
  EXPECT_NE(nvml.symbols.Summary().find("nvmlDeviceGetMaxPcieLinkWidth"), std::string::npos);
  // `monitor`'s utilization and fan speed (issue 18): optional too, named when missing.
  EXPECT_NE(nvml.symbols.Summary().find("nvmlDeviceGetUtilizationRates"), std::string::npos);
  EXPECT_NE(nvml.symbols.Summary().find("nvmlDeviceGetFanSpeed"), std::string::npos);
  EXPECT_NE(nvml.symbols.Summary().find("nvmlDeviceGetMemoryInfo_v2"), std::string::npos);
  for (const auto& required : nvml.symbols.missing_required)
    EXPECT_EQ(required.find("nvmlDeviceGetUtilizationRates"), std::string::npos);
  static_assert(sizeof(nvmlProcessInfo_t) == 24, "the v2/v3 process record");
  static_assert(kGpuBackendApiVersion == 4, "version 4: telemetry left the Backend for telemetry/");
}

// The peer-to-peer exports the P2P matrix binds, in the HIP runtime Debian 12 ships (libamdhip64 5.2, where
// `nm -D` lists them at version hip_4.2): loaded, bound, not reported missing.
TEST(GpuApiTables, DebiansHipRuntimeHasThePeerToPeerCalls) {
  auto hip = LoadHip({"libamdhip64.so.5"});
  if (hip.status == LoadStatus::kAbsent)
    GTEST_SKIP() << "libamdhip64.so.5 is not installed here (apt-get install libamdhip64-5): skipped";
  ASSERT_EQ(hip.status, LoadStatus::kLoaded) << hip.symbols.Summary();
  EXPECT_NE(hip.api.DeviceCanAccessPeer, nullptr);
  EXPECT_NE(hip.api.DeviceEnablePeerAccess, nullptr);
  EXPECT_NE(hip.api.MemcpyPeer, nullptr);
  for (const auto& missing : hip.symbols.missing_optional)
    EXPECT_EQ(missing.find("Peer"), std::string::npos) << missing;
}

TEST(GpuApiTables, MissingFilesAreAbsentWithTheLoaderText) {
  auto t = LoadCublas({"libgpudoctor-no-such-library.so.1"});
  EXPECT_EQ(t.status, LoadStatus::kAbsent);
  EXPECT_FALSE(t.load.last_error.empty());
  EXPECT_EQ(t.load.tried, std::vector<std::string>{"libgpudoctor-no-such-library.so.1"});
}

TEST(GpuApiTables, NamesCoverBothSystemsNewestFirst) {
  auto hip = HipLibraryNames();
  EXPECT_EQ(hip.front(), "libamdhip64.so.7");
  EXPECT_NE(std::find(hip.begin(), hip.end(), "amdhip64_6.dll"), hip.end());
  EXPECT_EQ(NvrtcLibraryNames().front(), "libnvrtc.so.13");
  EXPECT_EQ(CublasLibraryNames().front(), "libcublas.so.13");
}

TEST(GpuApiTables, RsmiPciIdIsUnpacked) {
  uint64_t bdf = (0x0001ull << 32) | (0xc1u << 8) | (0x1fu << 3) | 0x7u;
  EXPECT_EQ(FormatRsmiPciId(bdf), "0001:c1:1f.7");
}

TEST(GpuApiTables, KernelArgsPassEightByteSlotsWithSmallValuesAtTheStart) {
  KernelArgs args;
  args.Ptr(0x1122334455667788ull).U32(7).F32(2.5f).U64(9);
  auto ptrs = args.Pointers();
  ASSERT_EQ(ptrs.size(), 4u);
  EXPECT_EQ(*static_cast<uint64_t*>(ptrs[0]), 0x1122334455667788ull);
  EXPECT_EQ(*static_cast<uint32_t*>(ptrs[1]), 7u);
  EXPECT_EQ(*static_cast<float*>(ptrs[2]), 2.5f);
  EXPECT_EQ(args.RawF32(2), 2.5f);
  static_assert(sizeof(DevicePtr) == 8, "device pointers are 64-bit");
}

TEST(GpuNumeric, HalfRoundsToNearestEven) {
  EXPECT_EQ(FloatToHalfBits(1.0f), 0x3c00);
  EXPECT_EQ(FloatToHalfBits(-2.0f), 0xc000);
  EXPECT_EQ(FloatToHalfBits(65504.0f), 0x7bff);
  EXPECT_EQ(FloatToHalfBits(1e6f), 0x7c00);                   // overflow: infinity
  EXPECT_EQ(FloatToHalfBits(1.0f + 1.0f / 2048), 0x3c00);     // a tie rounds to even
  EXPECT_EQ(FloatToHalfBits(5.960464477539063e-8f), 0x0001);  // the smallest subnormal
  EXPECT_TRUE(std::isnan(HalfBitsToFloat(FloatToHalfBits(NAN))));
  for (uint32_t h = 0; h < 0x7c00; h += 7)
    EXPECT_EQ(FloatToHalfBits(HalfBitsToFloat(static_cast<uint16_t>(h))), h);
}

TEST(GpuNumeric, Bf16RoundsToNearestEven) {
  EXPECT_EQ(FloatToBf16Bits(1.0f), 0x3f80);
  EXPECT_EQ(Bf16BitsToFloat(0x3f80), 1.0f);
  EXPECT_EQ(FloatToBf16Bits(1.0f + 1.0f / 256), 0x3f80);  // a tie rounds to even
  EXPECT_EQ(FloatToBf16Bits(1.0f + 3.0f / 256), 0x3f82);
  EXPECT_TRUE(std::isnan(Bf16BitsToFloat(FloatToBf16Bits(NAN))));
}

}  // namespace
}  // namespace gpudoctor
