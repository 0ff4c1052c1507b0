// What the tests of `setup --apply` share: a Linux python3 to make venvs with, stand-in wheels of a plan's
// pinned versions (tests/make_standin_wheels.py) in a local folder, and a way to ask an environment's
// interpreter what it imports; the recorded machine their plans are made for. One copy for the pip, uv and
// conda tests.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "platform/process.h"
#include "probe/probe_inputs.h"
#include "rules_test_util.h"
#include "setup/setup_plan.h"
#include "topo/machine_pass.h"
#include "topo/topology_probe.h"

namespace gpudoctor::testing {

inline bool HaveLinuxPython() {
  return std::filesystem::path::preferred_separator == '/' && std::filesystem::exists("/usr/bin/python3");
}

// A test that makes real environments: skipped where there is no Linux python3 (the Windows build under
// wine).
class NeedsLinuxPython : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveLinuxPython()) GTEST_SKIP() << "no Linux python3 here";
  }
};

// The recorded Raphael desktop (a 7900 XTX beside the iGPU).
inline const std::string kRaphael =
    std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/sysroot/rx7900xtx-raphael";

// Its plan: torch from the rocm7.14 index and HIP_VISIBLE_DEVICES=0, into `env`, with `installer` as
// --installer names it.
inline SetupPlan RaphaelPlan(const std::filesystem::path& env, const std::string& installer = "pip") {
  PlanRequest request;
  request.environment = env.string();
  request.installer = installer;
  return PlanSetup(ProbeMachine(MakeRecordedInputs(kRaphael)), testing_rules::Db(), request);
}

// "torch==2.9.1" -> "torch==2.9.1+rocm7.14"; "torchvision==0.24.*" -> "torchvision==0.24.0+rocm7.14".
inline std::string WheelSpec(std::string requirement, const std::string& variant) {
  if (requirement.ends_with(".*")) requirement.replace(requirement.size() - 2, 2, ".0");
  return requirement + "+" + variant;
}

inline void BuildWheels(const std::filesystem::path& dir, const std::vector<std::string>& specs) {
  ProcessRequest r;
  r.argv = {"/usr/bin/python3", std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/make_standin_wheels.py",
            dir.string()};
  r.argv.insert(r.argv.end(), specs.begin(), specs.end());
  auto result = RunProcess(r);
  ASSERT_TRUE(result.ok());
  ASSERT_EQ(result->exit_code, 0) << result->stderr_text;
}

// What `code` prints under `python`, or "failed: " and its error.
inline std::string RunPython(const std::string& python, const std::string& code) {
  ProcessRequest r;
  r.argv = {python, "-c", code};
  auto result = RunProcess(r);
  return result.ok() && result->exit_code == 0 ? result->stdout_text : "failed: " + result->stderr_text;
}

}  // namespace gpudoctor::testing
