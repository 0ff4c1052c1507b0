// Tests on a real GPU, labelled RealGpu (run them with --gtest_filter='*RealGpu*'): each one loads the CUDA
// or HIP runtime found on this machine and skips only when the drivers' device nodes show no GPU
// (gpu_environment.h); where they show one, a runtime that does not load or sees no device fails it.
// bench/device/verify_on_device.sh runs them on the device machine.
#include <gtest/gtest.h>

#include "gates/gate_context.h"
#include "gates/kernels.h"
#include "gates/worker_sampler.h"
#include "gpu/backend_inputs.h"
#include "gpu_environment.h"

namespace gpudoctor {
namespace {

class RealGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = MakeRootedFileSystem("/");
    inputs_.fs = fs_.get();
    inputs_.env = CaptureProcessEnvironment();
    inputs_.site_packages = FindSitePackages(*fs_, inputs_.env);
    // Whether to skip comes from the drivers' device nodes, never from the backend under test: where they
    // show a GPU, a runtime that does not load or lists no device fails the test.
    if (!testing::GpuInEnvironment()) GTEST_SKIP() << testing::kNoGpuSkip;
    std::string why;
    for (BackendKind kind : {BackendKind::kCuda, BackendKind::kHip}) {
      if (!(kind == BackendKind::kCuda ? testing::NvidiaGpuInEnvironment() : testing::AmdGpuInEnvironment()))
        continue;
      auto b = MakeBackend(kind, inputs_);
      if (!b || !(*b)->LoadRuntime()) {
        why +=
            std::string(" ") + (kind == BackendKind::kCuda ? "CUDA" : "HIP") + ": the runtime did not load;";
        continue;
      }
      auto devices = (*b)->Devices();
      if (!devices || devices->empty()) {
        why += std::string(" ") + (kind == BackendKind::kCuda ? "CUDA" : "HIP") + ": " +
               (devices ? std::string("no device listed") : devices.error().message) + ";";
        continue;
      }
      backend_ = std::move(b).value();
      return;
    }
    FAIL() << "the drivers show a GPU (/dev/nvidiactl or /dev/kfd), but no runtime gives a device:" << why;
  }
  // The sampler the worker would open for the backend's GPU.
  GpuSamplerOpener LiveSampler() const {
    const FileSystem& fs = *fs_;
    std::string vendor = TelemetryVendorOf(backend_->Kind());
    return [&fs, vendor](const std::string& pci) { return OpenGpuSampler(fs, true, {vendor, pci}); };
  }

  std::unique_ptr<FileSystem> fs_;
  BackendInputs inputs_;
  std::unique_ptr<Backend> backend_;
};

TEST_F(RealGpu, DevicesHaveIdentityAndArchitecture) {
  auto devices = backend_->Devices();
  ASSERT_TRUE(devices.ok());
  for (const auto& d : *devices) {
    EXPECT_FALSE(d.name.empty());
    EXPECT_EQ(d.pci_address.size(), 12u) << d.pci_address;
    EXPECT_FALSE(d.arch.empty());
    EXPECT_GT(d.memory_total_bytes, 1ull << 30);
  }
  EXPECT_EQ(backend_->Libraries().front().status, LoadStatus::kLoaded);
}

TEST_F(RealGpu, KernelSourceCompilesAndEveryEntryPointResolves) {
  ASSERT_TRUE(backend_->OpenDevice(0).ok());
  auto module = backend_->CompileModule(GateKernelSource(), kKernelProgramName, {});
  ASSERT_TRUE(module.ok()) << module.error().message;
  for (const char* name : {kTriadKernel, kMemFillKernel, kMemCheckKernel, kMemCheckInvertKernel, kSpinKernel})
    EXPECT_TRUE(backend_->GetFunction(*module, name).ok()) << name;
}

TEST_F(RealGpu, QuickGatesPassInProcess) {
  GateOptions options;
  options.sustain_seconds = 1;
  GateContext ctx{*backend_, options, "", stderr, std::nullopt, LiveSampler()};
  for (GateId id : {GateId::kContext, GateId::kCopy, GateId::kKernel, GateId::kGemmFp32, GateId::kGemmFp16,
                    GateId::kGemmBf16, GateId::kMemtest, GateId::kSustained}) {
    GateResult r = RunGate(id, ctx);
    EXPECT_EQ(r.status, GateStatus::kPass) << r.gate << ": " << r.summary;
    std::fprintf(stderr, "RealGpu gate %-10s %s\n", r.gate.c_str(), r.summary.c_str());
  }
}

TEST_F(RealGpu, PlantedWrongResultIsCaughtOnTheDevice) {
  GateOptions options;
  options.inject = InjectedFault::kWrongResult;
  GateContext ctx{*backend_, options, "", stderr, std::nullopt, LiveSampler()};
  GateResult r = RunGate(GateId::kKernel, ctx);
  EXPECT_EQ(r.status, GateStatus::kFail);
  EXPECT_NE(r.summary.find("wrong result: 1 of"), std::string::npos) << r.summary;
}

TEST_F(RealGpu, TelemetryReadsWhereTheLibraryIsThere) {
  ASSERT_TRUE(backend_->OpenDevice(0).ok());
  auto sampler = OpenDeviceSampler(*backend_, 0, LiveSampler());
  if (!sampler) GTEST_SKIP() << "telemetry library unavailable: " << sampler.error().message;
  auto t = (*sampler)->Read();
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_TRUE(t->temperature_c.has_value());
  std::fprintf(stderr, "RealGpu telemetry (%s): sm %s MHz, %.0f C, %.1f W\n", t->source.c_str(),
               t->sm_clock_mhz ? std::to_string(*t->sm_clock_mhz).c_str() : "n/a",
               t->temperature_c.value_or(-1), t->power_watts.value_or(-1));
}

}  // namespace
}  // namespace gpudoctor
