// Figures against the spec: PCIe rates, the peaks a device's model has in the knowledge base (by PCI id,
// then by name), the link state (NVML under load over sysfs), and the percent-of-peak and verdict of each
// rule: low when far below, failed whatever the figure when the check failed.
#include <gtest/gtest.h>

#include "bench/bench_spec.h"
#include "bench_test_util.h"
#include "knowledge/knowledge_loader.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using testing_rules::Db;

Snapshot WithPci(uint32_t vendor, uint32_t device, std::optional<uint32_t> revision = std::nullopt) {
  Snapshot s;
  PciDevice d;
  d.address = "0000:17:00.0";
  d.vendor_id = vendor;
  d.device_id = device;
  d.revision = revision;
  d.link.current_speed_gts = 2.5;
  d.link.current_width = 16;
  d.link.max_speed_gts = 32;
  d.link.max_width = 16;
  s.pci_devices.push_back(d);
  return s;
}

BenchDevice Device(const std::string& name = "NVIDIA H200") {
  return BenchDevice{{0, name, "0000:17:00.0", "sm_90", 150ull << 30, 132u}, "cuda"};
}

TEST(BenchSpec, PcieRatesPerDirection) {
  EXPECT_NEAR(PcieGbPerSecond(5, 16), 63.02, 0.01);
  EXPECT_NEAR(PcieGbPerSecond(4, 16), 31.51, 0.01);
  EXPECT_NEAR(PcieGbPerSecond(3, 8), 7.88, 0.01);
  EXPECT_NEAR(PcieGbPerSecond(1, 1), 0.25, 1e-9);
  EXPECT_NEAR(PcieGbPerSecond(6, 16), 121.0, 0.01);
  EXPECT_EQ(PcieGbPerSecond(7, 16), 0);
  EXPECT_EQ(PcieGenFromGts(16), 4u);
  EXPECT_EQ(PcieGenFromGts(2.5), 1u);
  EXPECT_FALSE(PcieGenFromGts(10).has_value());
  EXPECT_EQ(PcieLinkText(5, 16), "PCIe 5.0 x16");
}

TEST(BenchSpec, PeaksComeFromTheKnowledgeBaseByPciIdThenByName) {
  BenchPeaks h200 = FindPeaks(Device(), WithPci(0x10de, 0x2335), Db(), {});
  EXPECT_EQ(h200.model, "H200");
  EXPECT_EQ(h200.model_source, "PCI id 10de:2335");
  EXPECT_EQ(h200.bandwidth_gbs, 4800.0);
  EXPECT_EQ(h200.bf16_tflops, 989.4);
  EXPECT_EQ(h200.tf32_tflops, 494.7);
  EXPECT_EQ(h200.fp32_tflops, 67.0);
  ASSERT_TRUE(h200.link_max.has_value());
  EXPECT_EQ(h200.link_max->gen, 5u);
  EXPECT_EQ(h200.link_max->source, "sysfs");

  BenchPeaks by_name = FindPeaks(Device("NVIDIA H200"), Snapshot{}, Db(), {});
  EXPECT_EQ(by_name.model, "H200");
  EXPECT_EQ(by_name.model_source, "device name");
  EXPECT_TRUE(FindPeaks(Device("NVIDIA H2000"), Snapshot{}, Db(), {}).model.empty());  // whole words only

  BenchPeaks xtx = FindPeaks(Device("AMD Radeon RX 7900 XTX"), WithPci(0x1002, 0x744c, 0xc8), Db(), {});
  EXPECT_EQ(xtx.model, "Radeon RX 7900 XTX");
  EXPECT_EQ(xtx.bandwidth_gbs, 960.0);
  BenchPeaks mi300x = FindPeaks(Device("AMD Instinct MI300X"), Snapshot{}, Db(), {});
  EXPECT_EQ(mi300x.bf16_tflops, 1307.4);
  EXPECT_EQ(mi300x.bandwidth_gbs, 5300.0);
}

TEST(BenchSpec, TheLinkUnderLoadComesFromNvmlFirst) {
  BenchTelemetry t;
  t.id = "transfer.h2d_pinned";
  t.reading.pcie_gen = 4;
  t.reading.pcie_width = 16;
  t.reading.pcie_gen_max = 4;
  t.reading.pcie_width_max = 16;
  BenchPeaks p = FindPeaks(Device(), WithPci(0x10de, 0x2335), Db(), {t});
  ASSERT_TRUE(p.link_now && p.link_max);
  EXPECT_EQ(p.link_now->gen, 4u);
  EXPECT_EQ(p.link_now->source, "NVML under load");
  EXPECT_EQ(p.link_max->gen, 5u);  // the card's own maximum (sysfs) is higher than the slot's
  EXPECT_EQ(p.link_max->source, "sysfs");
}

TEST(BenchSpec, PercentOfPeakAndVerdicts) {
  BenchPeaks p = FindPeaks(Device(), WithPci(0x10de, 0x2335), Db(), {});
  BenchResult good = MadeResult("memory.triad", 4300);
  JudgeResult(good, p);
  EXPECT_EQ(good.peak, 4800.0);
  EXPECT_NEAR(*good.percent_of_peak, 89.58, 0.01);
  EXPECT_EQ(good.verdict, BenchVerdict::kOk);
  EXPECT_EQ(good.peak_source, "knowledge base: H200");

  BenchResult slow = MadeResult("memory.copy", 3000);  // 62.5% < 70%
  JudgeResult(slow, p);
  EXPECT_EQ(slow.verdict, BenchVerdict::kLow);

  BenchResult wrong = MadeResult("gemm.bf16", 790, "TFLOP/s");
  wrong.check = BenchCheck::kFailed;
  JudgeResult(wrong, p);
  EXPECT_EQ(wrong.verdict, BenchVerdict::kFailed);  // a good figure does not save a wrong result
  EXPECT_NEAR(*wrong.percent_of_peak, 79.85, 0.01);

  BenchResult d2d = MadeResult("transfer.d2d", 1000);
  JudgeResult(d2d, p);
  EXPECT_EQ(d2d.peak, 2400.0);
  EXPECT_EQ(d2d.verdict, BenchVerdict::kLow);  // 42% of half the bandwidth

  BenchResult pinned = MadeResult("transfer.h2d_pinned", 55);
  JudgeResult(pinned, p);
  EXPECT_NEAR(*pinned.peak, 63.02, 0.01);
  EXPECT_EQ(pinned.peak_source, "PCIe 5.0 x16 (sysfs)");
  EXPECT_EQ(pinned.verdict, BenchVerdict::kOk);
  BenchResult pageable = MadeResult("transfer.h2d_pageable", 5);  // 7.9% < 10%
  JudgeResult(pageable, p);
  EXPECT_EQ(pageable.verdict, BenchVerdict::kLow);

  BenchResult launch = MadeResult("latency.submit", 25, "us", false);
  JudgeResult(launch, p);
  EXPECT_FALSE(launch.peak.has_value());
  EXPECT_FALSE(launch.percent_of_peak.has_value());
  EXPECT_EQ(launch.verdict, BenchVerdict::kLow);  // over the 20 us ceiling
  BenchResult reference = MadeResult("latency.driver_submit", 500, "us", false);
  JudgeResult(reference, p);
  EXPECT_EQ(reference.verdict, BenchVerdict::kOk);  // the reference is never low

  BenchResult crashed = MadeResult("gemm.fp16", std::nullopt, "TFLOP/s");
  crashed.run = BenchRun::kError;
  JudgeResult(crashed, p);
  EXPECT_EQ(crashed.verdict, BenchVerdict::kFailed);
  BenchResult skipped = MadeResult("gemm.tf32", std::nullopt, "TFLOP/s");
  skipped.run = BenchRun::kSkipped;
  JudgeResult(skipped, p);
  EXPECT_EQ(skipped.verdict, BenchVerdict::kSkipped);

  BenchResult unknown = MadeResult("memory.triad", 10);
  JudgeResult(unknown, BenchPeaks{});
  EXPECT_EQ(unknown.verdict, BenchVerdict::kOk);  // no peak, no LOW
  EXPECT_FALSE(unknown.percent_of_peak.has_value());
}

}  // namespace
}  // namespace gpudoctor
