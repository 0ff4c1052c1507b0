// What the tests of the command line share: running this build's gpudoctor binary as a user would, and a
// fresh folder for the files a test writes. One copy here instead of one per test file.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "platform/process.h"
#include "test_common.h"
#include "unique_temp_dir.h"

namespace gpudoctor::testing {

// The day a `check` run by the tests judges the knowledge base's age against (its --today): without it the
// outputs would change once the clock is 180 days past the data's as-of date (knowledge.stale).
inline constexpr const char* kTestToday = "2026-12-05";

// Runs this build's gpudoctor with `args` and NO_COLOR=1; `check` gets `--today kTestToday` unless `args`
// name a day. A binary that cannot be started fails the test and gives an empty result. The timeout only
// bounds a hang; every command the tests run takes seconds.
inline ProcessResult Gpudoctor(std::vector<std::string> args,
                               std::chrono::milliseconds timeout = std::chrono::seconds(60),
                               std::map<std::string, std::string> extra_env = {}) {
  if (!args.empty() && args[0] == "check" && std::find(args.begin(), args.end(), "--today") == args.end())
    args.insert(args.begin() + 1, {"--today", kTestToday});
  ProcessRequest req;
  req.argv = {GPUDOCTOR_BINARY_PATH};
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.timeout = timeout;
  req.extra_env = std::move(extra_env);
  req.extra_env["NO_COLOR"] = "1";
  auto r = RunProcess(req);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : ProcessResult{};
}

// An empty folder of this test process's own (unique_temp_dir.h: "<tmp>/gpudoctor_tests_<pid>/<name>_<n>"),
// removed with the process's folder when the test binary exits. Two runs at once never share one, and no call
// returns a folder another call returned. Name it after the test file and the test ("check_cli_db").
inline std::filesystem::path FreshTempDir(const std::string& name) {
  std::filesystem::path p = ProcessTempPath(name);
  std::filesystem::create_directories(p);
  return p;
}

// True when a hipcc answers `hipcc --version` here (Debian's hipcc package); the tests that compile HIP skip
// with kNoHipcc otherwise.
inline bool HipccRuns() {
  ProcessRequest probe;
  probe.argv = {"hipcc", "--version"};
  probe.timeout = std::chrono::seconds(60);
  auto version = RunProcess(probe);
  return version.ok() && version->exit_code && *version->exit_code == 0;
}
inline constexpr const char* kNoHipcc =
    "hipcc is not installed (Debian package hipcc; ./dev.sh deps installs it)";

}  // namespace gpudoctor::testing
