// Each measured figure against the card's spec: the peaks of the device's model from the knowledge base
// (memory bandwidth, FP32/TF32/FP16/BF16 rates), the PCIe link's per-direction rate from its generation
// and width, the percentage of peak, and the verdict. Pure functions of the benchmark results, the
// snapshot, the knowledge base and the telemetry the workers read.
//
// Verdict rules (docs/bench.md explains the choice of each threshold):
//   memory.*                low below 70% of the peak memory bandwidth
//   transfer.*_pinned       low below 60% of the PCIe link's peak (per direction)
//   transfer.*_pageable     low below 10% of the PCIe link's peak (the CPU's copy into staging buffers
//                           bounds these, not the link)
//   transfer.d2d            low below 50% of half the peak memory bandwidth (each byte read and written)
//   gemm.*                  low below 50% of the precision's peak rate
//   latency.submit          low above 20 us per launch (no peak: lower is better)
//   latency.roundtrip       low above 100 us
//   latency.driver_submit   the reference: never low
// A benchmark whose check failed, or that could not run, is "failed" whatever its figure; one that does
// not apply here is "skipped".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_types.h"
#include "knowledge/knowledge_db.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// A PCIe link state: generation (1..6), lanes, the per-direction rate, and where it was read.
struct PcieLinkState {
  uint32_t gen = 0;
  uint32_t width = 0;
  double gbs = 0;
  std::string source;  // "NVML under load", "sysfs"
};

struct BenchPeaks {
  std::string model;         // the knowledge base's name ("H200"), "" when the model is unknown
  std::string model_source;  // how it was matched: "PCI id 10de:2335", "device name"
  std::optional<double> bandwidth_gbs;
  std::optional<double> fp32_tflops, tf32_tflops, fp16_tflops, bf16_tflops;
  std::optional<PcieLinkState> link_max;  // the best the card and its slot allow
  std::optional<PcieLinkState> link_now;  // as trained (under load when NVML read it)
};

// Per-direction PCIe data rate in GB/s: GT/s x lanes x encoding efficiency / 8 (8b/10b for generations 1-2,
// 128b/130b for 3-5, 242/256 FLIT for 6).
double PcieGbPerSecond(uint32_t gen, uint32_t width);
// 2.5 -> 1, 5 -> 2, 8 -> 3, 16 -> 4, 32 -> 5, 64 -> 6; nullopt otherwise.
std::optional<uint32_t> PcieGenFromGts(double gts);
// "PCIe 5.0 x16".
std::string PcieLinkText(uint32_t gen, uint32_t width);

BenchPeaks FindPeaks(const BenchDevice& device, const Snapshot& snapshot, const KnowledgeDb& db,
                     const std::vector<BenchTelemetry>& telemetry);

struct VerdictRule {
  std::optional<double> low_below_fraction;  // of the peak
  std::optional<double> low_above;           // an absolute ceiling, in the benchmark's unit
};
VerdictRule RuleFor(const std::string& id);

// The peak a benchmark is set beside (nullopt: none known or none applies), with a few words on its source.
std::optional<std::pair<double, std::string>> PeakFor(const std::string& id, const BenchPeaks& peaks);

// Sets peak, percent_of_peak and verdict.
void JudgeResult(BenchResult& r, const BenchPeaks& peaks);

}  // namespace gpudoctor
