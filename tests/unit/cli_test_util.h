// What the tests of the command line share: running this build's gpudoctor binary as a user would, and a
// fresh folder for the files a test writes. One copy here instead of one per test file.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "platform/process.h"

namespace gpudoctor::testing {

// Runs this build's gpudoctor with `args` and NO_COLOR=1. A binary that cannot be started fails the test and
// gives an empty result. The timeout only bounds a hang; every command the tests run takes seconds.
inline ProcessResult Gpudoctor(std::vector<std::string> args,
                               std::chrono::milliseconds timeout = std::chrono::seconds(60)) {
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH};
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.timeout = timeout;
  req.extra_env["NO_COLOR"] = "1";
  auto r = RunProcess(req);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ProcessResult{};
}

// An empty folder "gpudoctor_<name>" in the system's temporary folder; what was there before is removed. Name
// it after the test file and the test ("check_cli_db") so that tests running at the same time never share
// one.
inline std::filesystem::path FreshTempDir(const std::string& name) {
  std::filesystem::path p = std::filesystem::temp_directory_path() / ("gpudoctor_" + name);
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p;
}

}  // namespace gpudoctor::testing
