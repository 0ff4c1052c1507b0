// Issue 15 item 4: `gather` records what the probes read, so a recording replays the same machine.
// Each recorded Linux machine under tests/fixtures/sysroot is gathered (the recording FileSystem over
// the fixture, as over a live root), the recording is replayed, and `info` (text and JSON), `check`
// (text and JSON) and `topo` (text and JSON) must say exactly what they say of the fixture itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include "gather/gather.h"
#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "recorded_fixture_names.h"
#include "report/check_json.h"
#include "report/check_text.h"
#include "report/info_text.h"
#include "rules/rules.h"
#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"
#include "topo/topology_report.h"
#include "unique_temp_dir.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

using testing::kFixtures;
using testing::ThisBuildMakesLinks;
using testing_rules::Db;

// The Linux machines (Windows ones are gathered by gather_windows, tested in gather_windows_test).
std::vector<std::string> LinuxMachines() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : stdfs::directory_iterator(kFixtures, ec)) {
    if (e.is_directory() && !stdfs::exists(e.path() / ".gpudoctor/windows"))
      names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Every report the three commands print of one sysroot, with the sysroot's own path taken out.
struct Reports {
  std::string info_text, info_json, check_text, check_json, topo_text, topo_json;
};

Reports ReportsOf(const std::string& sysroot) {
  ProbeInputs in = MakeRecordedInputs(sysroot, &Db());
  Snapshot snap = ProbeMachine(in);  // the probe pass of info, check and topo
  snap.sysroot = "SYSROOT";
  Reports r;
  r.info_text = RenderInfoText(snap);
  r.info_json = SnapshotToJson(snap);
  r.check_text = RenderCheckText(snap, RunAllRules(snap, Db(), RuleOptions{}), Shell::kBash, {});
  r.check_json = RenderCheckJson(snap, RunAllRules(snap, Db(), RuleOptions{}), Shell::kBash, 0);
  r.topo_text = RenderTopologyText(snap, true);
  r.topo_json = RenderTopologyJson(snap);
  return r;
}

class GatherReplayTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dest_ = stdfs::temp_directory_path() /
            ("gpudoctor_gather_replay_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + GetParam());
    stdfs::remove_all(dest_);
  }
  void TearDown() override { stdfs::remove_all(dest_); }
  stdfs::path dest_;
};

TEST_P(GatherReplayTest, RecordingReplaysTheSameInfoCheckAndTopo) {
  if (!ThisBuildMakesLinks()) GTEST_SKIP() << "this build cannot make symbolic links, which sysfs is made of";
  const std::string machine = kFixtures + GetParam();
  Reports want = ReportsOf(machine);

  ProbeInputs in = MakeRecordedInputs(machine, &Db());
  std::vector<std::string> notes;
  Status st = GatherMachine(in, "", dest_.string(), notes);
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_NE(in.fs, nullptr) << "the inputs are given back after recording";

  Reports got = ReportsOf(dest_.string());
  EXPECT_EQ(got.info_text, want.info_text);
  EXPECT_EQ(got.info_json, want.info_json);
  EXPECT_EQ(got.check_text, want.check_text);
  EXPECT_EQ(got.check_json, want.check_json);
  EXPECT_EQ(got.topo_text, want.topo_text);
  EXPECT_EQ(got.topo_json, want.topo_json);
  for (const auto& n : notes) ADD_FAILURE() << "unexpected note: " << n;
}

INSTANTIATE_TEST_SUITE_P(LinuxFixtures, GatherReplayTest, ::testing::ValuesIn(LinuxMachines()),
                         testing::MachineTestName);

TEST(GatherReplay, CoversEveryLinuxFixture) {
  EXPECT_GE(LinuxMachines().size(), 8u);
}

}  // namespace
}  // namespace gpudoctor
