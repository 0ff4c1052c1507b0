// `gpudoctor tune` with real children: fake ones fed to a plain python3 (a planted hang, crash and
// garbage), the child's own batch search against planted out-of-memory limits (no torch needed), and
// the real child on Debian 12's CPU PyTorch at tiny sizes (a planted limit the search must find
// exactly). Skipped where python3 (or python3-torch) is missing, as under wine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tune/tune_advice.h"
#include "tune/tune_runner.h"

namespace gpudoctor {
namespace {

const std::string kPython = "/usr/bin/python3";

std::string SourcePath(const std::string& rel) {
  return std::string(GPUDOCTOR_SOURCE_DIR) + "/" + rel;
}

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class TuneChild : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::filesystem::path::preferred_separator == '\\' || !std::filesystem::exists(kPython))
      GTEST_SKIP() << "no Linux python3 here";
  }
  static TuneOptions Fake(const std::string& fixture, std::chrono::milliseconds timeout) {
    TuneOptions o;
    o.interpreter = kPython;
    o.script = ReadText(SourcePath("tests/fixtures/tune/" + fixture));
    o.timeout = timeout;
    return o;
  }
};

TEST_F(TuneChild, PlantedHangIsATimeoutBlamedOnTheRunningItem) {
  std::vector<TuneProgress> progress;
  TuneRun run = RunTune(Fake("fake_hang.py", std::chrono::milliseconds(1500)),
                        [&](const TuneProgress& p) { progress.push_back(p); });
  EXPECT_EQ(run.status, "timeout");
  EXPECT_EQ(run.output.last_begun, "resnet50/fp16/nchw/default/32");
  ASSERT_FALSE(run.problems.empty());
  EXPECT_EQ(run.problems[0].id, "tune.child_hang");
  EXPECT_NE(run.problems[0].title.find("resnet50/fp16/nchw/default/32"), std::string::npos);
  EXPECT_EQ(run.stderr_tail, (std::vector<std::string>{"HIP: waiting for the device"}));
  EXPECT_EQ(TuneExitCode(run), 2);
  EXPECT_LT(run.elapsed_ms, 10000u);
}

TEST_F(TuneChild, PlantedCrashIsTheSignalWithEvidence) {
  TuneRun run = RunTune(Fake("fake_crash.py", std::chrono::seconds(20)), nullptr);
  EXPECT_EQ(run.status, "crashed");
  EXPECT_EQ(run.signal, 11);
  ASSERT_FALSE(run.problems.empty());
  EXPECT_NE(run.problems[0].title.find("signal 11 while running transformer/bf16/nchw/default/8"),
            std::string::npos)
      << run.problems[0].title;
  EXPECT_EQ(TuneExitCode(run), 2);
}

TEST_F(TuneChild, GarbageIsNoReport) {
  TuneRun run = RunTune(Fake("fake_garbage.py", std::chrono::seconds(20)), nullptr);
  EXPECT_EQ(run.status, "no-report");
  EXPECT_EQ(run.output.ignored_lines, 5u);
  EXPECT_TRUE(BuildTuneAdvice(run.output).models.empty());
}

// The child's largest_batch, driven by a planted limit for every limit up to each cap.
TEST_F(TuneChild, SearchFindsEveryPlantedLimitExactly) {
  TuneOptions o;
  ProcessRequest req;
  req.argv = {kPython,
              SourcePath("tests/fixtures/tune/search_driver.py"),
              SourcePath("data/tune/tune_child.py"),
              "exact",
              "2",
              "7",
              "64",
              "100"};
  req.timeout = std::chrono::seconds(60);
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->exit_code, 0) << r->stderr_text;
  size_t checked = 0;
  std::istringstream lines(r->stdout_text);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    int cap = j["cap"], limit = j["limit"], start = j["start"];
    int want = limit < start ? 0 : std::min(limit, cap);
    EXPECT_EQ(j["largest"].get<int>(), want) << line;
    if (limit < start) {
      EXPECT_EQ(j["failed"].get<int>(), start) << line;
    } else if (limit >= cap) {
      EXPECT_TRUE(j["failed"].is_null()) << line;
    } else {
      EXPECT_EQ(j["failed"].get<int>(), limit + 1) << line;
    }
    EXPECT_LE(j["tries"].get<int>(), 20) << line;  // doubling and bisection: logarithmic
    ++checked;
  }
  EXPECT_EQ(checked, 2u * (5 + 10 + 67 + 103));
}

// Debian 12's python3-torch (CPU only) running the real child at tiny sizes.
TEST_F(TuneChild, RealChildOnCpuTorchFindsThePlantedLimit) {
  if (!std::filesystem::exists("/usr/lib/python3/dist-packages/torch/version.py"))
    GTEST_SKIP() << "Debian's python3-torch is not installed (apt-get install python3-torch)";
  TuneOptions o;
  o.interpreter = kPython;
  o.device = "cpu";
  o.size = "tiny";
  o.models = {"transformer"};
  o.exact_search = true;
  o.timeout = std::chrono::seconds(240);
  o.extra_env["GPUDOCTOR_TUNE_PLANT_OOM_ABOVE"] = "5";
  std::vector<TuneProgress> progress;
  TuneRun run = RunTune(o, [&](const TuneProgress& p) { progress.push_back(p); });
  ASSERT_EQ(run.status, "ok") << (run.problems.empty() ? "" : run.problems[0].title);
  EXPECT_TRUE(run.problems.empty()) << run.problems[0].title;
  ASSERT_TRUE(run.output.hello);
  EXPECT_EQ(run.output.hello->backend, "cpu");
  EXPECT_EQ(run.output.skips.size(), 2u);  // fp16 and bf16 are GPU measurements
  ASSERT_EQ(run.output.measurements.size(), 1u);
  const TuneMeasurement& m = run.output.measurements[0];
  EXPECT_EQ(m.model, "transformer");
  EXPECT_EQ(m.unit, "tokens/s");
  EXPECT_GT(m.units_per_s, 0);
  EXPECT_NEAR(m.units_per_s, m.samples_per_s * 16, m.units_per_s * 1e-9);  // tiny: 16 tokens a sequence
  EXPECT_TRUE(m.loss_finite);
  ASSERT_EQ(run.output.searches.size(), 1u);
  EXPECT_EQ(run.output.searches[0].largest, 5u);
  EXPECT_EQ(run.output.searches[0].failed_at, 6u);
  EXPECT_FALSE(CheckBatchSearch(run.output.searches[0]));
  ASSERT_FALSE(progress.empty());  // streamed while the child ran
  EXPECT_EQ(progress.back().done, progress.back().total);
  TuneAdvice advice = BuildTuneAdvice(run.output);
  ASSERT_EQ(advice.models.size(), 1u);
  EXPECT_EQ(advice.models[0].largest_batch, 5u);
  EXPECT_EQ(advice.models[0].precision, "fp32");
}

}  // namespace
}  // namespace gpudoctor
