// Folders of its own under the system's temporary folder, for a test that writes files there: test runs that
// overlap (several builds' suites at once on one machine, or two `./dev.sh test` runs) never share or remove
// each other's files, as they did with fixed names such as /tmp/gpudoctor_fake_<test>.json.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

#include "platform/process.h"

namespace gpudoctor::testing {

// "<tmp>/<prefix>_<16 hex digits>", created; empty when none could be made.
inline std::filesystem::path UniqueTempDir(const std::string& prefix) {
  std::random_device random;
  std::error_code ec;
  for (int attempt = 0; attempt < 64; ++attempt) {
    char name[96];
    std::snprintf(name, sizeof name, "%s_%08x%08x", prefix.c_str(), random(), random());
    std::filesystem::path p = std::filesystem::temp_directory_path(ec) / name;
    if (!ec && std::filesystem::create_directory(p, ec)) return p;
  }
  return {};
}

// This test process's own folder, "<tmp>/gpudoctor_tests_<process id>", made on first use (emptied first: a
// folder of that name can only be left from a dead process that had the same id) and removed with everything
// in it when the process exits normally.
inline const std::filesystem::path& ProcessTempRoot() {
  struct Root {
    std::filesystem::path path;
    Root() {
      path =
          std::filesystem::temp_directory_path() / ("gpudoctor_tests_" + std::to_string(CurrentProcessId()));
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
      std::filesystem::create_directories(path);
    }
    ~Root() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Root root;
  return root.path;
}

// A path "<name>_<n>" in this process's folder that no other call in any process returns (n counts the
// calls), not created: for a test's file or folder.
inline std::filesystem::path ProcessTempPath(const std::string& name) {
  static std::atomic<unsigned> calls{0};
  return ProcessTempRoot() / (name + "_" + std::to_string(++calls));
}

// An empty folder from ProcessTempPath, removed with what is in it when the object goes.
class TempDir {
 public:
  explicit TempDir(const std::string& name) : path_(ProcessTempPath(name)) {
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace gpudoctor::testing
