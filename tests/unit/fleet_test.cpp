// `gpudoctor fleet merge`: the reports of 50 synthetic nodes (fleet_synthetic.h) give exactly the four
// planted outliers, in the library and through the command; each report kind is read; malformed input is an
// error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "bench/bench_json.h"
#include "cli_test_util.h"
#include "collectives/collectives_json.h"
#include "fleet/fleet_analysis.h"
#include "fleet/fleet_report.h"
#include "fleet/node_report.h"
#include "fleet_synthetic.h"
#include "gates/verify_json.h"
#include "report/check_json.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

std::vector<NodeFacts> ParseAll(const std::vector<testing::SyntheticReport>& reports) {
  std::vector<NodeFacts> out;
  for (const auto& r : reports) {
    auto facts = ParseNodeReport(r.text, "out/" + r.file_name);
    EXPECT_TRUE(facts.ok()) << r.file_name;
    if (facts) out.push_back(*facts);
  }
  return out;
}

using OutlierSet = std::set<std::tuple<std::string, std::string, std::string>>;  // host, kind, id

OutlierSet Outliers(const FleetSummary& s) {
  OutlierSet found;
  for (const auto& o : s.outliers) found.insert({o.host, ToString(o.kind), o.id});
  return found;
}

const OutlierSet kPlanted = {{"node017", "figure", "memory.triad"},
                             {"node023", "version", "nvidia_driver"},
                             {"node031", "failure", "verify gate memtest failed"},
                             {"node042", "version", "torch"}};

TEST(Fleet, FindsExactlyThePlantedOutliers) {
  FleetSummary s = AnalyzeFleet(ParseAll(testing::SyntheticFleet()), FleetOptions{});
  EXPECT_EQ(s.nodes.size(), 50u);
  EXPECT_EQ(s.nodes[16].host, "node017");
  EXPECT_EQ(s.nodes[16].kinds, (std::vector<std::string>{"check", "verify", "bench"}));
  EXPECT_EQ(Outliers(s), kPlanted);
  EXPECT_EQ(s.exit_code, 1);
  for (const auto& o : s.outliers) {
    if (o.kind != OutlierKind::kFigure) continue;
    EXPECT_LT(o.deviation, -0.25);
    EXPECT_NE(o.reference.find("of 50 nodes"), std::string::npos);
  }
  std::string text = RenderFleetText(s);
  EXPECT_NE(text.find("node023  nvidia_driver  550.54.15"), std::string::npos) << text;
  EXPECT_NE(text.find("Fleet: 50 nodes from 150 files"), std::string::npos);
}

TEST(Fleet, ThresholdDecidesWhatIsBelowTheMedian) {
  FleetOptions loose;
  loose.threshold = 0.35;  // node017's triad is 30% low: no longer flagged
  OutlierSet found = Outliers(AnalyzeFleet(ParseAll(testing::SyntheticFleet()), loose));
  EXPECT_EQ(found.count({"node017", "figure", "memory.triad"}), 0u);
  EXPECT_EQ(found.size(), 3u);
  FleetOptions tight;
  tight.threshold = 0.01;  // the +-3% spread now flags many nodes
  EXPECT_GT(AnalyzeFleet(ParseAll(testing::SyntheticFleet()), tight).outliers.size(), 10u);
}

TEST(Fleet, LowerIsBetterFiguresAreFlaggedAboveTheMedian) {
  std::vector<NodeFacts> nodes;
  for (int i = 0; i < 5; ++i) {
    NodeFacts n;
    n.host = "n" + std::to_string(i);
    n.figures.push_back({"latency.launch", i == 4 ? 5.0 : 2.0, "us", false});
    n.figures.push_back({"memory.triad", i == 3 ? 5000.0 : 4000.0, "GB/s", true});  // faster is no problem
    nodes.push_back(n);
  }
  FleetSummary s = AnalyzeFleet(nodes, FleetOptions{});
  ASSERT_EQ(s.outliers.size(), 1u);
  EXPECT_EQ(s.outliers[0].host, "n4");
  EXPECT_DOUBLE_EQ(s.outliers[0].deviation, 1.5);
}

TEST(Fleet, SameHostMergesAndKeepsTheWorseFigure) {
  NodeFacts a, b;
  a.host = b.host = "n1";
  a.figures.push_back({"memory.triad", 4000, "GB/s", true});
  b.figures.push_back({"memory.triad", 3000, "GB/s", true});
  b.versions["torch"] = "2.7.1";
  auto merged = MergeByHost({a, b});
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_DOUBLE_EQ(merged[0].figures[0].value, 3000);
  EXPECT_EQ(merged[0].versions.at("torch"), "2.7.1");
  EXPECT_DOUBLE_EQ(Median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(Median({4, 1, 2, 3}), 2.5);
}

TEST(FleetReports, ReadsEachKind) {
  auto snapshot =
      ParseNodeReport(R"j({"schema": "gpudoctor.snapshot", "schema_version": 1, "host_name": "gpu-node-017",
      "nvidia": {"driver_version": null}, "amd": {"amdgpu_module_version": "6.8.5"},
      "runtimes": [{"kind": "rocm", "version": "6.2.4-139"}],
      "python_envs": [{"torch": {"version": "2.5.1+rocm6.2"}}]})j",
                      "x.json");
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  EXPECT_EQ(snapshot->host, "gpu-node-017");
  EXPECT_FALSE(snapshot->host_from_file_name);
  EXPECT_EQ(snapshot->versions.at("rocm"), "6.2.4-139");
  EXPECT_EQ(snapshot->versions.at("torch"), "2.5.1+rocm6.2");
  EXPECT_EQ(snapshot->versions.count("nvidia_driver"), 0u);

  auto collectives =
      ParseNodeReport(R"j({"schema": "gpudoctor.collectives", "hosts": [{"host": "a", "ranks": 2}],
      "ranks": [{"rank": 0, "host": "a"}, {"rank": 1, "host": "a"}],
      "library": "NCCL 2.27.3 (/usr/lib/libnccl.so.2, system)",
      "collectives": {"status": "ran", "results": [
        {"op": "all_reduce", "size_bytes": 1024, "busbw_gbs": 1.0},
        {"op": "all_reduce", "size_bytes": 1073741824, "busbw_gbs": 480.0}]}})j",
                      "c.json");
  ASSERT_TRUE(collectives.ok());
  EXPECT_EQ(collectives->host, "a");
  EXPECT_EQ(collectives->versions.at("collectives_library"), "NCCL 2.27.3");
  ASSERT_EQ(collectives->figures.size(), 1u);
  EXPECT_DOUBLE_EQ(collectives->figures[0].value, 480.0);

  auto check = ParseNodeReport(R"j({"schema": "gpudoctor.check", "machine": {"host_name": "h"},
      "findings": [{"id": "runtime.device_access", "severity": "error", "title": "cannot open /dev/kfd"}]})j",
                               "h.check.json");
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->check_errors, (std::vector<std::string>{"runtime.device_access: cannot open /dev/kfd"}));

  EXPECT_EQ(HostFromFileName("out/node017.verify.json"), "node017");
  EXPECT_EQ(HostFromFileName("C:\\r\\b12.bench.json"), "b12");
  EXPECT_FALSE(ParseNodeReport("{\"schema\": \"something.else\"}", "s.json").ok());
  EXPECT_FALSE(ParseNodeReport("[]", "a.json").ok());
  EXPECT_FALSE(ParseNodeReport("{", "b.json").ok());
}

// Today's documents, as the commands' own codecs write them, read through the same codecs.
TEST(FleetReports, ReadsWhatTheCommandsWriteToday) {
  VerifyReport v;
  v.runtime_version = "CUDA driver API 13.0";
  GateResult copy;
  copy.gate = "copy";
  copy.status = GateStatus::kPass;
  copy.figures = {{"H2D", 55.0, "GB/s"}};
  GateResult memtest;
  memtest.gate = "memtest";
  memtest.status = GateStatus::kFail;
  memtest.summary = "3 words differ";
  v.gates = {copy, memtest};
  auto verify = ParseNodeReport(VerifyReportToJson(v), "out/node007.verify.json");
  ASSERT_TRUE(verify.ok()) << verify.error().message;
  EXPECT_EQ(verify->kinds, std::vector<std::string>{"verify"});
  EXPECT_EQ(verify->host, "node007");
  EXPECT_EQ(verify->versions.at("runtime"), "CUDA driver API 13.0");
  ASSERT_EQ(verify->figures.size(), 1u);
  EXPECT_EQ(verify->figures[0].id, "verify.copy");
  EXPECT_EQ(verify->failures, std::vector<std::string>{"verify gate memtest failed: 3 words differ"});

  BenchReport b;
  BenchResult triad;
  triad.spec = {"memory.triad", "memory", "Device memory: triad", "GB/s", "array size", "bytes", true};
  triad.best = 4300;
  b.benchmarks = {triad};
  auto bench = ParseNodeReport(BenchReportToJson(b), "node007.bench.json");
  ASSERT_TRUE(bench.ok()) << bench.error().message;
  ASSERT_EQ(bench->figures.size(), 1u);
  EXPECT_DOUBLE_EQ(bench->figures[0].value, 4300);

  Snapshot s;
  s.host_name = "gpu-node-007";
  s.nvidia.driver_version = "580.95.05";
  auto snapshot = ParseNodeReport(SnapshotToJson(s), "x.json");
  ASSERT_TRUE(snapshot.ok()) << snapshot.error().message;
  EXPECT_EQ(snapshot->host, "gpu-node-007");
  EXPECT_EQ(snapshot->versions.at("nvidia_driver"), "580.95.05");

  Finding f;
  f.id = "runtime.device_access";
  f.severity = Severity::kError;
  f.title = "cannot open /dev/kfd";
  auto check = ParseNodeReport(RenderCheckJson(s, {f}, Shell::kBash, 2), "c.json");
  ASSERT_TRUE(check.ok()) << check.error().message;
  EXPECT_EQ(check->host, "gpu-node-007");
  EXPECT_EQ(check->check_errors, std::vector<std::string>{"runtime.device_access: cannot open /dev/kfd"});

  CollectivesReport c;
  c.library = "RCCL 2.21.5 (/opt/rocm/lib/librccl.so.1, sdk)";
  c.ranks = {RankHost{0, "mi300-01", 0, 8, 0, "", "", "ran", ""},
             RankHost{1, "mi300-01", 1, 8, 1, "", "", "ran", ""}};
  c.rows = {CollectiveRow{CollectiveOp::kAllReduce, 1 << 30, 1 << 28, 9000, 119, 209, 0, 1, 2, ""}};
  auto collectives = ParseNodeReport(CollectivesReportToJson(c), "c.json");
  ASSERT_TRUE(collectives.ok()) << collectives.error().message;
  EXPECT_EQ(collectives->host, "mi300-01");
  EXPECT_EQ(collectives->versions.at("collectives_library"), "RCCL 2.21.5");
  ASSERT_EQ(collectives->figures.size(), 1u);
  EXPECT_EQ(collectives->figures[0].id, "collectives.all_reduce.busbw");

  // A document its codec refuses is not read, with the codec's message.
  auto newer = ParseNodeReport(R"({"schema": "gpudoctor.bench/9", "benchmarks": []})", "n.json");
  ASSERT_FALSE(newer.ok());
  EXPECT_NE(newer.error().message.find("newer than this gpudoctor reads"), std::string::npos);
}

TEST(FleetCli, MergesAFolderOfReports) {
  const stdfs::path dir = testing::FreshTempDir("fleet_cli_merge");
  for (const auto& r : testing::SyntheticFleet())
    std::ofstream(dir / r.file_name, std::ios::binary) << r.text;
  std::ofstream(dir / "notes.json") << "{\"not\": \"a report\"}";
  auto r = testing::Gpudoctor({"fleet", "merge", dir.string(), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.stdout_text;
  EXPECT_EQ(doc["schema"], "gpudoctor.fleet");
  EXPECT_EQ(doc["nodes"].size(), 50u);
  OutlierSet found;
  for (const auto& o : doc["outliers"])
    found.insert({o["host"].get<std::string>(), o["kind"].get<std::string>(), o["id"].get<std::string>()});
  EXPECT_EQ(found, kPlanted);
  ASSERT_EQ(doc["skipped"].size(), 1u);
  auto bad = testing::Gpudoctor({"fleet", "merge", (dir / "notes.json").string()});
  EXPECT_EQ(bad.exit_code, 3);
  stdfs::remove_all(dir);
}

}  // namespace
}  // namespace gpudoctor
