// `gather` on Windows, run against each recorded Windows machine as if it were live: the folder it
// writes must replay to the same snapshot (what the probes read is exactly what was recorded), and it
// refuses a folder that is not empty.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "binfmt_fixtures.h"
#include "gather/gather_windows.h"
#include "probe/probe_inputs.h"
#include "snapshot/snapshot_json.h"
#include "test_common.h"
#include "topo/machine_pass.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

using testing::kFixtures;

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
  Snapshot want = ProbeMachine(original);
  std::vector<std::string> notes;
  auto st = GatherWindowsMachine(original, "", dest_.string(), notes);
  ASSERT_TRUE(st.ok()) << st.error().message;
  ASSERT_NE(original.windows, nullptr) << "the inputs are given back after recording";
  EXPECT_TRUE(stdfs::exists(dest_ / ".gpudoctor/windows/registry.json"));
  EXPECT_TRUE(stdfs::exists(dest_ / "README.md"));
  Snapshot got = ProbeMachine(MakeRecordedInputs(dest_.string()));
  EXPECT_EQ(Comparable(got), Comparable(want));
  // A second recording into the same folder is refused: nothing is overwritten.
  EXPECT_FALSE(GatherWindowsMachine(original, "", dest_.string(), notes).ok());
}

INSTANTIATE_TEST_SUITE_P(WindowsFixtures, GatherWindowsTest,
                         ::testing::Values("win10-rx6700xt", "win11-rx7900xtx-py311",
                                           "win11-strix-halo-laptop", "win11-rtx4090", "win11-rtx4090-conda",
                                           "win11-gtx1080-comfyui-portable", "win11-rx9070xt-old-adrenalin",
                                           "win11-radeon890m-store-cpu-torch", "win11-rtx5090-no-vcredist"),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n = p.param;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

// Issue 31 item 4: torch's DLLs are recorded with the pieces the GPU-code readers took, at their offsets
// and at the DLL's size, so a replay reads the same cubins (an empty placeholder read as "neither ELF nor
// PE" and lost them). The conda machine's torch gets a real PE with .nv_fatbin as torch_cuda.dll.
TEST(GatherWindows, TorchDllsReplayWithTheirGpuCode) {
  const stdfs::path base =
      stdfs::temp_directory_path() /
      ("gpudoctor_gatherwin_dll_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  stdfs::remove_all(base);
  const stdfs::path machine = base / "machine", dest = base / "recorded";
  stdfs::create_directories(base);
  stdfs::copy(kFixtures + "win11-rtx4090-conda", machine, stdfs::copy_options::recursive);
  const stdfs::path lib = machine / "C/Users/frank/miniconda3/envs/torch/Lib/site-packages/torch/lib";
  stdfs::create_directories(lib);
  auto dll = testing::LoadBinaryFixture("fatbins_mingw.dll");
  std::ofstream(lib / "torch_cuda.dll", std::ios::binary)
      .write(reinterpret_cast<const char*>(dll.data()), static_cast<std::streamsize>(dll.size()));

  ProbeInputs original = MakeRecordedInputs(machine.string());
  Snapshot want = ProbeMachine(original);
  auto cubins = [](const Snapshot& s) {
    for (const auto& e : s.python_envs)
      if (e.torch && !e.torch->gpu_code.empty()) return e.torch->gpu_code[0].cuda_cubins;
    return std::vector<std::string>{};
  };
  ASSERT_EQ(cubins(want), (std::vector<std::string>{"sm_75", "sm_90"}));
  std::vector<std::string> notes;
  auto st = GatherWindowsMachine(original, "", dest.string(), notes);
  ASSERT_TRUE(st.ok()) << st.error().message;
  const stdfs::path recorded =
      dest / "C/Users/frank/miniconda3/envs/torch/Lib/site-packages/torch/lib/torch_cuda.dll";
  ASSERT_TRUE(stdfs::exists(recorded));
  EXPECT_EQ(stdfs::file_size(recorded), dll.size());
  Snapshot got = ProbeMachine(MakeRecordedInputs(dest.string()));
  EXPECT_EQ(cubins(got), cubins(want));
  EXPECT_EQ(Comparable(got), Comparable(want));
  {
    std::ifstream readme(dest / "README.md");  // closed before the folder is removed (Windows)
    std::string text((std::istreambuf_iterator<char>(readme)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("torch_cuda.dll ("), std::string::npos) << text;
  }
  stdfs::remove_all(base);
}

TEST(GatherWindows, KeepsTheWindowsFolderVariablesOnly) {
  EXPECT_TRUE(IsGatheredWindowsVariable("USERPROFILE"));
  EXPECT_TRUE(IsGatheredWindowsVariable("LocalAppData"));
  EXPECT_TRUE(IsGatheredWindowsVariable("VIRTUAL_ENV"));
  EXPECT_FALSE(IsGatheredWindowsVariable("PATH"));
  EXPECT_FALSE(IsGatheredWindowsVariable("USERNAME"));
}

}  // namespace
}  // namespace gpudoctor
