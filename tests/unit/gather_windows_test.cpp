// `gather` on Windows, run against each recorded Windows machine as if it were live: the folder it
// writes must replay to the same snapshot (what the probes read is exactly what was recorded), and it
// refuses a folder that is not empty.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gather/gather_windows.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot_json.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

const std::string kFixtures = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/";

class GatherWindowsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dest_ = stdfs::temp_directory_path() /
            ("gpudoctor_gatherwin_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + std::to_string(std::hash<std::string>()(GetParam())));
    stdfs::remove_all(dest_);
  }
  void TearDown() override { stdfs::remove_all(dest_); }
  stdfs::path dest_;
};

std::string Comparable(Snapshot s) {
  s.sysroot = "";
  return SnapshotToJson(s);
}

TEST_P(GatherWindowsTest, RecordingReplaysToTheSameSnapshot) {
  ProbeInputs original = MakeRecordedInputs(kFixtures + GetParam());
  ASSERT_NE(original.windows, nullptr);
  Snapshot want = ProbeWithInputs(original);
  std::vector<std::string> notes;
  auto st = GatherWindowsMachine(original, "", dest_.string(), notes);
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_NE(original.windows, nullptr) << "the inputs are given back after recording";
  EXPECT_TRUE(stdfs::exists(dest_ / ".gpudoctor/windows/registry.json"));
  EXPECT_TRUE(stdfs::exists(dest_ / "README.md"));
  Snapshot got = ProbeWithInputs(MakeRecordedInputs(dest_.string()));
  EXPECT_EQ(Comparable(got), Comparable(want));
  // A second recording into the same folder is refused: nothing is overwritten.
  EXPECT_FALSE(GatherWindowsMachine(original, "", dest_.string(), notes).ok());
}

INSTANTIATE_TEST_SUITE_P(WindowsFixtures, GatherWindowsTest,
                         ::testing::Values("win10-rx6700xt", "win11-rx7900xtx-py311",
                                           "win11-strix-halo-laptop", "win11-rtx4090", "win11-rtx4090-conda",
                                           "win11-gtx1080-comfyui-portable"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(GatherWindows, KeepsTheWindowsFolderVariablesOnly) {
  EXPECT_TRUE(IsGatheredWindowsVariable("USERPROFILE"));
  EXPECT_TRUE(IsGatheredWindowsVariable("LocalAppData"));
  EXPECT_TRUE(IsGatheredWindowsVariable("VIRTUAL_ENV"));
  EXPECT_FALSE(IsGatheredWindowsVariable("PATH"));
  EXPECT_FALSE(IsGatheredWindowsVariable("USERNAME"));
}

}  // namespace
}  // namespace gpudoctor
