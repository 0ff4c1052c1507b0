// `gpudoctor tune` with real children: fake ones fed to a plain python3 (a planted hang, crash and
// garbage), the child's own batch search against planted out-of-memory limits (no torch needed), and
// the real child on Debian 12's CPU PyTorch at tiny sizes (a planted limit the search must find
// exactly). Skipped where python3 (or python3-torch) is missing, as under wine.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "tune/tune_advice.h"
#include "tune/tune_child_script.h"
#include "tune/tune_report.h"
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
  EXPECT_EQ(run.output.last_begun, "resnet50/fp16/nchw/default/512");
  ASSERT_FALSE(run.problems.empty());
  EXPECT_EQ(run.problems[0].id, "tune.child_hang");
  EXPECT_NE(run.problems[0].title.find("resnet50/fp16/nchw/default/512"), std::string::npos);
  EXPECT_EQ(run.stderr_tail, (std::vector<std::string>{"HIP: waiting for the device"}));
  EXPECT_EQ(TuneExitCode(run), 2);
  EXPECT_LT(run.elapsed_ms, 10000u);
}

TEST_F(TuneChild, PlantedCrashIsTheSignalWithEvidence) {
  TuneRun run = RunTune(Fake("fake_crash.py", std::chrono::seconds(20)), nullptr);
  EXPECT_EQ(run.status, "crashed");
  EXPECT_EQ(run.signal, 11);
  ASSERT_FALSE(run.problems.empty());
  EXPECT_NE(run.problems[0].title.find("signal 11 while running transformer/bf16/nchw/default/128"),
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

// The allocator knob: a second fake child that measures only when the variable is in its environment.
TuneRun RunAllocatorFake(const std::string& rate, const std::string& largest,
                         const std::string& backend = "cuda") {
  TuneOptions o;
  o.interpreter = kPython;
  o.script = ReadText(SourcePath("tests/fixtures/tune/fake_allocator.py"));
  o.timeout = std::chrono::seconds(30);
  o.allocator = true;
  o.extra_env = {{"GPUDOCTOR_FAKE_ALLOC_RATE", rate},
                 {"GPUDOCTOR_FAKE_ALLOC_LARGEST", largest},
                 {"GPUDOCTOR_FAKE_BACKEND", backend}};
  return RunTune(o, nullptr);
}

const TuneKnobRow* AllocatorRow(const TuneAdvice& a) {
  for (const auto& m : a.models)
    for (const auto& k : m.knobs)
      if (k.knob == "expandable_segments") return &k;
  return nullptr;
}

TEST_F(TuneChild, AllocatorRunGetsTheVariableAndAFasterFigureIsAdvised) {
  TuneRun run = RunAllocatorFake("1100", "100");  // +10% at the same batch
  ASSERT_EQ(run.status, "ok");
  ASSERT_TRUE(run.allocator);
  EXPECT_EQ(run.allocator->status, "ok") << (run.problems.empty() ? "" : run.problems[0].title);
  ASSERT_TRUE(run.allocator->output.hello);
  EXPECT_EQ(run.allocator->output.hello->alloc_conf,
            (std::vector<std::pair<std::string, std::string>>{
                {"PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"}}));
  ASSERT_EQ(run.allocator->output.measurements.size(), 1u);
  EXPECT_EQ(run.allocator->output.measurements[0].batch, 64u);  // the first run's large batch, again
  TuneAdvice a = BuildTuneAdvice(run.output, &*run.allocator);
  const TuneKnobRow* row = AllocatorRow(a);
  ASSERT_TRUE(row);
  EXPECT_TRUE(row->recommended) << row->why;
  EXPECT_NEAR(*row->change_percent, 10.0, 1e-9);
  EXPECT_NE(row->why.find("peak reserved/allocated 1.50 -> 1.05"), std::string::npos) << row->why;
  EXPECT_EQ(a.env, (std::vector<std::pair<std::string, std::string>>{
                       {"PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"}}));
  EXPECT_EQ(TuneEnvLines(a, Shell::kBash),
            (std::vector<std::string>{"export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"}));
}

TEST_F(TuneChild, AllocatorSlowerOrWithinTheNoiseIsNotAdvised) {
  for (const char* rate : {"900", "1010"}) {
    TuneRun run = RunAllocatorFake(rate, "100");
    ASSERT_TRUE(run.allocator);
    TuneAdvice a = BuildTuneAdvice(run.output, &*run.allocator);
    const TuneKnobRow* row = AllocatorRow(a);
    ASSERT_TRUE(row) << rate;
    EXPECT_FALSE(row->recommended) << rate << ": " << row->why;
    EXPECT_TRUE(a.env.empty()) << rate;
  }
}

TEST_F(TuneChild, AllocatorThatFitsALargerBatchIsAdvisedOnRocmUnderItsName) {
  TuneRun run = RunAllocatorFake("1000", "128", "rocm");  // same speed; 128 fits where 112 failed
  ASSERT_TRUE(run.allocator);
  EXPECT_EQ(run.allocator->variable, "PYTORCH_HIP_ALLOC_CONF");
  TuneAdvice a = BuildTuneAdvice(run.output, &*run.allocator);
  const TuneKnobRow* row = AllocatorRow(a);
  ASSERT_TRUE(row);
  EXPECT_TRUE(row->recommended) << row->why;
  EXPECT_NE(row->why.find("largest batch 100 -> 128"), std::string::npos) << row->why;
  ASSERT_EQ(a.env.size(), 1u);
  EXPECT_EQ(TuneEnvLines(a, Shell::kPowerShell),
            (std::vector<std::string>{"$env:PYTORCH_HIP_ALLOC_CONF = \"expandable_segments:True\""}));
  EXPECT_EQ(TuneEnvLines(a, Shell::kCmd),
            (std::vector<std::string>{"set PYTORCH_HIP_ALLOC_CONF=expandable_segments:True"}));
}

TEST_F(TuneChild, AllocatorLeftOutSaysSo) {
  TuneOptions o;
  o.interpreter = kPython;
  o.script = ReadText(SourcePath("tests/fixtures/tune/fake_allocator.py"));
  o.timeout = std::chrono::seconds(30);
  o.allocator = false;  // --quick
  TuneRun run = RunTune(o, nullptr);
  EXPECT_FALSE(run.allocator);
  ASSERT_FALSE(run.output.skips.empty());
  EXPECT_EQ(run.output.skips.back().item, "allocator");
  EXPECT_NE(run.output.skips.back().reason.find("--quick"), std::string::npos);
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

// The child times the large batch with the settings it picks from its knob runs (chosen_settings); they
// must be the settings the knob table recommends, or the figure quoted would be of other settings.
TEST_F(TuneChild, ChildPicksTheSettingsTheKnobTableRecommends) {
  using Run = std::tuple<std::string, bool, bool, double>;
  const std::vector<std::vector<Run>> tables = {
      // Shaped like the H200's: bf16 1.6% above fp16, channels_last and cudnn.benchmark beyond the floor.
      {{"fp32", false, false, 1900},
       {"fp32", true, false, 2000},
       {"fp32", false, true, 1950},
       {"fp32", true, true, 2050},
       {"fp16", false, false, 3000},
       {"fp16", true, false, 3900},
       {"fp16", false, true, 3100},
       {"fp16", true, true, 4100},
       {"bf16", false, false, 3050},
       {"bf16", true, false, 3950},
       {"bf16", false, true, 3150},
       {"bf16", true, true, 4150}},
      // fp16 4% above bf16: fp16; channels_last within the noise, benchmark helps at NCHW.
      {{"fp32", false, false, 100},
       {"fp16", false, false, 208},
       {"bf16", false, false, 200},
       {"fp16", true, false, 210},
       {"fp16", false, true, 230},
       {"fp16", true, true, 235}},
      // fp16 2% above bf16: bf16, which needs no GradScaler.
      {{"fp32", false, false, 100}, {"fp16", false, false, 204}, {"bf16", false, false, 200}},
      // fp16 and bf16 equal.
      {{"fp32", false, false, 100}, {"fp16", false, false, 150}, {"bf16", false, false, 150}},
      // AMP slower (a GPU without fast half precision): fp32, with channels_last.
      {{"fp32", false, false, 100},
       {"fp32", true, false, 110},
       {"fp16", false, false, 90},
       {"bf16", false, false, 97},
       {"fp32", true, true, 112}},
      // Exactly on the floor, and just under it.
      {{"fp32", false, false, 100}, {"fp16", false, false, 103}, {"bf16", false, false, 102.9}},
      {{"fp32", false, false, 100}, {"fp16", false, false, 102.99}, {"fp32", true, false, 103}},
      // No fp32 figure (it failed): nothing to judge a precision against.
      {{"fp16", false, false, 300}, {"fp32", true, false, 150}},
      // Only fp16 measured beside fp32.
      {{"fp32", false, false, 100}, {"fp16", false, false, 180}, {"fp16", true, false, 170}},
  };
  nlohmann::json input = nlohmann::json::array();
  for (const auto& table : tables) {
    nlohmann::json t = nlohmann::json::array();
    for (const auto& [p, cl, bench, rate] : table) t.push_back({p, cl, bench, rate});
    input.push_back(t);
  }
  ProcessRequest req;
  req.argv = {kPython, SourcePath("tests/fixtures/tune/choice_driver.py"),
              SourcePath("data/tune/tune_child.py")};
  req.stdin_text = input.dump();
  req.timeout = std::chrono::seconds(60);
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->exit_code, 0) << r->stderr_text;
  std::istringstream lines(r->stdout_text);
  size_t i = 0;
  for (std::string line; std::getline(lines, line); ++i) {
    ASSERT_LT(i, tables.size());
    TuneChildOutput out;
    for (const auto& [p, cl, bench, rate] : tables[i]) {
      TuneMeasurement m;
      m.role = "knob";
      m.model = "resnet50";
      m.unit = "images/s";
      m.precision = p;
      m.channels_last = cl;
      m.benchmark = bench;
      m.batch = 256;
      m.units_per_s = rate;
      out.measurements.push_back(m);
    }
    TuneAdvice advice = BuildTuneAdvice(out);
    ASSERT_EQ(advice.models.size(), 1u);
    const TuneModelAdvice& a = advice.models[0];
    EXPECT_EQ(nlohmann::json::parse(line), nlohmann::json({a.precision, a.channels_last, a.benchmark}))
        << "table " << i;
  }
  EXPECT_EQ(i, tables.size());
}

// Debian 12's python3-torch (CPU only) running the real child at tiny sizes: the generic run, the search
// (a planted limit it must find exactly), the knob runs at the batch derived from it (a planted
// out-of-memory error there halves it for all of them, said in a skip line), and the large batch.
TEST_F(TuneChild, RealChildOnCpuTorchRunsThePlan) {
  if (!std::filesystem::exists("/usr/lib/python3/dist-packages/torch/version.py"))
    GTEST_SKIP() << "Debian's python3-torch is not installed (apt-get install python3-torch)";
  TuneOptions o;
  o.interpreter = kPython;
  o.device = "cpu";
  o.size = "tiny";
  o.models = {"transformer"};
  o.exact_search = true;
  o.max_batch = 64;
  o.timeout = std::chrono::seconds(240);
  o.extra_env["GPUDOCTOR_TUNE_PLANT_OOM_ABOVE"] = "40";      // largest 40: recommended 16, knob batch 4
  o.extra_env["GPUDOCTOR_TUNE_PLANT_KNOB_OOM_ABOVE"] = "2";  // knob runs above 2 fail: halved to 2
  o.allocator = true;  // on the CPU the second child must say "not applicable", not invent a figure
  std::vector<TuneProgress> progress;
  TuneRun run = RunTune(o, [&](const TuneProgress& p) { progress.push_back(p); });
  ASSERT_EQ(run.status, "ok") << (run.problems.empty() ? "" : run.problems[0].title);
  EXPECT_TRUE(run.problems.empty()) << run.problems[0].title;
  ASSERT_TRUE(run.output.hello);
  EXPECT_EQ(run.output.hello->backend, "cpu");
  ASSERT_EQ(run.output.skips.size(), 3u);  // fp16 and bf16 are GPU measurements; the knob batch halved
  EXPECT_EQ(run.output.skips[2].item, "transformer/fp32/nchw/default/4");
  EXPECT_NE(run.output.skips[2].reason.find("every knob run of transformer is timed at batch 2"),
            std::string::npos)
      << run.output.skips[2].reason;
  ASSERT_EQ(run.output.measurements.size(), 3u);
  const TuneMeasurement& generic = run.output.measurements[0];
  EXPECT_EQ(generic.role, "generic");
  EXPECT_EQ(generic.batch, 2u);
  EXPECT_EQ(generic.unit, "tokens/s");
  EXPECT_GT(generic.units_per_s, 0);
  EXPECT_NEAR(generic.units_per_s, generic.samples_per_s * 16, generic.units_per_s * 1e-9);  // 16 tokens
  EXPECT_TRUE(generic.loss_finite);
  EXPECT_EQ(run.output.measurements[1].role, "knob");
  EXPECT_EQ(run.output.measurements[1].batch, 2u);
  const TuneMeasurement& large = run.output.measurements[2];
  EXPECT_EQ(large.role, "large_batch");
  EXPECT_EQ(large.batch, 16u);
  EXPECT_EQ(large.precision, "fp32");
  ASSERT_EQ(run.output.searches.size(), 1u);
  EXPECT_EQ(run.output.searches[0].largest, 40u);
  EXPECT_EQ(run.output.searches[0].failed_at, 41u);
  EXPECT_FALSE(CheckBatchSearch(run.output.searches[0]));
  ASSERT_FALSE(progress.empty());  // streamed while the child ran
  EXPECT_EQ(progress.back().done, progress.back().total);
  TuneAdvice advice = BuildTuneAdvice(run.output);
  ASSERT_EQ(advice.models.size(), 1u);
  const TuneModelAdvice& a = advice.models[0];
  EXPECT_EQ(a.largest_batch, 40u);
  EXPECT_EQ(a.knob_batch, 2u);
  EXPECT_EQ(a.generic_batch, 2u);
  EXPECT_EQ(a.precision, "fp32");
  // Whichever run wins on this machine, the recommendation is that run's settings, batch and figure.
  const TuneMeasurement& quoted = a.batch == 16 ? large : run.output.measurements[1];
  EXPECT_EQ(a.batch, quoted.batch);
  EXPECT_EQ(a.recommended_rate, quoted.units_per_s);

  ASSERT_TRUE(run.allocator);
  EXPECT_EQ(run.allocator->status, "ok");
  EXPECT_TRUE(run.allocator->output.measurements.empty());
  ASSERT_EQ(run.allocator->output.skips.size(), 1u);
  EXPECT_NE(run.allocator->output.skips[0].reason.find("not applicable"), std::string::npos);
  advice = BuildTuneAdvice(run.output, &*run.allocator);
  const TuneKnobRow* row = AllocatorRow(advice);
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->with_rate);
  EXPECT_FALSE(row->recommended);
  EXPECT_TRUE(advice.env.empty());
}

// The real child's input pipeline on Debian's CPU torch: DataLoader with 0 and 2 worker processes over the
// synthetic JPEG dataset, at tiny sizes (about a second after torch is imported).
TEST_F(TuneChild, RealChildMeasuresTheDataLoaderOnCpuTorch) {
  if (!std::filesystem::exists("/usr/lib/python3/dist-packages/torchvision/version.py"))
    GTEST_SKIP() << "Debian's python3-torchvision is not installed";
  ProcessRequest req;
  req.argv = {kPython, "-", "--device", "cpu", "--size", "tiny", "--loader-only"};
  req.stdin_text = std::string(TuneChildScript());
  req.timeout = std::chrono::seconds(240);
  auto r = RunProcess(req);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->exit_code, 0) << r->stderr_text;
  TuneChildOutput out = ParseTuneOutput(r->stdout_text);
  EXPECT_TRUE(out.ended);
  EXPECT_TRUE(out.errors.empty()) << out.errors[0].message;
  ASSERT_GE(out.loader.size(), 1u) << r->stdout_text;
  EXPECT_EQ(out.loader[0].workers, 0u);
  for (const auto& l : out.loader) {
    EXPECT_FALSE(l.pin_memory);  // no pinned memory without a GPU
    EXPECT_GT(l.images_per_s, 0);
    EXPECT_GE(l.images, 3u * l.batch);
    EXPECT_EQ(l.decode, "jpeg");
    EXPECT_EQ(l.image_side, 32u);
  }
  if (out.loader.back().cpus >= 2) {
    EXPECT_EQ(out.loader.size(), 2u);
    EXPECT_EQ(out.loader[1].workers, 2u);  // worker processes started and delivered
  }
}

}  // namespace
}  // namespace gpudoctor
