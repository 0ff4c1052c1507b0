// The bench flow against scripted executors (no processes, no GPU): the device found through verify's
// runtime and devices gates, the groups in order with --only, a crash handing the rest of its group to a
// fresh worker, the judgement against the knowledge base, findings and exit codes.
#include <gtest/gtest.h>

#include <map>

#include "bench/bench_runner.h"
#include "bench_test_util.h"
#include "knowledge/knowledge_loader.h"
#include "rules_test_util.h"

namespace gpudoctor {
namespace {

using testing_rules::Db;

// Answers runtime and devices; `no_device` makes the devices gate see nothing.
class DeviceGates final : public GateExecutor {
 public:
  bool no_device = false;
  std::vector<BackendKind> asked;
  std::vector<GateResult> Run(const GateRequest& request) override {
    asked.push_back(request.target.backend);
    GateResult rt;
    rt.gate = "runtime";
    rt.status = GateStatus::kPass;
    rt.runtime_version = "runtime 1.0";
    GateResult dv;
    dv.gate = "devices";
    dv.status = no_device ? GateStatus::kFail : GateStatus::kPass;
    dv.summary = no_device ? "the runtime sees no device" : "2 devices";
    if (!no_device)
      dv.devices = {{0, "NVIDIA H200", "0000:17:00.0", "sm_90", 150ull << 30, 132u},
                    {1, "NVIDIA H200", "0000:2a:00.0", "sm_90", 150ull << 30, 132u}};
    return {rt, dv};
  }
};

// Answers each benchmark with a figure from a table (half the H200's peak when unlisted); `crash_in` makes
// the first worker of its group die there.
class ScriptedBench final : public BenchExecutor {
 public:
  std::map<std::string, double> figures;
  std::string crash_in;
  std::vector<BenchWorkerRequest> requests;
  BenchStepOutcome Run(const BenchWorkerRequest& request) override {
    requests.push_back(request);
    BenchStepOutcome out;
    for (size_t i = 0; i < request.ids.size(); ++i) {
      const std::string& id = request.ids[i];
      if (id == crash_in) {
        crash_in.clear();
        BenchResult failed = MadeResult(id, std::nullopt);
        failed.run = BenchRun::kError;
        failed.note = "worker was killed by signal 11 (segmentation fault) during " + id;
        out.results.push_back(failed);
        out.rerun.assign(request.ids.begin() + static_cast<long>(i) + 1, request.ids.end());
        return out;
      }
      std::string unit = id.rfind("gemm", 0) == 0 ? "TFLOP/s" : id.rfind("latency", 0) == 0 ? "us" : "GB/s";
      double figure = figures.count(id) ? figures[id] : unit == "us" ? 3.0 : unit == "TFLOP/s" ? 800 : 4000;
      out.results.push_back(MadeResult(id, figure, unit, unit != "us"));
    }
    return out;
  }
};

Snapshot H200Machine() {
  Snapshot s;
  PciDevice d;
  d.address = "0000:2a:00.0";
  d.vendor_id = 0x10de;
  d.device_id = 0x2335;
  d.link.max_speed_gts = 32;
  d.link.max_width = 16;
  d.link.current_speed_gts = 32;
  d.link.current_width = 16;
  s.pci_devices.push_back(d);
  Gpu g;
  g.pci_address = d.address;
  g.vendor = GpuVendor::kNvidia;
  s.gpus.push_back(g);
  return s;
}

TEST(BenchRunner, RunsEveryGroupInOrderOnTheSelectedDeviceAndJudgesEachFigure) {
  DeviceGates gates;
  ScriptedBench bench;
  bench.figures["transfer.h2d_pinned"] = 55;
  bench.figures["transfer.h2d_pageable"] = 20;
  bench.figures["transfer.d2h_pinned"] = 55;
  bench.figures["transfer.d2h_pageable"] = 20;
  bench.figures["transfer.d2d"] = 1900;
  BenchRequest request;
  request.device_selector = "2a:00.0";
  std::vector<std::string> progress;
  BenchReport report = RunBench(request, H200Machine(), Db(), gates, bench,
                                [&](const std::string& line) { progress.push_back(line); });
  EXPECT_EQ(gates.asked, std::vector<BackendKind>{BackendKind::kCuda});  // from the NVIDIA GPU on the bus
  ASSERT_TRUE(report.device.has_value());
  EXPECT_EQ(report.device->index, 1);
  EXPECT_EQ(report.device->backend, "cuda");
  EXPECT_EQ(report.runtime_version, "runtime 1.0");
  ASSERT_EQ(bench.requests.size(), 4u);
  EXPECT_EQ(bench.requests[0].group, "memory");
  EXPECT_EQ(bench.requests[3].group, "latency");
  EXPECT_EQ(bench.requests[2].ids,
            (std::vector<std::string>{"gemm.fp32", "gemm.tf32", "gemm.fp16", "gemm.bf16"}));
  // The device crosses to the workers as its PCI address, not the runtime's index (1 here).
  EXPECT_EQ(bench.requests[0].target.device, "0000:2a:00.0");
  ASSERT_EQ(report.benchmarks.size(), AllBenchSpecs().size());
  for (const auto& r : report.benchmarks) EXPECT_NE(r.verdict, BenchVerdict::kFailed) << r.spec.id;
  // 4000 of 4800 GB/s is fine; 800 TFLOP/s of fp32's 67 is "more than peak" but not low.
  EXPECT_EQ(report.benchmarks[0].verdict, BenchVerdict::kOk);
  EXPECT_NEAR(*report.benchmarks[0].percent_of_peak, 83.33, 0.01);
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_TRUE(report.findings.empty());
  EXPECT_FALSE(progress.empty());
  EXPECT_NE(progress.front().find("NVIDIA H200 (0000:2a:00.0, cuda)"), std::string::npos) << progress.front();
}

TEST(BenchRunner, ACrashFailsOneBenchmarkAndTheRestOfItsGroupRunsInAFreshWorker) {
  DeviceGates gates;
  ScriptedBench bench;
  bench.crash_in = "memory.mul";
  BenchRequest request;
  request.groups = {"memory"};
  BenchReport report = RunBench(request, H200Machine(), Db(), gates, bench);
  ASSERT_EQ(bench.requests.size(), 2u);
  EXPECT_EQ(bench.requests[1].ids, (std::vector<std::string>{"memory.add", "memory.triad", "memory.dot"}));
  ASSERT_EQ(report.benchmarks.size(), 5u);
  EXPECT_EQ(report.benchmarks[1].spec.id, "memory.mul");
  EXPECT_EQ(report.benchmarks[1].verdict, BenchVerdict::kFailed);
  EXPECT_EQ(report.benchmarks[4].verdict, BenchVerdict::kOk);
  EXPECT_EQ(report.exit_code, 1);
  ASSERT_FALSE(report.findings.empty());
  EXPECT_EQ(report.findings[0].id, "bench.not_completed");
}

TEST(BenchRunner, LowFiguresAreExitOneWithTheirFinding) {
  DeviceGates gates;
  ScriptedBench bench;
  bench.figures["memory.triad"] = 1000;
  BenchRequest request;
  request.groups = {"memory", "latency"};
  BenchReport report = RunBench(request, H200Machine(), Db(), gates, bench);
  ASSERT_EQ(bench.requests.size(), 2u);
  EXPECT_EQ(bench.requests[1].group, "latency");
  EXPECT_EQ(report.exit_code, 1);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].id, "bench.below_spec");
}

TEST(BenchRunner, NoDeviceIsExitTwoWithAFinding) {
  DeviceGates gates;
  gates.no_device = true;
  ScriptedBench bench;
  BenchReport report = RunBench(BenchRequest{}, Snapshot{}, Db(), gates, bench);
  EXPECT_EQ(gates.asked, (std::vector<BackendKind>{BackendKind::kCuda, BackendKind::kHip}));
  EXPECT_TRUE(bench.requests.empty());
  EXPECT_FALSE(report.device.has_value());
  EXPECT_EQ(report.exit_code, 2);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].id, "bench.no_gpu");
  EXPECT_NE(report.findings[0].evidence[0].find("cuda: the runtime sees no device"), std::string::npos);

  DeviceGates some;
  BenchRequest wrong_device;
  wrong_device.device_selector = "7";
  report = RunBench(wrong_device, H200Machine(), Db(), some, bench);
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_NE(report.findings[0].title.find("--device 7"), std::string::npos) << report.findings[0].title;
}

TEST(BenchRunner, TheGroupNamesAreTheExplicitList) {
  EXPECT_EQ(BenchGroupNames(), (std::vector<std::string>{"memory", "transfer", "gemm", "latency"}));
  auto specs = AllBenchSpecs();
  ASSERT_EQ(specs.size(), 17u);
  EXPECT_EQ(specs.front().id, "memory.copy");
  EXPECT_EQ(specs.back().id, "latency.roundtrip");
}

}  // namespace
}  // namespace gpudoctor
