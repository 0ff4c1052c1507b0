// `fleet merge` compares the GPU link matrix across nodes (issue 15): three saved `info --json` reports of
// the recorded 8x MI300X node, one of them with its GPU2-GPU6 XGMI link down, give the majority matrix (2 of
// 3 nodes) and exactly that node with exactly that pair; the pure pieces on their own.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_test_util.h"
#include "fleet/fleet_analysis.h"
#include "fleet/fleet_report.h"
#include "fleet/fleet_topology.h"
#include "fleet/node_report.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot_json.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

using testing::kFixtures;

// The three nodes' saved snapshots: node-c's GPU2 and GPU6 reach each other across the sockets only.
std::vector<std::pair<std::string, std::string>> ThreeNodes() {
  Snapshot base = ProbeMachine(MakeRecordedInputs(kFixtures + "mi300x-8gpu-node"));
  std::vector<std::pair<std::string, std::string>> out;
  for (const char* host : {"node-a", "node-b", "node-c"}) {
    Snapshot s = base;
    s.host_name = host;
    if (std::string(host) == "node-c") {
      for (auto [a, b] : {std::pair<size_t, size_t>{2, 6}, {6, 2}}) {
        s.topology->links[a][b].kind = LinkKind::kSys;
        s.topology->links[a][b].kfd->type = "pcie";
      }
    }
    out.emplace_back(std::string(host) + ".info.json", SnapshotToJson(s));
  }
  return out;
}

TEST(FleetTopology, OneNodeWithALinkDownStandsOut) {
  std::vector<NodeFacts> parsed;
  for (const auto& [file, text] : ThreeNodes()) {
    auto facts = ParseNodeReport(text, file);
    ASSERT_TRUE(facts.ok()) << facts.error().message;
    EXPECT_EQ(facts->topology.size(), 8u);
    parsed.push_back(*facts);
  }
  FleetSummary s = AnalyzeFleet(parsed, FleetOptions{});
  EXPECT_EQ(s.topology.nodes, 3);
  EXPECT_EQ(s.topology.count, 2);
  EXPECT_FALSE(s.topology.tie);
  EXPECT_EQ(s.topology.matrix[2][6], "XGMI");
  std::vector<FleetOutlier> topo;
  for (const auto& o : s.outliers)
    if (o.kind == OutlierKind::kTopology) topo.push_back(o);
  ASSERT_EQ(topo.size(), 1u);
  EXPECT_EQ(topo[0].host, "node-c");
  EXPECT_EQ(topo[0].value, "GPU2-GPU6: SYS, fleet XGMI");
  EXPECT_EQ(topo[0].reference, "the matrix of 2 of 3 nodes");
  EXPECT_EQ(s.exit_code, 1);
  std::string text = RenderFleetText(s);
  EXPECT_NE(text.find("node-c  GPU2-GPU6: SYS, fleet XGMI"), std::string::npos) << text;
  EXPECT_NE(text.find("Fleet topology: 8 GPUs, one matrix on 2 of 3 nodes"), std::string::npos) << text;
}

TEST(FleetTopology, TwoMatricesSplitEvenlyFlagNobody) {
  LinkMatrix a = {{"X", "XGMI"}, {"XGMI", "X"}};
  LinkMatrix b = {{"X", "SYS"}, {"SYS", "X"}};
  FleetTopology t = MajorityLinkMatrix({a, b, {}});
  EXPECT_TRUE(t.tie);
  EXPECT_EQ(t.nodes, 2);
  EXPECT_TRUE(t.matrix.empty());
  EXPECT_EQ(LinkMatrixDifference(b, a), "GPU0-GPU1: SYS, fleet XGMI");
  EXPECT_EQ(LinkMatrixDifference({{"X"}}, a), "1 GPUs, fleet 2");
  LinkMatrix many(12, std::vector<std::string>(12, "SYS"));
  LinkMatrix fleet(12, std::vector<std::string>(12, "PIX"));
  std::string diff = LinkMatrixDifference(many, fleet, 2);
  EXPECT_NE(diff.find("; and 64 more"), std::string::npos) << diff;  // 66 pairs, 2 shown
}

TEST(FleetTopology, MergeCliReadsSavedSnapshots) {
  const stdfs::path dir = testing::FreshTempDir("fleet_topology_merge");
  for (const auto& [file, text] : ThreeNodes()) std::ofstream(dir / file, std::ios::binary) << text;
  auto r = testing::Gpudoctor({"fleet", "merge", dir.string(), "--json"});
  EXPECT_EQ(r.exit_code, 1) << r.stderr_text;
  auto doc = nlohmann::json::parse(r.stdout_text, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.stdout_text;
  EXPECT_EQ(doc["topology"]["count"], 2);
  EXPECT_EQ(doc["topology"]["matrix"][0][1], "XGMI");
  EXPECT_EQ(doc["nodes"][2]["topology"][2][6], "SYS");
  ASSERT_EQ(doc["outliers"].size(), 1u) << doc["outliers"].dump();
  EXPECT_EQ(doc["outliers"][0]["kind"], "topology");
  EXPECT_EQ(doc["outliers"][0]["host"], "node-c");
  stdfs::remove_all(dir);
}

}  // namespace
}  // namespace gpudoctor
