// The golden comparison of golden_test_util.h: a difference fails, and the old variable
// GPUDOCTOR_UPDATE_GOLDEN=1 in the environment neither passes the test nor rewrites the file; only the
// binary's --update-goldens argument does.
#include "golden_test_util.h"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_test_util.h"
#include "test_common.h"

namespace gpudoctor::testing {
namespace {

namespace stdfs = std::filesystem;

void SetVariable(const char* name, const char* value) {
#ifdef _WIN32
  _putenv_s(name, value == nullptr ? "" : value);
#else
  if (value == nullptr) {
    unsetenv(name);
  } else {
    setenv(name, value, 1);
  }
#endif
}

// Sets a variable for one scope and restores what was there.
class ScopedVariable {
 public:
  ScopedVariable(const char* name, const char* value) : name_(name) {
    const char* old = std::getenv(name);
    if (old != nullptr) old_ = old;
    had_ = old != nullptr;
    SetVariable(name, value);
  }
  ~ScopedVariable() { SetVariable(name_, had_ ? old_.c_str() : nullptr); }
  ScopedVariable(const ScopedVariable&) = delete;
  ScopedVariable& operator=(const ScopedVariable&) = delete;

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

// Sets --update-goldens for one scope.
class ScopedUpdate {
 public:
  explicit ScopedUpdate(bool on) : old_(UpdateGoldensRequested()) { UpdateGoldensRequested() = on; }
  ~ScopedUpdate() { UpdateGoldensRequested() = old_; }
  ScopedUpdate(const ScopedUpdate&) = delete;
  ScopedUpdate& operator=(const ScopedUpdate&) = delete;

 private:
  bool old_;
};

TEST(GoldenFiles, TheOldEnvironmentVariableNeitherPassesNorRewrites) {
  TempDir dir("golden_env");
  const stdfs::path golden = dir.path() / "machine.txt";
  std::ofstream(golden, std::ios::binary) << "recorded\n";
  ScopedUpdate no_flag(false);
  ScopedVariable update("GPUDOCTOR_UPDATE_GOLDEN", "1");
  EXPECT_NONFATAL_FAILURE(CompareWithGolden(golden, "rendered\n"), "differs");
  EXPECT_EQ(ReadFileText(golden), "recorded\n");
}

TEST(GoldenFiles, AnEqualFilePasses) {
  TempDir dir("golden_equal");
  const stdfs::path golden = dir.path() / "machine.txt";
  std::ofstream(golden, std::ios::binary) << "same\n";
  ScopedUpdate no_flag(false);
  CompareWithGolden(golden, "same\n");
  EXPECT_EQ(ReadFileText(golden), "same\n");
}

TEST(GoldenFiles, OnlyTheUpdateArgumentRewrites) {
  TempDir dir("golden_flag");
  const stdfs::path golden = dir.path() / "sub" / "machine.txt";
  {
    ScopedUpdate flag(true);
    CompareWithGolden(golden, "rendered\n");
  }
  EXPECT_EQ(ReadFileText(golden), "rendered\n");
}

TEST(GoldenFiles, TheDifferenceNamesTheFirstDifferingLine) {
  const std::string diff = FirstDifference("a\nb\nc\n", "a\nB\nc\n");
  EXPECT_NE(diff.find("@@ line 2 @@"), std::string::npos) << diff;
  EXPECT_NE(diff.find("- b"), std::string::npos) << diff;
  EXPECT_NE(diff.find("+ B"), std::string::npos) << diff;
}

}  // namespace
}  // namespace gpudoctor::testing
