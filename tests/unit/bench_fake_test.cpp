// The benchmark groups in-process on the scripted fake backend: every benchmark measures a sweep and checks
// its own result; results planted wrong (a module compiled to write one wrong element, a corrupted copy or
// GEMM) fail exactly the benchmark they touch, whatever its figure; a failing operation becomes that
// benchmark's error. Also the sweep helpers and the GEMM operand generator.
#include <cmath>

#include "bench/bench_support.h"
#include "bench/gemm_operands.h"
#include "bench_test_util.h"
#include "gpu/numeric.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::kMiB;

void ExpectAllPassed(const CollectingSink& sink, size_t count) {
  ASSERT_EQ(sink.results.size(), count);
  for (const auto& r : sink.results) {
    EXPECT_EQ(r.run, BenchRun::kMeasured) << r.spec.id << ": " << r.note;
    EXPECT_EQ(r.check, BenchCheck::kPassed) << r.spec.id << ": " << r.check_detail;
    EXPECT_FALSE(r.points.empty()) << r.spec.id;
    ASSERT_TRUE(r.best.has_value()) << r.spec.id;
    EXPECT_GT(*r.best, 0) << r.spec.id;
  }
  EXPECT_EQ(sink.begun.size(), count);
}

TEST(BenchFake, MemoryKernelsMeasureASweepAndCheckEveryElement) {
  CollectingSink sink = RunGroupOnFake("memory", FakeScript(16 * kMiB));
  ExpectAllPassed(sink, 5);
  const BenchResult* triad = sink.Find("memory.triad");
  ASSERT_NE(triad, nullptr);
  EXPECT_EQ(triad->spec.unit, "GB/s");
  EXPECT_EQ(triad->spec.x_unit, "bytes");
  // 16 MiB leaves room for three 4 MiB arrays at most: the quick sweep's 1 MiB and 4 MiB points.
  ASSERT_EQ(triad->points.size(), 2u);
  EXPECT_EQ(triad->points[0].x, static_cast<double>(kMiB));
  EXPECT_EQ(triad->points[1].x, static_cast<double>(4 * kMiB));
  EXPECT_FALSE(sink.telemetry.empty());  // read while the last kernel kept the GPU busy
}

TEST(BenchFake, APlantedWrongElementFailsTheTriadOnly) {
  BenchOptions options;
  options.plant_wrong = true;
  CollectingSink sink = RunGroupOnFake("memory", FakeScript(4 * kMiB), options);
  ASSERT_EQ(sink.results.size(), 5u);
  for (const auto& r : sink.results) {
    EXPECT_EQ(r.run, BenchRun::kMeasured) << r.spec.id;
    if (r.spec.id == "memory.triad") {
      EXPECT_EQ(r.check, BenchCheck::kFailed);
      EXPECT_NE(r.check_detail.find("1 of 262144 elements differ from 0.22"), std::string::npos)
          << r.check_detail;
      EXPECT_TRUE(r.best.has_value());  // the figure is there, and still FAILED
    } else {
      EXPECT_EQ(r.check, BenchCheck::kPassed) << r.spec.id << ": " << r.check_detail;
    }
  }
}

TEST(BenchFake, AWrongDotSumFailsTheDot) {
  CollectingSink sink = RunGroupOnFake("memory", FakeScript(4 * kMiB, R"("corrupt": "launch")"));
  const BenchResult* dot = sink.Find("memory.dot");
  ASSERT_NE(dot, nullptr);
  EXPECT_EQ(dot->check, BenchCheck::kFailed);
  EXPECT_NE(dot->check_detail.find("relative error 1.00e+00"), std::string::npos) << dot->check_detail;
  EXPECT_EQ(sink.Find("memory.copy")->check, BenchCheck::kPassed);
}

TEST(BenchFake, TransfersCheckEveryWordThatArrives) {
  CollectingSink sink = RunGroupOnFake("transfer", FakeScript(8 * kMiB));
  ExpectAllPassed(sink, 5);
  // 8 MiB holds two 2 MiB buffers with room to spare: 64 KiB and 1 MiB from the quick sweep.
  EXPECT_EQ(sink.Find("transfer.d2d")->points.size(), 2u);
  ASSERT_FALSE(sink.telemetry.empty());
  EXPECT_EQ(sink.telemetry.front().id, "transfer.h2d_pinned");

  CollectingSink d2d = RunGroupOnFake("transfer", FakeScript(8 * kMiB, R"("corrupt": "copy_on_device")"));
  for (const auto& r : d2d.results)
    EXPECT_EQ(r.check, r.spec.id == "transfer.d2d" ? BenchCheck::kFailed : BenchCheck::kPassed) << r.spec.id;
  EXPECT_NE(d2d.Find("transfer.d2d")->check_detail.find("8-byte words wrong"), std::string::npos);
}

TEST(BenchFake, NoPinnedMemoryFailsThePinnedTransfersOnly) {
  CollectingSink sink =
      RunGroupOnFake("transfer", FakeScript(8 * kMiB, R"("fail": {"allocate_pinned": "no pinned memory"})"));
  ASSERT_EQ(sink.results.size(), 5u);
  for (const auto& r : sink.results) {
    bool pinned = r.spec.id.find("_pinned") != std::string::npos;
    EXPECT_EQ(r.run, pinned ? BenchRun::kError : BenchRun::kMeasured) << r.spec.id << ": " << r.note;
    if (pinned) {
      EXPECT_NE(r.note.find("no pinned memory"), std::string::npos) << r.note;
    } else {
      EXPECT_EQ(r.check, BenchCheck::kPassed) << r.spec.id << ": " << r.check_detail;
    }
  }
}

TEST(BenchFake, GemmChecksSampledEntriesAgainstTheCpu) {
  CollectingSink sink = RunGroupOnFake("gemm", FakeScript(kMiB / 2));
  ExpectAllPassed(sink, 4);
  const BenchResult* bf16 = sink.Find("gemm.bf16");
  ASSERT_NE(bf16, nullptr);
  EXPECT_EQ(bf16->spec.unit, "TFLOP/s");
  EXPECT_EQ(bf16->points.back().x,
            128);  // the largest power of two whose three matrices fit in half of 512 KiB

  CollectingSink wrong = RunGroupOnFake("gemm", FakeScript(kMiB / 2, R"("corrupt": "gemm_bf16")"));
  for (const auto& r : wrong.results)
    EXPECT_EQ(r.check, r.spec.id == "gemm.bf16" ? BenchCheck::kFailed : BenchCheck::kPassed) << r.spec.id;
  EXPECT_NE(wrong.Find("gemm.bf16")->check_detail.find("over the tolerance 1.00e-02"), std::string::npos)
      << wrong.Find("gemm.bf16")->check_detail;
}

TEST(BenchFake, AFailingGemmIsThatBenchmarksError) {
  CollectingSink sink =
      RunGroupOnFake("gemm", FakeScript(kMiB / 2, R"("fail": {"gemm_fp16": "no fp16 kernel"})"));
  ASSERT_EQ(sink.results.size(), 4u);
  EXPECT_EQ(sink.Find("gemm.fp16")->run, BenchRun::kError);
  EXPECT_NE(sink.Find("gemm.fp16")->note.find("no fp16 kernel"), std::string::npos);
  EXPECT_EQ(sink.Find("gemm.bf16")->run, BenchRun::kMeasured);
}

TEST(BenchFake, LaunchLatencyCountsEveryLaunch) {
  CollectingSink sink = RunGroupOnFake("latency", FakeScript(1 * kMiB));
  ExpectAllPassed(sink, 3);
  for (const auto& r : sink.results) {
    EXPECT_FALSE(r.spec.higher_is_better) << r.spec.id;
    EXPECT_EQ(r.spec.unit, "us");
    EXPECT_EQ(r.points.size(), 3u);  // grid sizes 1, 64, 4096
  }
  EXPECT_NE(sink.Find("latency.submit")->note.find("times the bare driver call"), std::string::npos);

  CollectingSink broken =
      RunGroupOnFake("latency", FakeScript(1 * kMiB, R"("fail": {"driver_launch": "no"})"));
  EXPECT_EQ(broken.Find("latency.submit")->run, BenchRun::kError);
  EXPECT_EQ(broken.Find("latency.driver_submit")->run, BenchRun::kError);
  EXPECT_EQ(broken.Find("latency.roundtrip")->run, BenchRun::kMeasured);
}

TEST(BenchFake, AGroupThatCannotOpenTheDeviceAnswersEveryBenchmark) {
  CollectingSink sink = RunGroupOnFake("memory", FakeScript(4 * kMiB, R"("fail": {"open_device": "gone"})"));
  ASSERT_EQ(sink.results.size(), 5u);
  for (const auto& r : sink.results) {
    EXPECT_EQ(r.run, BenchRun::kError);
    EXPECT_NE(r.note.find("gone"), std::string::npos);
  }
}

TEST(BenchSweep, SizesAreGeometricAndBoundedByMemory) {
  EXPECT_EQ(GeometricSizes(1, 64, 4), (std::vector<uint64_t>{1, 4, 16, 64}));
  EXPECT_EQ(GeometricSizes(kMiB, 1ull << 30, 2).size(), 11u);
  // The quick transfer sweep steps by 16 and still ends at 1 GiB.
  EXPECT_EQ(GeometricSizes(64 * 1024, 1ull << 30, 16),
            (std::vector<uint64_t>{64 * 1024, kMiB, 16 * kMiB, 256 * kMiB, 1ull << 30}));
  EXPECT_EQ(FitSizes({1, 4, 16, 64}, 20, 1), (std::vector<uint64_t>{1, 4, 16}));
  // Nothing of the list fits: one point at the largest power of two that does.
  EXPECT_EQ(FitSizes({kMiB, 4 * kMiB}, 300 * 1024, 64 * 1024), (std::vector<uint64_t>{256 * 1024}));
  EXPECT_TRUE(FitSizes({kMiB}, 1000, 4096).empty());
  EXPECT_EQ(ShortSize(64 * 1024), "64K");
  EXPECT_EQ(ShortSize(1ull << 30), "1G");
  EXPECT_EQ(ShortSize(3 * kMiB), "3M");
  // A figure beyond the caches: the small points count only when there is nothing larger.
  std::vector<BenchPoint> sweep = {{16 * kMiB, 4400}, {256 * kMiB, 4300}, {1024 * kMiB, 4350}};
  EXPECT_EQ(BestOf(sweep, true, static_cast<double>(kBeyondCacheBytes)), 4350);
  EXPECT_EQ(BestOf(sweep, true), 4400);
  EXPECT_EQ(BestOf({{kMiB, 10}, {2 * kMiB, 12}}, true, static_cast<double>(kBeyondCacheBytes)), 12);
  EXPECT_EQ(BestOf(sweep, false), 4300);
  EXPECT_FALSE(BestOf({}, true).has_value());
  EXPECT_DOUBLE_EQ(MedianOf({5, 1, 3}), 3);
  EXPECT_DOUBLE_EQ(MedianOf({4, 1, 3, 2}), 2.5);
}

TEST(BenchGemmOperands, ValuesAreExactOnA24BitGridAndRoundLikeTheHardware) {
  double sum = 0;
  for (uint64_t i = 0; i < 10000; ++i) {
    float v = OperandValue(42, i);
    EXPECT_GE(v, -1.0f);
    EXPECT_LT(v, 1.0f);
    double scaled = static_cast<double>(v) * 8388608.0;
    EXPECT_EQ(scaled, std::floor(scaled));  // k / 2^23 exactly
    sum += v;
    EXPECT_EQ(OperandAs(GemmType::kBF16, 42, i), Bf16BitsToFloat(FloatToBf16Bits(v)));
    EXPECT_EQ(OperandAs(GemmType::kF16, 42, i), HalfBitsToFloat(FloatToHalfBits(v)));
  }
  EXPECT_LT(std::fabs(sum / 10000), 0.05);  // centred on zero
  EXPECT_EQ(OperandValue(42, 7), OperandValue(42, 7));
  EXPECT_NE(OperandValue(42, 7), OperandValue(43, 7));
}

}  // namespace
}  // namespace gpudoctor
