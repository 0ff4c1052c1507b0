// The cause findings of a bench run, from hand-made results, telemetry and link states: each cause fires on
// its evidence and only there; low figures no cause explains get the "below spec" note.
#include <gtest/gtest.h>

#include <algorithm>

#include "bench/bench_causes.h"
#include "bench_test_util.h"

namespace gpudoctor {
namespace {

const BenchFinding* FindBenchFinding(const std::vector<BenchFinding>& findings, const std::string& id) {
  for (const auto& f : findings)
    if (f.id == id) return &f;
  return nullptr;
}

BenchResult Low(const std::string& id, double best, double peak, const std::string& unit = "GB/s") {
  BenchResult r = MadeResult(id, best, unit);
  r.peak = peak;
  r.percent_of_peak = 100 * best / peak;
  r.verdict = BenchVerdict::kLow;
  return r;
}

BenchTelemetry Reading(const std::string& id) {
  BenchTelemetry t;
  t.id = id;
  t.worker_pid = 500;
  return t;
}

// The processes a reading lists on the GPU, by id.
std::vector<ProcessMemory> Processes(const std::vector<uint32_t>& pids) {
  std::vector<ProcessMemory> out;
  for (uint32_t pid : pids) out.push_back({pid, std::nullopt});
  return out;
}

PcieLinkState LinkState(uint32_t gen, uint32_t width, const char* source) {
  return {gen, width, PcieGbPerSecond(gen, width), source};
}

TEST(BenchCauses, AHealthyRunHasNoFindings) {
  std::vector<BenchResult> results = {MadeResult("memory.triad", 4300),
                                      MadeResult("transfer.h2d_pinned", 55)};
  BenchPeaks peaks;
  peaks.link_now = LinkState(5, 16, "NVML under load");
  peaks.link_max = LinkState(5, 16, "sysfs");
  BenchTelemetry t = Reading("memory.dot");
  t.reading.processes = Processes({500});
  t.reading.throttle_reasons = {"sw_power_cap"};  // normal under load
  EXPECT_TRUE(FindBenchCauses(results, {t}, peaks).empty());
}

TEST(BenchCauses, WrongResultsAndCrashesAreErrors) {
  BenchResult wrong = MadeResult("memory.triad", 4300);
  wrong.check = BenchCheck::kFailed;
  wrong.check_detail = "1 of 268435456 elements differ";
  wrong.verdict = BenchVerdict::kFailed;
  BenchResult crashed = MadeResult("gemm.bf16", std::nullopt, "TFLOP/s");
  crashed.run = BenchRun::kError;
  crashed.note = "worker was killed by signal 11 (segmentation fault) during gemm.bf16";
  crashed.verdict = BenchVerdict::kFailed;
  auto findings = FindBenchCauses({wrong, crashed}, {}, BenchPeaks{});
  const BenchFinding* w = FindBenchFinding(findings, "bench.wrong_results");
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->severity, Severity::kError);
  EXPECT_EQ(w->evidence, std::vector<std::string>{"memory.triad: failed: 1 of 268435456 elements differ"});
  const BenchFinding* c = FindBenchFinding(findings, "bench.not_completed");
  ASSERT_NE(c, nullptr);
  EXPECT_NE(c->evidence[0].find("signal 11"), std::string::npos);
}

TEST(BenchCauses, ALinkBelowItsMaximumUnderLoadIsDowntrained) {
  BenchPeaks peaks;
  peaks.link_now = LinkState(3, 8, "NVML under load");
  peaks.link_max = LinkState(5, 16, "sysfs");
  auto findings = FindBenchCauses({Low("transfer.h2d_pinned", 6, 63)}, {}, peaks);
  const BenchFinding* f = FindBenchFinding(findings, "bench.pcie_downtrained");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kWarning);
  EXPECT_EQ(f->title, "the PCIe link runs at PCIe 3.0 x8, below PCIe 5.0 x16");
  EXPECT_NE(f->evidence.back().find("transfer.h2d_pinned: 6.00 GB/s"), std::string::npos)
      << f->evidence.back();
  EXPECT_EQ(FindBenchFinding(findings, "bench.below_spec"), nullptr);  // explained
}

TEST(BenchCauses, AnIdleLinkAtLowSpeedIsPowerSavingUnlessTransfersAreLow) {
  BenchPeaks peaks;
  peaks.link_now = LinkState(1, 16, "sysfs");  // read while idle
  peaks.link_max = LinkState(5, 16, "sysfs");
  EXPECT_EQ(FindBenchFinding(FindBenchCauses({MadeResult("transfer.h2d_pinned", 55)}, {}, peaks),
                             "bench.pcie_downtrained"),
            nullptr);
  EXPECT_NE(FindBenchFinding(FindBenchCauses({Low("transfer.h2d_pinned", 3, 63)}, {}, peaks),
                             "bench.pcie_downtrained"),
            nullptr);
  peaks.link_now = LinkState(5, 8, "sysfs");  // a narrower link is never power saving
  EXPECT_NE(FindBenchFinding(FindBenchCauses({MadeResult("transfer.h2d_pinned", 40)}, {}, peaks),
                             "bench.pcie_downtrained"),
            nullptr);
}

TEST(BenchCauses, PowerThrottleHeatAndClocksFromTelemetry) {
  BenchTelemetry t = Reading("gemm.bf16");
  t.reading.power_limit_watts = 400;
  t.reading.power_default_limit_watts = 700;
  t.reading.power_watts = 398;
  t.reading.throttle_reasons = {"sw_power_cap", "hw_slowdown"};
  t.reading.temperature_c = 92;
  t.reading.sm_clock_mhz = 800;
  t.reading.sm_clock_max_mhz = 1980;
  auto findings = FindBenchCauses({Low("gemm.bf16", 300, 989.4, "TFLOP/s")}, {t}, BenchPeaks{});
  const BenchFinding* power = FindBenchFinding(findings, "bench.power_capped");
  ASSERT_NE(power, nullptr);
  EXPECT_EQ(power->severity, Severity::kWarning);
  EXPECT_EQ(power->title, "the power limit is 400 W, below the board's default 700 W");
  const BenchFinding* throttled = FindBenchFinding(findings, "bench.throttled");
  ASSERT_NE(throttled, nullptr);
  EXPECT_EQ(throttled->evidence, std::vector<std::string>{"during gemm.bf16: hw_slowdown; 92 C; 398 W"});
  EXPECT_NE(FindBenchFinding(findings, "bench.hot"), nullptr);
  const BenchFinding* clocks = FindBenchFinding(findings, "bench.clocks_low");
  ASSERT_NE(clocks, nullptr);
  EXPECT_NE(clocks->evidence[0].find("SM clock 800 MHz of 1980 MHz"), std::string::npos);
  EXPECT_EQ(FindBenchFinding(findings, "bench.below_spec"), nullptr);

  // Low clocks alone say nothing when the GEMMs are fine; a lowered limit is only information then.
  auto fine = FindBenchCauses({MadeResult("gemm.bf16", 800, "TFLOP/s")}, {t}, BenchPeaks{});
  EXPECT_EQ(FindBenchFinding(fine, "bench.clocks_low"), nullptr);
  EXPECT_EQ(FindBenchFinding(fine, "bench.power_capped")->severity, Severity::kInfo);
}

TEST(BenchCauses, OtherProcessesOnTheGpu) {
  BenchTelemetry mine = Reading("memory.dot");
  mine.reading.processes = Processes({500, 77, 78});
  auto findings = FindBenchCauses({MadeResult("memory.dot", 4000)}, {mine}, BenchPeaks{});
  const BenchFinding* f = FindBenchFinding(findings, "bench.other_processes");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title, "2 other processes used the GPU while it was measured");
  EXPECT_EQ(f->evidence, std::vector<std::string>{"process ids 77, 78 held a compute context"});

  // In a container the library lists host process ids: the worker is one of them.
  BenchTelemetry foreign = Reading("memory.dot");
  foreign.reading.processes = Processes({9001, 9002});
  auto from_container = FindBenchCauses({}, {foreign}, BenchPeaks{});
  f = FindBenchFinding(from_container, "bench.other_processes");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->title, "1 other process used the GPU while it was measured");
  BenchTelemetry alone = Reading("memory.dot");
  alone.reading.processes = Processes({9001});
  EXPECT_EQ(FindBenchFinding(FindBenchCauses({}, {alone}, BenchPeaks{}), "bench.other_processes"), nullptr);
}

TEST(BenchCauses, LowFiguresWithNoCauseAreNoted) {
  auto findings =
      FindBenchCauses({Low("memory.triad", 2000, 4800), MadeResult("memory.copy", 4200)}, {}, BenchPeaks{});
  const BenchFinding* f = FindBenchFinding(findings, "bench.below_spec");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, Severity::kInfo);
  EXPECT_EQ(f->evidence.front(), "memory.triad: 2000 GB/s, 41.7% of 4800 GB/s");
  EXPECT_EQ(f->title, "1 figure is far below the spec, and no cause was found");
}

}  // namespace
}  // namespace gpudoctor
