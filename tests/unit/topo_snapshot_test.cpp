// The topology is part of the Snapshot (issue 15): it survives `info --save` and `--from`, `topo --from`
// shows what `topo --sysroot` shows, a snapshot of the last release (no "topology" key) still loads, a
// malformed topology is refused naming its field, and a machine without GPUs has none.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli_test_util.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot_json.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"
#include "topo/topology_report.h"

namespace gpudoctor {
namespace {

using testing::Gpudoctor;
using testing::kFixtures;
using testing::ReadFileText;

const std::string kReleaseSnapshot =
    std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/reports/snapshot-mi300x-release.json";

TEST(TopoSnapshot, SaveAndLoadKeepTheTopology) {
  for (const char* machine : {"h100-sxm-server", "mi300x-8gpu-node"}) {
    Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + machine));
    ASSERT_TRUE(snap.topology.has_value()) << machine;
    auto back = SnapshotFromJson(SnapshotToJson(snap), "saved");
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_TRUE(back->topology.has_value()) << machine;
    // Every field `topo` shows, as text with link details and as JSON.
    EXPECT_EQ(RenderTopologyJson(*back), RenderTopologyJson(snap)) << machine;
    EXPECT_EQ(RenderTopologyText(*back, true), RenderTopologyText(snap, true)) << machine;
    EXPECT_EQ(SnapshotToJson(*back), SnapshotToJson(snap)) << machine;
  }
  Snapshot h100 = ProbeMachine(MakeRecordedInputs(kFixtures + "h100-sxm-server"));
  auto back = SnapshotFromJson(SnapshotToJson(h100), "saved");
  ASSERT_TRUE(back.ok());
  const Topology& t = *back->topology;
  EXPECT_EQ(CellLabel(t.links[0][4]), "NV18");
  EXPECT_EQ(t.links[0][4].pcie, LinkKind::kSys);
  EXPECT_EQ(t.links[0][4].pcie_source, "nvml");
  EXPECT_EQ(t.links[2][6].p2p_nvlink, "ok");
  EXPECT_EQ(t.links[3][3].kind, LinkKind::kSelf);
  EXPECT_EQ(t.gpus[5].cpu_affinity, "96-191");
  EXPECT_EQ(t.gpus[0].nvlinks_to_switch, 18u);
}

TEST(TopoSnapshot, NoGpuMeansNoTopology) {
  Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + "vm-no-gpu"));
  EXPECT_FALSE(snap.topology.has_value());
  EXPECT_NE(SnapshotToJson(snap).find("\"topology\": null"), std::string::npos);
}

// tests/fixtures/reports/snapshot-mi300x-release.json is `info --json` of the recorded MI300X node as the
// release before this change wrote it (tests/golden/mi300x-8gpu-node.json at commit 5205904).
TEST(TopoSnapshot, ReleaseSnapshotWithoutTopologyStillLoads) {
  std::string text = ReadFileText(kReleaseSnapshot);
  ASSERT_EQ(text.find("\"topology\""), std::string::npos) << "the fixture is the old form";
  auto snap = SnapshotFromJson(text, kReleaseSnapshot);
  ASSERT_TRUE(snap.ok()) << snap.error().message;
  EXPECT_EQ(snap->gpus.size(), 8u);
  EXPECT_FALSE(snap->topology.has_value());
  auto check = Gpudoctor({"check", "--from", kReleaseSnapshot});
  EXPECT_NE(check.exit_code, 3) << check.stderr_text;
  auto topo = Gpudoctor({"topo", "--from", kReleaseSnapshot});
  EXPECT_EQ(topo.exit_code, 3);
  EXPECT_NE(topo.stderr_text.find("holds no topology"), std::string::npos) << topo.stderr_text;
  EXPECT_NE(topo.stderr_text.find("info --save"), std::string::npos) << topo.stderr_text;
}

TEST(TopoSnapshot, TopoFromASavedSnapshotShowsWhatTheSysrootShows) {
  const std::string sysroot = kFixtures + "mi300x-8gpu-node";
  const std::string saved = (std::filesystem::temp_directory_path() /
                             ("gpudoctor_topo_snapshot_" +
                              std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".json"))
                                .string();
  std::filesystem::remove(saved);
  auto info = Gpudoctor({"info", "--sysroot", sysroot, "--save", saved, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.stderr_text;
  for (bool json : {false, true}) {
    std::vector<std::string> from = {"topo", "--links", "--from", saved};
    std::vector<std::string> live = {"topo", "--links", "--sysroot", sysroot};
    if (json) {
      from = {"topo", "--json", "--from", saved};
      live = {"topo", "--json", "--sysroot", sysroot};
    }
    auto a = Gpudoctor(from);
    auto b = Gpudoctor(live);
    EXPECT_EQ(a.exit_code, 0) << a.stderr_text;
    EXPECT_EQ(a.stdout_text, b.stdout_text);
    EXPECT_NE(a.stdout_text.find("XGMI"), std::string::npos);
  }
  std::filesystem::remove(saved);
}

struct BadTopology {
  const char* topology;
  const char* field;
};

class TopoSnapshotBad : public ::testing::TestWithParam<BadTopology> {};

TEST_P(TopoSnapshotBad, IsRefusedNamingTheField) {
  std::string text =
      std::string(R"({"schema": "gpudoctor.snapshot/2", "topology": )") + GetParam().topology + "}";
  auto snap = SnapshotFromJson(text, "bad.json");
  ASSERT_FALSE(snap.ok());
  EXPECT_NE(snap.error().message.find(GetParam().field), std::string::npos) << snap.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Fields, TopoSnapshotBad,
    ::testing::Values(
        BadTopology{"[]", "snapshot.topology"},
        BadTopology{R"({"gpus": [{"pci_address": 3}]})", "snapshot.topology.gpus[0].pci_address"},
        BadTopology{
            R"({"gpus": [{"pci_address": "0000:01:00.0"}], "links": [{"a": 0, "b": 1, "label": "PIX"}]})",
            "snapshot.topology.links[0]"},
        BadTopology{R"({"gpus": [{"pci_address": "0000:01:00.0"}, {"pci_address": "0000:02:00.0"}],
                       "links": [{"a": 0, "b": 1, "label": "NVx"}]})",
                    "snapshot.topology.links[0].label"},
        BadTopology{R"({"gpus": [{"pci_address": "0000:01:00.0"}, {"pci_address": "0000:02:00.0"}],
                       "links": [{"a": 0, "b": 1, "label": "PIX", "pcie": "WIRE"}]})",
                    "snapshot.topology.links[0].pcie"}));

}  // namespace
}  // namespace gpudoctor
