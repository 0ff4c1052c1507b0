// The benchmarks on a real GPU, labelled RealGpu (run them with --gtest_filter='*RealGpu*'): each group runs
// in-process at the quick level on the CUDA or HIP runtime found here and must measure and check right; a
// planted wrong element must fail the triad. They skip only when the drivers' device nodes show no GPU
// (gpu_environment.h); where they show one, a runtime that does not load or sees no device fails them.
// bench/torch_compare.sh runs them on the device machine.
#include <gtest/gtest.h>

#include "bench_test_util.h"
#include "gates/worker_sampler.h"
#include "gpu/backend_inputs.h"
#include "gpu_environment.h"

namespace gpudoctor {
namespace {

class RealGpuBench : public ::testing::Test {
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
      kind_ = kind;
      return;
    }
    FAIL() << "the drivers show a GPU (/dev/nvidiactl or /dev/kfd), but no runtime gives a device:" << why;
  }

  CollectingSink Run(const std::string& group, BenchOptions options = BenchOptions{}) {
    CollectingSink sink;
    auto backend = MakeBackend(kind_, inputs_);  // a fresh backend per group, as a worker has
    EXPECT_TRUE(backend.ok());
    if (!backend.ok()) return sink;
    auto groups = MakeBenchmarks();
    Benchmark* g = FindGroup(groups, group);
    std::vector<std::string> ids;
    for (const auto& s : g->Specs()) ids.push_back(s.id);
    const FileSystem& fs = *fs_;
    std::string vendor = TelemetryVendorOf(kind_);
    BenchContext ctx{**backend,
                     options,
                     sink,
                     "",
                     stderr,
                     0,
                     [&fs, vendor](const std::string& pci) {
                       return OpenGpuSampler(fs, true, {vendor, pci});
                     },
                     nullptr};
    g->Run(ctx, ids);
    for (const auto& r : sink.results)
      std::fprintf(stderr, "RealGpu bench %-22s %10.2f %-7s %s %s\n", r.spec.id.c_str(), r.best.value_or(0),
                   r.spec.unit.c_str(), CheckText(r).c_str(), r.note.c_str());
    return sink;
  }

  std::unique_ptr<FileSystem> fs_;
  BackendInputs inputs_;
  BackendKind kind_ = BackendKind::kCuda;
};

void ExpectMeasuredAndRight(const CollectingSink& sink, size_t count) {
  ASSERT_EQ(sink.results.size(), count);
  for (const auto& r : sink.results) {
    if (r.run == BenchRun::kSkipped) continue;  // TF32 on HIP
    EXPECT_EQ(r.run, BenchRun::kMeasured) << r.spec.id << ": " << r.note;
    EXPECT_EQ(r.check, BenchCheck::kPassed) << r.spec.id << ": " << r.check_detail;
    EXPECT_TRUE(r.best.has_value() && *r.best > 0) << r.spec.id;
  }
}

TEST_F(RealGpuBench, MemoryKernelsMeasureAndCheck) {
  ExpectMeasuredAndRight(Run("memory"), 5);
}

TEST_F(RealGpuBench, TransfersMeasureAndCheck) {
  ExpectMeasuredAndRight(Run("transfer"), 5);
}

TEST_F(RealGpuBench, GemmMeasuresAndChecks) {
  ExpectMeasuredAndRight(Run("gemm"), 4);
}

TEST_F(RealGpuBench, LaunchLatencyMeasuresAndCounts) {
  CollectingSink sink = Run("latency");
  ExpectMeasuredAndRight(sink, 3);
}

TEST_F(RealGpuBench, APlantedWrongElementIsCaughtOnTheDevice) {
  BenchOptions options;
  options.plant_wrong = true;
  CollectingSink sink = Run("memory", options);
  const BenchResult* triad = sink.Find("memory.triad");
  ASSERT_NE(triad, nullptr);
  EXPECT_EQ(triad->check, BenchCheck::kFailed);
  EXPECT_NE(triad->check_detail.find("1 of"), std::string::npos) << triad->check_detail;
  EXPECT_EQ(sink.Find("memory.copy")->check, BenchCheck::kPassed);
}

}  // namespace
}  // namespace gpudoctor
