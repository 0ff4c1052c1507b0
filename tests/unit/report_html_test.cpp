// The HTML report page (report/html_report.h, report/html_results.h), from data built in code: every
// section is there, hostile strings stay text, the page loads nothing and runs nothing, failed gates
// and failed result checks are shown loudly, and the bench sweeps are grouped into charts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <regex>

#include "core/strings.h"
#include "report/html_report.h"
#include "report/html_results.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::Count;

Snapshot MachineWithHostileNames() {
  Snapshot s;
  s.host_name = "lab\"box";
  s.os.family = OsFamily::kLinux;
  s.os.distro_name = "Ubuntu 24.04 LTS";
  s.os.kernel_release = "6.8.0-45-generic";
  s.cpu.model = "AMD EPYC 9654 <96-Core>";
  s.memory.total_bytes = 512ull << 30;
  Gpu g;
  g.pci_address = "0000:00:06.0";
  g.vendor = GpuVendor::kNvidia;
  g.name = "NVIDIA H200 <script>alert('gpu')</script> & Co";
  g.architecture = "sm_90";
  g.family = "Hopper";
  g.vram_bytes = 150ull << 30;
  g.driver = "nvidia";
  s.gpus.push_back(g);
  s.nvidia.driver_version = "580.95.05";
  s.nvidia.cuda_driver_version = 13000;
  s.runtimes.push_back({"libcuda", "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "580.95.05", "file name"});
  PythonEnv env;
  env.path = "/home/alice/.venv";
  env.kind = "venv";
  env.python_version = "3.12";
  env.torch = TorchInstall{"2.8.0+cu128", "12.8", "", "/home/alice/.venv/lib/python3.12/site-packages/torch"};
  s.python_envs.push_back(env);
  s.environment["CUDA_VISIBLE_DEVICES"] = "0\"><img src=x onerror=alert(1)>";
  return s;
}

std::vector<Finding> Findings() {
  Finding bad;
  bad.id = "framework.torch_cpu_only";
  bad.layer = Layer::kFramework;
  bad.severity = Severity::kError;
  bad.title = "PyTorch <b>cannot</b> use the GPU";
  bad.evidence = {"found torch 2.8.0+cpu in /home/alice/.venv <img src=x onerror=alert(1)>"};
  bad.fix_summary = "install the CUDA build";
  bad.fix = {FixAction::Everywhere("pip install torch --index-url https://download.pytorch.org/whl/cu128")};
  bad.link = "javascript:alert(1)";
  Finding warn;
  warn.id = "hardware.low_ram";
  warn.layer = Layer::kHardware;
  warn.severity = Severity::kWarning;
  warn.title = "Little memory";
  warn.link = "https://pytorch.org/get-started/locally/";
  Finding ok;
  ok.id = "runtime.driver_bound";
  ok.layer = Layer::kRuntime;
  ok.severity = Severity::kOk;
  ok.title = "nvidia driver bound";
  return {ok, warn, bad};
}

VerifyReport SampleVerifyReport() {
  VerifyReport v;
  v.level = VerifyLevel::kQuick;
  v.backend = "cuda";
  v.runtime_version = "CUDA driver API 13.0";
  v.device = DeviceInfo{{0, "NVIDIA H200", "0000:00:06.0"}, "sm_90", 150ull << 30, 132};
  GateResult pass;
  pass.gate = "copy";
  pass.status = GateStatus::kPass;
  pass.summary = "256 MiB both ways intact";
  pass.elapsed_ms = 812.0;
  pass.figures = {{"H2D", 54.9, "GB/s"}, {"D2H", 55.2, "GB/s"}};
  pass.details = {"pinned buffers"};
  GateResult fail;
  fail.gate = "kernel";
  fail.status = GateStatus::kFail;
  fail.summary = "wrong result at index 7 <x>";
  fail.hint = "reinstall the driver";
  fail.elapsed_ms = 95.0;
  GateResult skip;
  skip.gate = "memtest";
  skip.status = GateStatus::kSkip;
  skip.summary = "skipped: needs kernel (failed)";
  v.gates = {pass, fail, skip};
  v.inject = "none";
  v.exit_code = 1;
  return v;
}

BenchResult Entry(std::string id, std::string group, std::string title, std::string unit,
                  std::vector<BenchPoint> pts, std::optional<double> peak,
                  BenchCheck check = BenchCheck::kPassed) {
  BenchResult e;
  e.spec.id = std::move(id);
  e.spec.group = std::move(group);
  e.spec.title = std::move(title);
  e.spec.unit = std::move(unit);
  e.spec.x_label = "array size";
  e.spec.x_unit = "bytes";
  e.points = std::move(pts);
  e.peak = peak;
  double best = 0;
  for (const auto& p : e.points) best = std::max(best, p.value);
  e.best = best;
  e.check = check;
  if (check == BenchCheck::kFailed) e.check_detail = "sum differs <by 3%>";
  e.verdict = check == BenchCheck::kFailed ? BenchVerdict::kFailed : BenchVerdict::kOk;
  return e;
}

BenchReport SampleBenchReport() {
  BenchReport b;
  b.device = BenchDevice{{0, "NVIDIA H200", "0000:00:06.0", "sm_90", 0, std::nullopt}, "cuda"};
  b.level = BenchLevel::kQuick;
  const std::vector<BenchPoint> sweep = {{1 << 20, 800}, {1 << 24, 3400}, {1 << 30, 4268}};
  b.benchmarks.push_back(Entry("memory.copy", "memory", "Device memory: copy", "GB/s", sweep, 4800));
  b.benchmarks.push_back(Entry("memory.triad", "memory", "Device memory: triad", "GB/s", sweep, 4800));
  b.benchmarks.push_back(
      Entry("memory.dot", "memory", "Device memory: dot", "GB/s", sweep, 4800, BenchCheck::kFailed));
  b.benchmarks.push_back(Entry("transfer.h2d_pinned", "transfer", "Host to device: pinned", "GB/s",
                               {{65536, 11}, {1 << 30, 55}}, 63));
  BenchResult skipped =
      Entry("transfer.peer", "transfer", "Peer to peer", "GB/s", {}, std::nullopt, BenchCheck::kNotRun);
  skipped.verdict = BenchVerdict::kSkipped;
  skipped.best.reset();
  b.benchmarks.push_back(skipped);
  BenchResult nothing = Entry("launch.submit", "launch", "Kernel launch: submit", "\xC2\xB5s", {},
                              std::nullopt, BenchCheck::kNotRun);
  nothing.verdict = BenchVerdict::kSkipped;
  b.benchmarks.push_back(nothing);
  b.findings.push_back({"bench.pcie_downtrained",
                        Severity::kWarning,
                        "PCIe link <down-trained>",
                        {"16 GT/s of 32"},
                        "reseat"});
  return b;
}

HtmlReportInput FullInput() {
  HtmlReportInput in;
  in.snapshot = MachineWithHostileNames();
  in.machine_source = "this machine";
  in.findings = Findings();
  in.verify = SampleVerifyReport();
  in.verify_origin = "verify.json";
  in.bench = SampleBenchReport();
  in.bench_origin = "bench & co.json";
  in.generated_at = "2026-12-02 21:40 UTC";
  return in;
}

TEST(ReportHtml, HasEverySectionInOrder) {
  const std::string html = RenderHtmlReport(FullInput());
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  size_t last = 0;
  for (const char* id : kReportSectionIds) {
    size_t pos = html.find("<section id=\"" + std::string(id) + "\"");
    ASSERT_NE(pos, std::string::npos) << id;
    EXPECT_GT(pos, last) << id;
    last = pos;
  }
  EXPECT_NE(html.find("<title>gpudoctor report: lab&quot;box</title>"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(ReportHtml, MachineSummaryShowsTheSnapshot) {
  const std::string html = RenderHtmlReport(FullInput());
  for (const char* expected :
       {"Ubuntu 24.04 LTS, kernel 6.8.0-45-generic", "AMD EPYC 9654 &lt;96-Core&gt;", "512.0 GiB total",
        "<td>sm_90</td>", "<td>150.0 GiB</td>", "<td>Hopper</td>", "580.95.05 (runs CUDA up to 13.0)",
        "/usr/lib/x86_64-linux-gnu/libcuda.so.1", "2.8.0+cu128", "CUDA 12.8", "CUDA_VISIBLE_DEVICES"})
    EXPECT_NE(html.find(expected), std::string::npos) << expected;
}

TEST(ReportHtml, HostileStringsStayText) {
  const std::string html = RenderHtmlReport(FullInput());
  const std::string lower = ToLower(html);
  EXPECT_EQ(lower.find("<script"), std::string::npos);
  EXPECT_EQ(lower.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>cannot"), std::string::npos);
  EXPECT_NE(html.find("NVIDIA H200 &lt;script&gt;alert(&#39;gpu&#39;)&lt;/script&gt; &amp; Co"),
            std::string::npos);
  EXPECT_NE(html.find("PyTorch &lt;b&gt;cannot&lt;/b&gt; use the GPU"), std::string::npos);
  EXPECT_NE(html.find("bench &amp; co.json"), std::string::npos);
  // A javascript: link is shown as text, an https one is a link.
  EXPECT_EQ(lower.find("href=\"javascript"), std::string::npos);
  EXPECT_NE(html.find("Source: javascript:alert(1)"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"https://pytorch.org/get-started/locally/\""), std::string::npos);
}

TEST(ReportHtml, LoadsNothingAndRunsNothing) {
  const std::string lower = ToLower(RenderHtmlReport(FullInput()));
  EXPECT_NE(lower.find("content-security-policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\""),
            std::string::npos);
  for (const char* forbidden :
       {"<script", "<link", "@import", "url(", "<iframe", "<object", "<embed", "<img"})
    EXPECT_EQ(lower.find(forbidden), std::string::npos) << forbidden;
  // Inside tags (text holds no raw '<'): no src=, no event handler, and links only to https or an anchor.
  const std::regex src(R"(<[^>]*\ssrc\s*=)"), handler(R"(<[^>]*\son[a-z]+\s*=)"),
      href(R"(<[^>]*\shref="(?!https://|#)[^"]*")");
  EXPECT_FALSE(std::regex_search(lower, src));
  EXPECT_FALSE(std::regex_search(lower, handler));
  EXPECT_FALSE(std::regex_search(lower, href));
}

TEST(ReportHtml, FindingsWorstFirstWithEvidenceAndFix) {
  const std::string html = RenderHtmlReport(FullInput());
  const size_t error = html.find("framework.torch_cpu_only");
  const size_t warning = html.find("hardware.low_ram");
  ASSERT_NE(error, std::string::npos);
  ASSERT_NE(warning, std::string::npos);
  EXPECT_LT(error, warning);
  EXPECT_NE(
      html.find(
          "<pre><code>pip install torch --index-url https://download.pytorch.org/whl/cu128</code></pre>"),
      std::string::npos);
  EXPECT_NE(html.find("Fix (bash): </strong>install the CUDA build"), std::string::npos);
  EXPECT_NE(html.find("Checked and fine (1)"), std::string::npos);
  EXPECT_NE(html.find("1 error, 1 warning"), std::string::npos);
}

// Issue 30: the fixes ranked after the first one and the unconfirmed entries a finding rests on are shown.
TEST(ReportHtml, AlternativesAndUnconfirmedDataAreShown) {
  HtmlReportInput in = FullInput();
  auto it = std::find_if(in.findings.begin(), in.findings.end(),
                         [](const Finding& x) { return x.id == "framework.torch_cpu_only"; });
  ASSERT_NE(it, in.findings.end());
  Finding& f = *it;
  f.alternatives.push_back(FixOption{"keep this build <and> set the override",
                                     {FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "11.0.0")},
                                     ""});
  f.unconfirmed = {"overrides.toml:207"};
  const std::string html = RenderHtmlReport(in);
  EXPECT_NE(html.find("Or (bash): </strong>keep this build &lt;and&gt; set the override"), std::string::npos);
  EXPECT_NE(html.find("<pre><code>export HSA_OVERRIDE_GFX_VERSION=11.0.0</code></pre>"), std::string::npos);
  EXPECT_NE(html.find("Unconfirmed: rests on overrides.toml:207"), std::string::npos);
}

TEST(ReportHtml, VerifyGatesWithBadgesAndALoudFailure) {
  const std::string html = RenderHtmlReport(FullInput());
  EXPECT_NE(html.find("<span class=\"badge good\">pass</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge bad\">FAIL</span>"), std::string::npos);
  EXPECT_NE(html.find("<span class=\"badge muted\">skip</span>"), std::string::npos);
  EXPECT_NE(html.find("1 gate FAILED"), std::string::npos);
  EXPECT_NE(html.find("kernel: wrong result at index 7 &lt;x&gt;"), std::string::npos);
  EXPECT_NE(html.find("H2D: <strong>54.9 GB/s</strong>"), std::string::npos);
  EXPECT_NE(html.find("What to do: </strong>reinstall the driver"), std::string::npos);
  EXPECT_EQ(Count(html, "<tr class=\"failed\">"), 1u + 1u /* the bench dot row */);
}

TEST(ReportHtml, BenchChartsGroupSweepsAndShoutAboutFailedChecks) {
  const std::string html = RenderHtmlReport(FullInput());
  // memory (copy, triad, dot in one chart) and transfer; launch has no point, so no chart.
  EXPECT_EQ(Count(html, "<svg"), 2u);
  EXPECT_EQ(Count(html, "<polyline class=\"series-line\""), 4u);
  EXPECT_NE(html.find("<title>Device memory (GB/s)</title>"), std::string::npos);
  EXPECT_NE(html.find("spec peak 4800 GB/s"), std::string::npos);
  EXPECT_NE(html.find("RESULT CHECK FAILED"), std::string::npos);
  EXPECT_NE(html.find("Device memory: dot (memory.dot): failed: sum differs &lt;by 3%&gt;"),
            std::string::npos);
  EXPECT_NE(html.find("role=\"alert\""), std::string::npos);
  EXPECT_NE(html.find("Nothing was measured in this group"), std::string::npos);
  EXPECT_NE(html.find("PCIe link &lt;down-trained&gt;"), std::string::npos);
  EXPECT_NE(html.find("88.9 %"), std::string::npos);  // 4268 of 4800
  EXPECT_NE(html.find("with a FAILED result check"), std::string::npos);
}

TEST(ReportHtml, GroupingFollowsGroupAndUnit) {
  BenchReport b = SampleBenchReport();
  b.benchmarks.push_back(
      Entry("memory.latency", "memory", "Device memory: latency", "ns", {{4096, 500}}, std::nullopt));
  auto groups = GroupBenchmarks(b);
  ASSERT_EQ(groups.size(), 4u);  // memory GB/s, transfer, launch, memory ns
  EXPECT_EQ(groups[0].title, "Device memory");
  EXPECT_EQ(groups[0].entries.size(), 3u);
  EXPECT_TRUE(groups[0].drawable);
  EXPECT_FALSE(groups[2].drawable);
  EXPECT_EQ(groups[1].title, "Transfer");  // no shared title prefix: the group, capitalized
  EXPECT_EQ(groups[1].entries.size(), 2u);
  EXPECT_EQ(BenchChartSpec(groups[1]).series.size(), 1u);  // the skipped peer copy is not in the legend
  EXPECT_EQ(groups[3].title, "Device memory: latency");
  ChartSpec spec = BenchChartSpec(groups[0]);
  ASSERT_EQ(spec.series.size(), 3u);
  EXPECT_EQ(spec.series[0].name, "copy");
  EXPECT_TRUE(spec.series[2].failed);
  EXPECT_EQ(spec.y_unit, "GB/s");
  EXPECT_EQ(FailedBenchChecks(b).size(), 1u);
}

TEST(ReportHtml, AFigureFarAboveItsGroupGetsAChartOfItsOwn) {
  // As measured on the H200: device-to-device copies at 2.1 TB/s beside PCIe transfers at 15-55 GB/s.
  BenchReport b;
  b.benchmarks = {
      Entry("transfer.h2d_pinned", "transfer", "Host to device, pinned", "GB/s", {{1 << 30, 55.5}}, 63),
      Entry("transfer.h2d_pageable", "transfer", "Host to device, pageable", "GB/s", {{1 << 30, 16.4}}, 63),
      Entry("transfer.d2h_pinned", "transfer", "Device to host, pinned", "GB/s", {{1 << 30, 55.4}}, 63),
      Entry("transfer.d2d", "transfer", "Device to device", "GB/s", {{1 << 30, 2117}}, 2400),
      Entry("gemm.fp32", "gemm", "GEMM: fp32", "TFLOP/s", {{8192, 51}}, 66.9),
      Entry("gemm.tf32", "gemm", "GEMM: tf32", "TFLOP/s", {{8192, 423}}, 494.7),
      Entry("gemm.bf16", "gemm", "GEMM: bf16", "TFLOP/s", {{8192, 814}}, 989.4),
      Entry("gemm.fp8", "gemm", "GEMM: fp8", "TFLOP/s", {{8192, 1342}}, 1979)};
  auto groups = GroupBenchmarks(b);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].entries.size(), 3u);
  EXPECT_EQ(groups[0].title, "Transfer");
  ASSERT_EQ(groups[1].entries.size(), 1u);
  EXPECT_EQ(groups[1].entries[0]->spec.id, "transfer.d2d");
  EXPECT_EQ(groups[1].title, "Device to device");
  EXPECT_TRUE(groups[1].drawable);
  EXPECT_EQ(groups[2].entries.size(), 4u);  // fp32 to fp8 is a 26x spread, but none is 20x the median
  EXPECT_EQ(groups[2].title, "GEMM");
}

TEST(ReportHtml, WithoutVerifyOrBenchTheSectionsSayHowToAddThem) {
  HtmlReportInput in = FullInput();
  in.verify.reset();
  in.bench.reset();
  const std::string html = RenderHtmlReport(in);
  EXPECT_NE(html.find("<section id=\"verify\""), std::string::npos);
  EXPECT_NE(html.find("<section id=\"bench\""), std::string::npos);
  EXPECT_NE(html.find("gpudoctor verify --json &gt; verify.json"), std::string::npos);
  EXPECT_NE(html.find("gpudoctor bench --json &gt; bench.json"), std::string::npos);
  EXPECT_EQ(html.find("<svg"), std::string::npos);
  EXPECT_EQ(html.find("class=\"alarm\""), std::string::npos);
}

TEST(ReportHtml, ResultsFromAnotherMachineAreNoted) {
  HtmlReportInput in = FullInput();
  in.snapshot.gpus[0].pci_address = "0000:17:00.0";
  in.snapshot.live_machine = false;
  in.machine_source = "snapshot file snap.json";
  const std::string html = RenderHtmlReport(in);
  EXPECT_EQ(Count(html, "it comes from another machine"), 2u);
  EXPECT_NE(html.find("Not this machine: read from snapshot file snap.json."), std::string::npos);
}

TEST(ReportHtml, PlantedFaultIsSaid) {
  HtmlReportInput in = FullInput();
  in.verify->inject = "wrong-result";
  EXPECT_NE(RenderHtmlReport(in).find("Planted fault: wrong-result"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
