// DLL planting: a vendor library is loaded by full path or from System32, never from the current
// folder (Windows searches it for plain LoadLibrary calls). The Windows build plants a real DLL in the
// current folder and asks for it by name; every build checks that the library search ignores PATH
// entries that are relative to the current folder.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "gpu/api/library_search.h"
#include "platform/dynamic_library.h"
#include "platform/windows_system.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;

class CurrentFolder {
 public:
  explicit CurrentFolder(const stdfs::path& dir) : old_(stdfs::current_path()) { stdfs::current_path(dir); }
  ~CurrentFolder() {
    std::error_code ec;
    stdfs::current_path(old_, ec);
  }

 private:
  stdfs::path old_;
};

TEST(DllSafety, APlantedDllInTheCurrentFolderIsNotLoadedByName) {
  const std::string planted = GPUDOCTOR_PLANTED_DLL;
  if (planted.empty() || !MakeLiveWindowsSystemSource()) GTEST_SKIP() << "Windows builds only";
  const stdfs::path dir =
      stdfs::temp_directory_path() /
      ("gpudoctor_planted_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  stdfs::remove_all(dir);
  stdfs::create_directories(dir);
  const std::string name = "gpudoctor_planted_probe.dll";
  stdfs::copy_file(planted, dir / name);
  {
    CurrentFolder here(dir);
    auto bare = DynamicLibrary::Open(name);
    EXPECT_FALSE(bare.ok()) << "loaded " << bare->LoadedPath() << " from the current folder";
    LibraryLoadReport report;
    EXPECT_FALSE(OpenFirst({name}, report).ok());
    auto relative = DynamicLibrary::Open(".\\" + name);
    ASSERT_FALSE(relative.ok());
    EXPECT_NE(relative.error().message.find("relative path"), std::string::npos) << relative.error().message;
    // The same file by its full path loads: the refusals above are the search rules, not a broken DLL.
    auto full = DynamicLibrary::Open((dir / name).string());
    ASSERT_TRUE(full.ok()) << full.error().message;
    EXPECT_NE(full->Symbol("gpudoctor_planted_marker"), nullptr);
  }
  std::error_code ec;
  stdfs::remove_all(dir, ec);
}

TEST(DllSafety, LibrarySearchSkipsRelativePathEntriesAndReadsWindowsPath) {
  const stdfs::path root =
      stdfs::temp_directory_path() /
      ("gpudoctor_pathsearch_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  stdfs::remove_all(root);
  for (const char* d : {"venv/Lib/site-packages", "venv/Scripts", "abs/Lib/site-packages", "abs/Scripts"})
    stdfs::create_directories(root / d);
  std::ofstream(root / "venv/pyvenv.cfg") << "version = 3.12.4\n";
  std::ofstream(root / "abs/pyvenv.cfg") << "version = 3.12.4\n";
  auto fs = MakeRootedFileSystem(root.string());
  // "venv\Scripts" is relative: it would name whatever folder the user stands in.
  Environment env(std::map<std::string, std::string>{{"Path", "venv\\Scripts;/abs/Scripts"}});
  auto sites = FindSitePackages(*fs, env);
  EXPECT_EQ(sites, (std::vector<std::string>{"/abs/Lib/site-packages"}));
  stdfs::remove_all(root);
}

}  // namespace
}  // namespace gpudoctor
