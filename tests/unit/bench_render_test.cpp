// The renderings of a bench run: the JSON of docs/bench-json.md field by field (and read back by the same
// codec, bench/bench_json.h), the CSV with one row per sweep point and quoting, and the text tables with LOW
// / FAILED.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "bench/bench_json.h"
#include "bench/bench_report.h"
#include "bench_test_util.h"

namespace gpudoctor {
namespace {

BenchReport SampleReport() {
  BenchReport r;
  r.tool_version = "0.1.0";
  r.level = BenchLevel::kQuick;
  r.device = BenchDevice{{0, "NVIDIA H200", "0000:17:00.0", "sm_90", 150ull << 30, 132u}, "cuda"};
  r.runtime_version = "CUDA driver API 13.0";
  r.peak_model = "H200";
  r.peak_model_source = "PCI id 10de:2335";
  r.link_now = "PCIe 5.0 x16 (NVML under load)";
  r.link_max = "PCIe 5.0 x16 (NVML)";
  r.duration_s = 11.234;
  BenchResult triad = MadeResult("memory.triad", 4300);
  triad.spec.title = "Device memory: triad (a = b + s * c)";
  triad.spec.x_label = "array size";
  triad.peak = 4800;
  triad.percent_of_peak = 89.58;
  triad.peak_source = "knowledge base: H200";
  triad.note = "four 16-byte groups, \"best\" of 20";
  BenchResult gemm = MadeResult("gemm.bf16", 300, "TFLOP/s");
  gemm.spec.x_unit = "elements";
  gemm.points = {{1024, 150}, {8192, 300}};
  gemm.peak = 989.4;
  gemm.percent_of_peak = 30.3;
  gemm.verdict = BenchVerdict::kLow;
  BenchResult launch = MadeResult("latency.submit", 2.5, "us", false);
  launch.spec.x_unit = "blocks";
  launch.points = {{1, 2.5}, {4096, 2.6}};
  BenchResult wrong = MadeResult("transfer.d2d", 1500);
  wrong.check = BenchCheck::kFailed;
  wrong.check_detail = "at 1.0 GiB: 3 8-byte words wrong, first at byte offset 0x40";
  wrong.verdict = BenchVerdict::kFailed;
  wrong.points.back().value = std::nan("");
  r.benchmarks = {triad, gemm, launch, wrong};
  r.findings.push_back({"bench.wrong_results",
                        Severity::kError,
                        "1 benchmark computed wrong results",
                        {"transfer.d2d: failed: ..."},
                        "run verify"});
  r.exit_code = 1;
  return r;
}

TEST(BenchRender, JsonHasTheDocumentedShape) {
  auto j = nlohmann::json::parse(BenchReportToJson(SampleReport()));
  EXPECT_EQ(j["schema"], "gpudoctor.bench/1");
  EXPECT_EQ(j["tool_version"], "0.1.0");
  EXPECT_EQ(j["device"], (nlohmann::json{{"index", 0},
                                         {"name", "NVIDIA H200"},
                                         {"arch", "sm_90"},
                                         {"pci_address", "0000:17:00.0"},
                                         {"backend", "cuda"},
                                         {"memory_total_bytes", 150ull << 30},
                                         {"compute_units", 132}}));
  EXPECT_EQ(j["level"], "quick");
  EXPECT_EQ(j["peaks"]["model"], "H200");
  EXPECT_EQ(j["peaks"]["link"], "PCIe 5.0 x16 (NVML under load)");
  EXPECT_DOUBLE_EQ(j["duration_s"].get<double>(), 11.23);
  ASSERT_EQ(j["benchmarks"].size(), 4u);
  const auto& triad = j["benchmarks"][0];
  for (const char* key : {"id", "group", "title", "unit", "higher_is_better", "x_label", "x_unit", "points",
                          "best", "peak", "percent_of_peak", "verdict", "check", "note"})
    EXPECT_TRUE(triad.contains(key)) << key;
  EXPECT_EQ(triad["id"], "memory.triad");
  EXPECT_EQ(triad["group"], "memory");
  EXPECT_EQ(triad["unit"], "GB/s");
  EXPECT_EQ(triad["x_unit"], "bytes");
  EXPECT_EQ(triad["points"][1], (nlohmann::json{{"x", 1073741824.0}, {"value", 4300.0}}));
  EXPECT_EQ(triad["best"], 4300.0);
  EXPECT_EQ(triad["peak"], 4800.0);
  EXPECT_EQ(triad["verdict"], "ok");
  EXPECT_EQ(triad["check"], "passed");
  EXPECT_EQ(triad["higher_is_better"], true);
  EXPECT_EQ(j["benchmarks"][1]["verdict"], "low");
  EXPECT_EQ(j["benchmarks"][2]["higher_is_better"], false);
  EXPECT_TRUE(j["benchmarks"][2]["peak"].is_null());
  EXPECT_TRUE(j["benchmarks"][2]["percent_of_peak"].is_null());
  const auto& wrong = j["benchmarks"][3];
  EXPECT_EQ(wrong["verdict"], "failed");
  EXPECT_EQ(wrong["check"], "failed: at 1.0 GiB: 3 8-byte words wrong, first at byte offset 0x40");
  EXPECT_TRUE(wrong["points"][1]["value"].is_null());  // never NaN in JSON
  ASSERT_EQ(j["findings"].size(), 1u);
  EXPECT_EQ(j["findings"][0]["severity"], "error");
  EXPECT_EQ(j["findings"][0]["evidence"][0], "transfer.d2d: failed: ...");

  BenchReport none;
  auto empty = nlohmann::json::parse(BenchReportToJson(none));
  EXPECT_TRUE(empty["device"].is_null());
  EXPECT_TRUE(empty["benchmarks"].empty());
}

TEST(BenchRender, TheReportCommandReadsTheJsonBack) {
  auto doc = BenchReportFromJson(BenchReportToJson(SampleReport()), "bench.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_TRUE(doc->device.has_value());
  EXPECT_EQ(doc->device->name, "NVIDIA H200");
  ASSERT_EQ(doc->benchmarks.size(), 4u);
  EXPECT_EQ(doc->benchmarks[1].verdict, BenchVerdict::kLow);
  EXPECT_FALSE(doc->benchmarks[2].spec.higher_is_better);
  EXPECT_EQ(doc->benchmarks[3].check_detail, "at 1.0 GiB: 3 8-byte words wrong, first at byte offset 0x40");
}

TEST(BenchRender, CsvHasOneRowPerPointAndQuotes) {
  std::string csv = RenderBenchCsv(SampleReport());
  auto lines = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_EQ(lines, 1 + 2 + 2 + 2 + 2);
  EXPECT_EQ(
      csv.substr(0, csv.find('\n')),
      "id,group,title,unit,higher_is_better,x_label,x_unit,x,value,best,peak,percent_of_peak,verdict,check");
  EXPECT_NE(csv.find("memory.triad,memory,Device memory: triad (a = b + s * c),GB/s,true,array size,bytes,"
                     "1073741824,4300,4300,4800,89.58,ok,passed\n"),
            std::string::npos)
      << csv;
  EXPECT_NE(
      csv.find("latency.submit,latency,Title of latency.submit,us,false,size,blocks,1,2.5,2.5,,,ok,passed"),
      std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",,failed,\"failed: at 1.0 GiB: 3 8-byte words wrong, first at byte offset 0x40\""),
            std::string::npos)
      << csv;
}

TEST(BenchRender, TextTablesShowBestPeakPercentVerdictAndTheSweep) {
  std::string text = RenderBenchText(SampleReport(), false);
  EXPECT_NE(text.find("Device:   #0 NVIDIA H200 (sm_90, 150.0 GiB) at 0000:17:00.0"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Peaks:    H200 in the knowledge base (matched by PCI id 10de:2335)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Link:     PCIe 5.0 x16 (NVML under load); at most PCIe 5.0 x16 (NVML)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("BENCHMARK  BEST  PEAK  % PEAK  VERDICT  CHECK   SWEEP (array size: GB/s)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("triad      4300  4800  89.6%   ok       passed  1M 2150  1G 4300"), std::string::npos)
      << text;
  EXPECT_NE(text.find("bf16       300   989   30.3%   LOW"), std::string::npos) << text;
  EXPECT_NE(text.find("d2d        1500  n/a   -       FAILED   FAILED"), std::string::npos) << text;
  EXPECT_NE(text.find("transfer.d2d: check failed: at 1.0 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("ERROR  bench.wrong_results: 1 benchmark computed wrong results"), std::string::npos)
      << text;
  EXPECT_NE(text.find("FAILED: 1 of 4 benchmarks failed (transfer.d2d); 1 low"), std::string::npos) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos);  // no colour unless asked
  EXPECT_NE(RenderBenchText(SampleReport(), true).find("\033[31m"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
