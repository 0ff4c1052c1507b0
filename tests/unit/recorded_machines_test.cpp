// The recorded-machine runner: every folder under tests/fixtures/sysroot is probed as a
// machine and its text and JSON reports are compared with tests/golden/<machine>.{txt,json}.
// `./dev.sh update-goldens` writes the golden files instead (review the diff before committing).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/strings.h"
#include "golden_test_util.h"
#include "knowledge/knowledge_loader.h"
#include "probe/probe_inputs.h"
#include "report/info_text.h"
#include "rules_test_util.h"
#include "snapshot/snapshot_json.h"
#include "test_common.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

using testing::kFixtures;
using testing::kGolden;
using testing_rules::Db;

std::vector<std::string> DiscoverMachines() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : stdfs::directory_iterator(kFixtures, ec)) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Reports must not depend on where the checkout lives or on the tool's version. The probe pass is that of
// `info`: the topology included.
Snapshot ProbeForGolden(const std::string& machine) {
  Snapshot snap = ProbeMachine(MakeRecordedInputs(kFixtures + machine, &Db()));
  snap.sysroot = "tests/fixtures/sysroot/" + machine;
  snap.tool_version = "golden";
  return snap;
}

std::string ReplaceSourceDir(std::string text) {
  const std::string src = GPUDOCTOR_SOURCE_DIR;
  for (size_t pos = text.find(src); pos != std::string::npos; pos = text.find(src, pos)) {
    text.replace(pos, src.size(), "$SRC");
  }
  return text;
}

void CompareOrUpdate(const stdfs::path& golden, const std::string& got) {
  testing::CompareWithGolden(golden, got);
}

class RecordedMachineTest : public ::testing::TestWithParam<std::string> {};

// The recorded trees keep their symbolic links (/opt/rocm -> rocm-6.2.4, sysfs
// driver links). A build that cannot see links as links (the Windows build under
// wine, which follows them silently) reads each linked folder twice, so its
// reports differ by construction; the facts tests still run there.
bool ThisBuildSeesRecordedTreeLinks() {
  auto fs = MakeRootedFileSystem(kFixtures + "rx6700xt-desktop");
  return fs->ReadLink("/opt/rocm").ok();
}

TEST_P(RecordedMachineTest, MatchesGoldenReports) {
  if (!ThisBuildSeesRecordedTreeLinks())
    GTEST_SKIP() << "this build cannot see symbolic links, which the recorded trees use";
  Snapshot snap = ProbeForGolden(GetParam());
  CompareOrUpdate(kGolden + GetParam() + ".txt", ReplaceSourceDir(RenderInfoText(snap)));
  CompareOrUpdate(kGolden + GetParam() + ".json", ReplaceSourceDir(SnapshotToJson(snap)));
}

INSTANTIATE_TEST_SUITE_P(Fixtures, RecordedMachineTest, ::testing::ValuesIn(DiscoverMachines()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           std::replace_if(
                               name.begin(), name.end(),
                               [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
                           return name;
                         });

TEST(RecordedMachines, AtLeastEightAreRecorded) {
  auto machines = DiscoverMachines();
  EXPECT_GE(machines.size(), 8u) << "found under " << kFixtures;
  for (const auto& m : machines) {
    EXPECT_TRUE(stdfs::exists(kFixtures + m + "/README.md")) << m << " needs a README naming its sources";
  }
}

// git keeps no empty folders: a recorded tree that has one here has it in no clone, so its report (and the
// CI's golden comparison) would differ from this checkout's. A folder that must exist holds a file (README.md
// says why).
TEST(RecordedMachines, NoFolderIsEmpty) {
  // A build that cannot see links (wine) shows a folder of dangling links (a venv's bin) as empty.
  if (!ThisBuildSeesRecordedTreeLinks())
    GTEST_SKIP() << "this build cannot see symbolic links, which the recorded trees use";
  std::error_code ec;
  for (auto it = stdfs::recursive_directory_iterator(kFixtures, ec);
       it != stdfs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) break;
    if (it->is_symlink() || !it->is_directory()) continue;
    EXPECT_FALSE(stdfs::is_empty(it->path()))
        << it->path().string() << " is empty: a clone will not have it; put a file in it or remove it";
  }
}

}  // namespace
}  // namespace gpudoctor
