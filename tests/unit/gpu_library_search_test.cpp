// The library search order (gpu/api/library_search.h) on fake trees under a temporary root: a framework's own
// copies come before the SDK's, the SDK's before the system loader, and site-packages are found through
// VIRTUAL_ENV, CONDA_PREFIX, PATH and the standard places.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpu/api/library_search.h"

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

class LibrarySearchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("gpudoctor_libsearch_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void Touch(const std::string& machine_path) {
    fs::path p = root_ / machine_path.substr(1);
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
  }
  void Dir(const std::string& machine_path) { fs::create_directories(root_ / machine_path.substr(1)); }
  std::unique_ptr<FileSystem> Fs() { return MakeRootedFileSystem(root_.string()); }
  fs::path root_;
};

TEST_F(LibrarySearchTest, SitePackagesInOrderVenvCondaPathHomeSystem) {
  Dir("/venv/lib/python3.12/site-packages");
  Dir("/conda/lib/python3.11/site-packages");
  Touch("/opt/torch/.venv/pyvenv.cfg");
  Dir("/opt/torch/.venv/bin");
  Dir("/opt/torch/.venv/lib/python3.12/site-packages");
  Dir("/home/u/.local/lib/python3.11/site-packages");
  Dir("/usr/local/lib/python3.11/dist-packages");
  Dir("/usr/lib/python3/dist-packages");
  Environment env({{"VIRTUAL_ENV", "/venv"},
                   {"CONDA_PREFIX", "/conda"},
                   {"PATH", "/usr/bin:/opt/torch/.venv/bin"},
                   {"HOME", "/home/u"}});
  auto sp = FindSitePackages(*Fs(), env);
  std::vector<std::string> want = {"/venv/lib/python3.12/site-packages",
                                   "/conda/lib/python3.11/site-packages",
                                   "/opt/torch/.venv/lib/python3.12/site-packages",
                                   "/home/u/.local/lib/python3.11/site-packages",
                                   "/usr/local/lib/python3.11/dist-packages",
                                   "/usr/lib/python3/dist-packages"};
  EXPECT_EQ(sp, want);
}

TEST_F(LibrarySearchTest, FrameworkCopiesFirstThenSdkThenSystem) {
  const std::string sp = "/venv/lib/python3.12/site-packages";
  Touch(sp + "/torch/lib/libamdhip64.so");
  Touch("/opt/rocm-6.2/lib/libamdhip64.so.6");
  Environment env({{"VIRTUAL_ENV", "/venv"}, {"ROCM_PATH", "/opt/rocm-6.2"}});
  auto fsys = Fs();
  auto c = SearchLibrary(*fsys, env, FindSitePackages(*fsys, env), HipLibrarySpec());
  ASSERT_GE(c.size(), 3u);
  EXPECT_EQ(c[0].path, sp + "/torch/lib/libamdhip64.so");
  EXPECT_EQ(c[0].origin, LibraryOrigin::kFramework);
  EXPECT_EQ(c[0].where, "torch/lib of " + sp);
  EXPECT_EQ(c[1].path, "/opt/rocm-6.2/lib/libamdhip64.so.6");
  EXPECT_EQ(c[1].origin, LibraryOrigin::kSdk);
  EXPECT_EQ(c[1].where, "ROCM_PATH=/opt/rocm-6.2");
  EXPECT_EQ(c[2].path, "libamdhip64.so.7");  // then the loader, newest name first
  EXPECT_EQ(c[2].origin, LibraryOrigin::kSystem);
}

TEST_F(LibrarySearchTest, NvidiaWheelFoldersAreGlobbed) {
  const std::string sp = "/venv/lib/python3.12/site-packages";
  Touch(sp + "/nvidia/cu13/lib/libnvrtc.so.13");
  Touch(sp + "/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
  Environment env(std::map<std::string, std::string>{{"VIRTUAL_ENV", "/venv"}});
  auto fsys = Fs();
  auto c = SearchLibrary(*fsys, env, FindSitePackages(*fsys, env), NvrtcLibrarySpec());
  ASSERT_GE(c.size(), 2u);
  // Sorted folder names (cu13 < cuda_nvrtc), and within a folder the newest file name first.
  EXPECT_EQ(c[0].path, sp + "/nvidia/cu13/lib/libnvrtc.so.13");
  EXPECT_EQ(c[1].path, sp + "/nvidia/cuda_nvrtc/lib/libnvrtc.so.12");
  EXPECT_EQ(c[0].where, "nvidia/cu13/lib of " + sp);
}

TEST_F(LibrarySearchTest, DriverIsNeverTakenFromAWheelOrToolkit) {
  Touch("/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libcuda.so.1");
  Touch("/usr/local/cuda/lib64/libcuda.so.1");
  Environment env({{"VIRTUAL_ENV", "/venv"}, {"CUDA_PATH", "/usr/local/cuda"}});
  auto fsys = Fs();
  auto c = SearchLibrary(*fsys, env, FindSitePackages(*fsys, env), CudaDriverLibrarySpec());
  for (const auto& cand : c) EXPECT_EQ(cand.origin, LibraryOrigin::kSystem) << cand.path;
}

TEST_F(LibrarySearchTest, NothingInstalledLeavesTheSystemLoaderOnly) {
  auto fsys = Fs();
  auto c = SearchLibrary(*fsys, Environment(), FindSitePackages(*fsys, Environment()), CublasLibrarySpec());
  ASSERT_FALSE(c.empty());
  for (const auto& cand : c) EXPECT_EQ(cand.origin, LibraryOrigin::kSystem);
  EXPECT_EQ(CandidatePaths(c).front(), "libcublas.so.13");
}

TEST(LibrarySearch, LoadedCandidateIsTheLastTried) {
  std::vector<LibraryCandidate> c = {{"/a/libx.so", LibraryOrigin::kFramework, "a"},
                                     {"libx.so.1", LibraryOrigin::kSystem, "system loader"}};
  LibraryLoadReport report;
  report.tried = {"/a/libx.so", "libx.so.1"};
  EXPECT_EQ(LoadedCandidate(c, report), nullptr);  // nothing loaded
  report.loaded_path = "/usr/lib/libx.so.1";
  ASSERT_NE(LoadedCandidate(c, report), nullptr);
  EXPECT_EQ(LoadedCandidate(c, report)->origin, LibraryOrigin::kSystem);
}

// A relative ROCM_PATH, VIRTUAL_ENV, CONDA_PREFIX or HOME names the current folder's contents: never a place
// to load a library from (issue 35, attempt 127: `ROCM_PATH=. gpudoctor verify` ran a planted library).
TEST_F(LibrarySearchTest, RelativeRootsAreNeverSearched) {
  const LibrarySpec spec = HipLibrarySpec();
  ASSERT_FALSE(spec.file_names.empty());
  Touch("/lib/" + spec.file_names.front());
  Touch("/venv/lib/python3.11/site-packages/torch/lib/" + spec.file_names.front());
  Touch("/.local/lib/python3.11/site-packages/torch/lib/" + spec.file_names.front());
  Environment env({{"ROCM_PATH", "."},
                   {"HIP_PATH", "./"},
                   {"VIRTUAL_ENV", "venv"},
                   {"CONDA_PREFIX", "./venv"},
                   {"HOME", "."}});
  auto sp = FindSitePackages(*Fs(), env);
  for (const auto& dir : sp) EXPECT_EQ(dir.front(), '/') << dir;
  for (const auto& c : SearchLibrary(*Fs(), env, sp, spec))
    EXPECT_EQ(c.origin, LibraryOrigin::kSystem) << c.path << " (" << c.where << ")";
}

}  // namespace
}  // namespace gpudoctor
