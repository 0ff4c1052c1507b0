// `gpudoctor tune` with real children: fake ones fed to a plain python3 (a planted hang, crash and
// garbage), the child's own batch search against planted out-of-memory limits (no torch needed), and
// the real child on Debian 12's CPU PyTorch at tiny sizes (a planted limit the search must find
// exactly). Skipped where python3 (or python3-torch) is missing, as under wine.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <tuple>

#include "test_common.h"
#include "tune/tune_advice.h"
#include "tune/tune_child_script.h"
#include "tune/tune_json.h"
#include "tune/tune_report.h"
#include "tune/tune_result.h"
#include "tune/tune_runner.h"

namespace gpudoctor {
namespace {

using testing::ReadFileText;

const std::string kPython = "/usr/bin/python3";

std::string SourcePath(const std::string& rel) {
  return std::string(GPUDOCTOR_SOURCE_DIR) + "/" + rel;
}

class TuneChild : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::filesystem::path::preferred_separator == '\\' || !std::filesystem::exists(kPython))
      GTEST_SKIP() << "no Linux python3 here";
  }
  // Runs a driver of tests/fixtures/tune/ (it loads the child script given after it) with `args` and
  // `stdin_text`: its standard output, or nullopt after recording why it failed.
  static std::optional<std::string> RunDriver(const std::string& driver,
                                              const std::vector<std::string>& args = {},
                                              const std::string& stdin_text = "") {
    ProcessRequest req;
    req.argv = {kPython, SourcePath("tests/fixtures/tune/" + driver), SourcePath("data/tune/tune_child.py")};
    req.argv.insert(req.argv.end(), args.begin(), args.end());
    req.stdin_text = stdin_text;
    req.timeout = std::chrono::seconds(60);
    auto r = RunProcess(req);
    if (!r.ok()) {
      ADD_FAILURE() << driver << " did not run: " << r.error().message;
      return std::nullopt;
    }
    if (r->exit_code != 0) {
      ADD_FAILURE() << driver << " exited with "
                    << (r->exit_code ? std::to_string(*r->exit_code) : std::string("no exit code")) << ": "
                    << r->stderr_text;
      return std::nullopt;
    }
    return r->stdout_text;
  }
  static TuneOptions Fake(const std::string& fixture, std::chrono::milliseconds timeout) {
    TuneOptions o;
    o.interpreter = kPython;
    o.script = ReadFileText(SourcePath("tests/fixtures/tune/" + fixture));
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
  EXPECT_NE(
      run.problems[0].title.find(
          "was killed by signal 11 (segmentation fault) while running transformer/bf16/nchw/default/128"),
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
  o.script = ReadFileText(SourcePath("tests/fixtures/tune/fake_allocator.py"));
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
  o.script = ReadFileText(SourcePath("tests/fixtures/tune/fake_allocator.py"));
  o.timeout = std::chrono::seconds(30);
  o.allocator = false;  // --quick
  TuneRun run = RunTune(o, nullptr);
  EXPECT_FALSE(run.allocator);
  auto reason = [&](const std::string& item) -> std::string {
    for (const auto& s : run.output.skips)
      if (s.item == item) return s.reason;
    return "(no skip line for " + item + ")";
  };
  EXPECT_NE(reason("allocator").find("--quick"), std::string::npos) << reason("allocator");
  // The library knobs of its backend (CUDA) were not run either, each said on the model it is timed on.
  EXPECT_TRUE(run.library.empty());
  EXPECT_NE(reason("transformer/knob/tunableop").find("--quick"), std::string::npos);
  EXPECT_NE(reason("transformer/knob/cublaslt-workspace").find("--quick"), std::string::npos);
  EXPECT_EQ(reason("transformer/knob/hipblaslt"), "(no skip line for transformer/knob/hipblaslt)");
}

// The fake child (a CUDA backend) with the library knobs on.
TuneOptions LibraryKnobsOnTheFake() {
  TuneOptions o;
  o.interpreter = kPython;
  o.script = ReadFileText(SourcePath("tests/fixtures/tune/fake_allocator.py"));
  o.timeout = std::chrono::seconds(30);
  o.library_knobs = true;
  return o;
}

// A run that has used its time budget starts no library knob's child: each is said, with the time it had
// taken.
TEST_F(TuneChild, LibraryKnobsPastTheBudgetAreLeftOutAndSaid) {
  TuneOptions o = LibraryKnobsOnTheFake();
  o.budget = std::chrono::milliseconds(1);  // the first child alone takes longer
  TuneRun run = RunTune(o, nullptr);
  ASSERT_EQ(run.status, "ok");
  EXPECT_TRUE(run.library.empty());
  size_t said = 0;
  for (const auto& s : run.output.skips)
    if (s.item == "transformer/knob/tunableop" || s.item == "transformer/knob/cublaslt-workspace") {
      ++said;
      EXPECT_NE(s.reason.find("left out to keep tune within its time: the run had taken "), std::string::npos)
          << s.reason;
      EXPECT_NE(s.reason.find("this knob's run takes about 15 s"), std::string::npos) << s.reason;
    }
  EXPECT_EQ(said, 2u);
}

// The library knobs: a child per knob of the backend, each with its variables set and no other's, timing
// the first run's fastest eager knob run again; a knob faster beyond the noise is advised with its variables,
// one within the noise is not, and both survive tune's JSON.
TEST_F(TuneChild, LibraryKnobRunsGetTheirVariableAndAFasterOneIsAdvised) {
  TuneOptions o = LibraryKnobsOnTheFake();
  o.tunableop_file = "/private/tunableop_results.csv";
  o.extra_env = {{"GPUDOCTOR_FAKE_TUNABLEOP_RATE", "880"}, {"GPUDOCTOR_FAKE_WORKSPACE_RATE", "808"}};
  TuneRun run = RunTune(o, nullptr);
  ASSERT_EQ(run.status, "ok");
  for (const auto& p : run.problems)  // the fake's own first run has a planted search warning; none of these
    EXPECT_EQ(p.title.find(" run ("), std::string::npos) << p.title;
  ASSERT_EQ(run.library.size(), 2u);
  EXPECT_EQ(run.library[0].knob.name, "tunableop");
  EXPECT_EQ(run.library[1].knob.name, "cublaslt-workspace");
  for (const auto& lib : run.library) {
    EXPECT_EQ(lib.status, "ok");
    ASSERT_EQ(lib.output.measurements.size(), 1u);
    // The fastest eager knob run again (bf16 at the knob batch, 800 tokens/s), not the large batch.
    EXPECT_EQ(lib.output.measurements[0].batch, 8u);
    EXPECT_EQ(lib.output.measurements[0].precision, "bf16");
    ASSERT_TRUE(lib.output.hello);
    EXPECT_EQ(lib.output.hello->mode, "library");
  }
  TuneResult result;
  result.run = run;
  result.advice = AdviseRun(run);
  auto back = TuneResultFromJson(TuneResultToJson(result), "tune.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  for (const TuneAdvice* a : {&result.advice, &back->advice}) {
    const TuneKnobRow* tunableop = nullptr;
    const TuneKnobRow* workspace = nullptr;
    for (const auto& m : a->models)
      for (const auto& k : m.knobs) {
        if (k.knob == "TunableOp") tunableop = &k;
        if (k.knob == "cuBLASLt workspace") workspace = &k;
      }
    ASSERT_TRUE(tunableop && workspace);
    EXPECT_TRUE(tunableop->recommended) << tunableop->why;
    EXPECT_NEAR(*tunableop->change_percent, 10.0, 1e-6);
    EXPECT_EQ(
        tunableop->with,
        "PYTORCH_TUNABLEOP_ENABLED=1 PYTORCH_TUNABLEOP_FILENAME=/private/tunableop_results.csv (batch 8)");
    EXPECT_NE(tunableop->why.find("the GEMMs it tuned are in /private/tunableop_results.csv"),
              std::string::npos)
        << tunableop->why;
    EXPECT_FALSE(workspace->recommended) << workspace->why;  // +1%: within the noise
    EXPECT_EQ(a->env, (std::vector<std::pair<std::string, std::string>>{
                          {"PYTORCH_TUNABLEOP_ENABLED", "1"},
                          {"PYTORCH_TUNABLEOP_FILENAME", "/private/tunableop_results.csv"}}));
  }
}

// The child's largest_batch, driven by a planted limit for every limit up to each cap.
TEST_F(TuneChild, SearchFindsEveryPlantedLimitExactly) {
  const auto printed = RunDriver("search_driver.py", {"exact", "2", "7", "64", "100"});
  ASSERT_TRUE(printed);
  size_t checked = 0;
  std::istringstream lines(*printed);
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

// --quick's search: from the base batch (8 here), bisecting only until the recommended batch is decided. For
// every planted limit it must recommend what the exact search recommends, and its answer must hold (the
// largest batch fitted, the failed one did not).
TEST_F(TuneChild, QuickSearchRecommendsWhatTheExactSearchRecommends) {
  const auto printed = RunDriver("search_driver.py", {"quick", "7", "100", "2048"});
  ASSERT_TRUE(printed);
  size_t checked = 0;
  int fewer = 0;
  std::istringstream lines(*printed);
  for (std::string line; std::getline(lines, line);) {
    auto j = nlohmann::json::parse(line);
    const int limit = j["limit"], largest = j["largest"];
    EXPECT_EQ(j["recommended"], j["exact_recommended"]) << line;
    EXPECT_LE(largest, limit) << line;
    if (!j["failed"].is_null()) {
      EXPECT_GT(j["failed"].get<int>(), limit) << line;
    }
    EXPECT_LE(j["tries"].get<int>(), 20) << line;
    fewer += j["tries"].get<int>() < j["exact_tries"].get<int>();
    ++checked;
  }
  EXPECT_EQ(checked, 2u * (10 + 103 + 2051));
  EXPECT_GT(fewer, static_cast<int>(checked) / 2);  // the point of it: fewer batches tried
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
  const auto printed = RunDriver("choice_driver.py", {}, input.dump());
  ASSERT_TRUE(printed);
  std::istringstream lines(*printed);
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
    const auto got = nlohmann::json::parse(line);
    EXPECT_EQ(got["choice"], nlohmann::json({a.precision, a.channels_last, a.benchmark})) << "table " << i;
    // Timing only the runs the table judges (each precision, then channels_last and cudnn.benchmark at the
    // choice) chooses the same as the whole table, in at most 3 + 2 runs instead of 12.
    EXPECT_EQ(got["asked"], got["choice"]) << "table " << i;
    EXPECT_LE(got["runs"].get<int>(), 5) << "table " << i;
  }
  EXPECT_EQ(i, tables.size());
}

// The child times each other knob (TF32, fused, attention backend, torch.compile) on top of the ones it chose
// before it, and times the large batch with its choice (measure_extras, chosen_extras); the knob table must
// find each of those runs and choose the same, or the figure quoted would be of other settings.
TEST_F(TuneChild, ChildPicksTheOtherKnobsTheKnobTableRecommends) {
  const std::vector<std::string> tables = {
      // Every knob helps; efficient attention beats flash, default compile beats reduce-overhead.
      R"({"model": "transformer", "precision": "fp32", "rate": 100, "rates": {"tf32": 150, "fused": 160,
          "sdpa-flash": 170, "sdpa-efficient": 175, "sdpa-math": 90, "compile-default": 200,
          "compile-reduce-overhead": 190}, "skip": []})",
      // TF32 within the noise, fused slower, no attention backend here, only reduce-overhead helps.
      R"({"model": "transformer", "precision": "fp32", "rate": 100, "rates": {"tf32": 102, "fused": 95,
          "compile-default": 101, "compile-reduce-overhead": 110}, "skip": ["sdpa-flash", "sdpa-efficient",
          "sdpa-math"]})",
      // bf16 chosen: TF32 timed at fp32 for its row, not chosen; fused helps, flash within the noise of it,
      // compile cannot run.
      R"({"model": "transformer", "precision": "bf16", "rate": 100, "rates": {"tf32": 80, "fused": 104, "sdpa-flash": 104.5,
          "sdpa-efficient": 80, "sdpa-math": 60}, "skip": ["compile"]})",
      // ResNet-50 (no attention): TF32, no fused SGD in this torch, default compile slower than TF32 eager.
      R"({"model": "resnet50", "precision": "fp32", "rate": 100, "rates": {"tf32": 130, "compile-default": 125,
          "compile-reduce-overhead": 140}, "skip": ["fused"]})",
  };
  const std::vector<nlohmann::json> expected = {
      {true, true, "efficient", "default"},
      {false, false, "", "reduce-overhead"},
      {false, true, "", ""},
      {true, false, "", "reduce-overhead"},
  };
  for (size_t i = 0; i < tables.size(); ++i) {
    std::string table = tables[i];
    std::replace(table.begin(), table.end(), '\n', ' ');
    const auto printed = RunDriver("extras_driver.py", {}, table + "\n");
    ASSERT_TRUE(printed);
    nlohmann::json chosen;
    std::istringstream lines(*printed);
    for (std::string line; std::getline(lines, line);)
      if (line.find("\"type\": \"chosen\"") != std::string::npos) chosen = nlohmann::json::parse(line);
    ASSERT_TRUE(chosen.is_object()) << *printed;
    TuneChildOutput out = ParseTuneOutput(*printed);
    ASSERT_TRUE(out.ended);
    TuneAdvice advice = BuildTuneAdvice(out);
    ASSERT_EQ(advice.models.size(), 1u);
    const TuneModelAdvice& a = advice.models[0];
    EXPECT_EQ(a.tf32, chosen["tf32"].get<bool>()) << "table " << i;
    EXPECT_EQ(a.fused, chosen["fused"].get<bool>()) << "table " << i;
    EXPECT_EQ(a.sdpa, chosen["sdpa"].get<std::string>()) << "table " << i;
    EXPECT_EQ(a.compile, chosen["compile"].get<std::string>()) << "table " << i;
    // Every run the child timed is a row with its figure: the knob table found each against its baseline.
    const nlohmann::json t = nlohmann::json::parse(table);
    size_t measured = 0;
    for (const auto& k : a.knobs)
      if (k.with_rate && k.change_percent && k.knob.rfind("AMP ", 0) != 0) ++measured;
    EXPECT_EQ(measured, t["rates"].size()) << "table " << i;
    // The choices themselves, as planted.
    EXPECT_EQ(nlohmann::json({a.tf32, a.fused, a.sdpa, a.compile}), expected[i]) << "table " << i;
  }
}

// Each skip reason of the other knobs, on planted situations the CPU run cannot reach (tests/fixtures/tune/
// skip_driver.py: a fake torch and bench): TF32 on the CPU, ROCm, compute capability 7.0 (and none on 9.0);
// torch.compile on torch 1.13, the CPU, --quick, without triton; the attention backends on torch 1.13 and the
// CPU.
TEST_F(TuneChild, EveryOtherKnobSaysWhyItIsNotMeasured) {
  const auto printed = RunDriver("skip_driver.py");
  ASSERT_TRUE(printed);
  const nlohmann::json got = nlohmann::json::parse(*printed);
  auto reason = [&](const std::string& key) {
    return got.contains(key) && got[key].is_string() ? got[key].get<std::string>() : std::string("(none)");
  };
  EXPECT_NE(reason("tf32 cpu").find("not on the CPU"), std::string::npos);
  EXPECT_NE(reason("tf32 rocm").find("ROCm"), std::string::npos);
  EXPECT_NE(reason("tf32 cc 7.0").find("compute capability 8.0 (Ampere) or later; this GPU is 7.0"),
            std::string::npos);
  EXPECT_TRUE(got["tf32 cc 9.0"].is_null());
  EXPECT_NE(reason("compile torch 1.13").find("has no torch.compile"), std::string::npos);
  EXPECT_NE(reason("compile cpu").find("not measured on the CPU"), std::string::npos);
  EXPECT_NE(reason("compile quick").find("--quick leaves torch.compile out"), std::string::npos);
  EXPECT_NE(reason("sdpa torch 1.13").find("has no scaled_dot_product_attention"), std::string::npos);
  EXPECT_NE(reason("sdpa cpu").find("GPU kernels"), std::string::npos);
  // A fused SGD run that trained to NaN: under fp16 the row names GradScaler's overflow steps.
  EXPECT_NE(reason("fused nan fp16").find("does not skip the steps the scaler finds overflowing"),
            std::string::npos)
      << reason("fused nan fp16");
  EXPECT_NE(reason("fused nan bf16").find("loss was not finite"), std::string::npos);
  EXPECT_EQ(reason("fused nan bf16").find("GradScaler"), std::string::npos);
  const std::string triton = reason("compile no triton");
  EXPECT_TRUE(triton.find("triton is not importable") != std::string::npos ||
              triton == "triton is importable here")
      << triton;
}

// Each reason activation checkpointing is not timed, and the batch it is timed at, on planted situations the
// CPU run cannot reach (tests/fixtures/tune/checkpoint_driver.py: a fake torch and bench).
TEST_F(TuneChild, CheckpointingSaysWhyItIsNotMeasuredAndFindsItsBatch) {
  const auto printed = RunDriver("checkpoint_driver.py");
  ASSERT_TRUE(printed);
  const nlohmann::json got = nlohmann::json::parse(*printed);
  auto reason = [&](const std::string& situation) {
    return got.at(situation).is_null() ? std::string("(measured)") : got.at(situation).get<std::string>();
  };
  EXPECT_EQ(reason("quick").rfind("--quick leaves it out", 0), 0u) << reason("quick");
  EXPECT_EQ(reason("no extra knobs"), "--no-extra-knobs leaves it out");
  EXPECT_EQ(
      reason("user model").rfind("your model is not an nn.Sequential: tune cannot know where to cut", 0), 0u)
      << reason("user model");
  EXPECT_EQ(reason("user sequential"), "(measured)");
  EXPECT_NE(reason("torch 1.10").find("torch 1.10.2's torch.utils.checkpoint has no use_reentrant=False"),
            std::string::npos)
      << reason("torch 1.10");
  EXPECT_EQ(reason("cpu").rfind("not measured on the CPU", 0), 0u) << reason("cpu");
  EXPECT_EQ(reason("cpu planted"), "(measured)");
  EXPECT_EQ(reason("no search").rfind("no batch search", 0), 0u) << reason("no search");
  EXPECT_EQ(reason("cap reached"),
            "the largest batch is not memory-bound: the search reached the cap (batch 4096)");
  EXPECT_EQ(reason("no large batch").rfind("no large batch was timed", 0), 0u) << reason("no large batch");
  EXPECT_EQ(reason("not faster"),
            "the large batch was not faster than the knob batch, so a larger batch would not help");
  // The CPU stand-in with a planted limit is not held to the speed-up (its tiny runs' speeds are noise).
  EXPECT_EQ(reason("cpu planted, not faster"), "(measured)");
  EXPECT_EQ(reason("memory-bound and faster"), "(measured)");
  // Large batch 1024: with checkpointing 4096 fits (the cap): timed at 2048, a quarter's headroom.
  EXPECT_EQ(got.at("batch fits 5000"), nlohmann::json::parse(R"([2048, ""])"));
  EXPECT_EQ(got.at("batch fits 2500")[0], 0);
  EXPECT_NE(got.at("batch fits 2500")[1].get<std::string>().find(
                "tried 2048 fitted, 4096 did not, 3072 did not, 2560 did not; the large batch is 1024"),
            std::string::npos)
      << got.at("batch fits 2500");
  EXPECT_NE(got.at("batch fits nothing larger")[1].get<std::string>().find("tried 2048 did not;"),
            std::string::npos);
  EXPECT_EQ(got.at("batch cap")[1],
            "the search's cap (batch 1900) leaves no room for twice the large batch (1024)");
  // Timed against the large-batch run the recommendation follows: bf16 unless fp16 is measurably (3%) faster,
  // as LargeBatchRun decides; the knob table's precision when the other was not timed there.
  EXPECT_EQ(got.at("large precision"), nlohmann::json::parse(R"(["bf16", "fp16", "fp16", "bf16", "fp16"])"));
}

// Debian 12's python3-torch (CPU only) running the real child at tiny sizes: the generic run, the search
// (a planted limit it must find exactly), the knob runs at the batch derived from it (a planted
// out-of-memory error there halves it for all of them, said in a skip line), the large batch, and activation
// checkpointing at a larger batch that fits only with it (a planted limit of its own).
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
  o.extra_env["GPUDOCTOR_TUNE_PLANT_CKPT_OOM_ABOVE"] =
      "100";           // with checkpointing 64 (the cap) fits: batch 32
  o.allocator = true;  // on the CPU the second child must say "not applicable", not invent a figure
  o.compile_modes = "default,reduce-overhead";  // both named: each gets its own skip line
  std::vector<TuneProgress> progress;
  TuneRun run = RunTune(o, [&](const TuneProgress& p) { progress.push_back(p); });
  ASSERT_EQ(run.status, "ok") << (run.problems.empty() ? "" : run.problems[0].title);
  EXPECT_TRUE(run.problems.empty()) << run.problems[0].title;
  ASSERT_TRUE(run.output.hello);
  EXPECT_EQ(run.output.hello->backend, "cpu");
  // fp16 and bf16 are GPU measurements; the knob batch halved; then the other knobs, each with its reason.
  auto skip = [&](const std::string& item) -> std::string {
    for (const auto& s : run.output.skips)
      if (s.item == item) return s.reason;
    return "(no skip line for " + item + ")";
  };
  EXPECT_EQ(run.output.skips.size(), 14u);
  EXPECT_EQ(run.output.skips[2].item, "transformer/fp32/nchw/default/4");
  EXPECT_NE(skip("transformer/fp32/nchw/default/4").find("every knob run of transformer is timed at batch 2"),
            std::string::npos);
  EXPECT_EQ(skip("transformer/knob/tunableop"), "GPU only (this backend is cpu)");
  EXPECT_EQ(skip("transformer/knob/cublaslt-workspace"), "CUDA only (this backend is cpu)");
  EXPECT_EQ(skip("transformer/knob/hipblaslt"), "ROCm only (this backend is cpu)");
  EXPECT_EQ(skip("transformer/knob/miopen-find-mode"), "ROCm only (this backend is cpu)");
  EXPECT_NE(skip("transformer/knob/tf32").find("not on the CPU"), std::string::npos);
  EXPECT_EQ(skip("transformer/knob/checkpointing"), "(no skip line for transformer/knob/checkpointing)");
  // Debian's torch 1.13: SGD has no fused argument, no scaled_dot_product_attention, no torch.compile.
  EXPECT_NE(skip("transformer/knob/fused").find("does not take fused=True here (TypeError"),
            std::string::npos)
      << skip("transformer/knob/fused");
  for (const std::string backend : {"flash", "efficient", "math"})
    EXPECT_NE(skip("transformer/knob/sdpa-" + backend).find("has no scaled_dot_product_attention (torch 2.0"),
              std::string::npos);
  for (const std::string mode : {"default", "reduce-overhead"})
    EXPECT_NE(skip("transformer/knob/compile-" + mode).find("has no torch.compile (torch 2.0"),
              std::string::npos)
        << skip("transformer/knob/compile-" + mode);
  ASSERT_EQ(run.output.measurements.size(), 4u);
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
  EXPECT_FALSE(large.checkpointing);
  const TuneMeasurement& checkpointed = run.output.measurements[3];
  EXPECT_EQ(checkpointed.role, "checkpointing");
  EXPECT_TRUE(checkpointed.checkpointing);
  EXPECT_EQ(checkpointed.batch, 32u);  // 32 and 64 fitted with it: the same headroom as the large batch
  EXPECT_EQ(checkpointed.precision, "fp32");
  EXPECT_GT(checkpointed.units_per_s, 0);
  EXPECT_TRUE(checkpointed.loss_finite);
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
  // (The checkpointed run at 32 wins where it is measurably faster, as it can be on a loaded CPU.)
  const TuneMeasurement& quoted = a.batch == 32   ? checkpointed
                                  : a.batch == 16 ? large
                                                  : run.output.measurements[1];
  EXPECT_EQ(a.checkpointing, a.batch == 32);
  EXPECT_EQ(a.batch, quoted.batch);
  EXPECT_EQ(a.recommended_rate, quoted.units_per_s);
  // Each knob the child could not measure is a row with its reason, and none is recommended.
  const TuneKnobRow* compiled = nullptr;
  for (const auto& k : a.knobs)
    if (k.knob == "torch.compile") compiled = &k;
  ASSERT_TRUE(compiled);
  EXPECT_FALSE(compiled->recommended);
  EXPECT_NE(compiled->why.find("not measured: torch 1.13"), std::string::npos) << compiled->why;
  EXPECT_TRUE(a.compile.empty());
  EXPECT_FALSE(a.fused);
  // The checkpointing row: its run at batch 32 against the large batch without it, with the change.
  const TuneKnobRow* ckpt = nullptr;
  for (const auto& k : a.knobs)
    if (k.knob == "activation checkpointing") ckpt = &k;
  ASSERT_TRUE(ckpt);
  EXPECT_EQ(ckpt->with, "torch.utils.checkpoint, batch 32");
  EXPECT_EQ(ckpt->without, "off, batch 16");
  EXPECT_EQ(ckpt->with_rate, checkpointed.units_per_s);
  EXPECT_EQ(ckpt->without_rate, large.units_per_s);
  EXPECT_TRUE(ckpt->change_percent);
  EXPECT_NE(
      ckpt->why.find("with it batch 32 fits with the large batch's headroom (the largest without it: 40)"),
      std::string::npos)
      << ckpt->why;

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

// The user's own model (--model-file tests/fixtures/tune/user_model.py:build) on Debian's CPU torch: the
// generic, search, knob (channels_last and cudnn.benchmark too: its inputs are 4-D) and large-batch runs, as
// model "user" in samples/s; its function returning a dict works too.
TEST_F(TuneChild, RealChildMeasuresTheUsersModel) {
  if (!std::filesystem::exists("/usr/lib/python3/dist-packages/torch/version.py"))
    GTEST_SKIP() << "Debian's python3-torch is not installed (apt-get install python3-torch)";
  for (const std::string function : {"build", "build_dict"}) {
    TuneOptions o;
    o.interpreter = kPython;
    o.device = "cpu";
    o.size = "tiny";
    o.models = {"user"};
    o.user_model = SourcePath("tests/fixtures/tune/user_model.py") + ":" + function;
    o.max_batch = 16;
    o.timeout = std::chrono::seconds(120);
    TuneRun run = RunTune(o, nullptr);
    ASSERT_EQ(run.status, "ok") << (run.problems.empty() ? "" : run.problems[0].title);
    EXPECT_TRUE(run.problems.empty()) << run.problems[0].title;
    // generic, the knob runs the table judges (fp32 on the CPU: NCHW, channels_last, then cudnn.benchmark at
    // the layout chosen), large batch
    ASSERT_EQ(run.output.measurements.size(), 5u) << function;
    for (size_t i = 1; i <= 3; ++i) EXPECT_EQ(run.output.measurements[i].role, "knob") << function;
    EXPECT_FALSE(run.output.measurements[1].channels_last || run.output.measurements[1].benchmark);
    EXPECT_TRUE(run.output.measurements[2].channels_last && !run.output.measurements[2].benchmark);
    EXPECT_TRUE(run.output.measurements[3].benchmark);
    EXPECT_EQ(run.output.measurements[0].role, "generic");
    EXPECT_EQ(run.output.measurements[0].model, "user");
    EXPECT_EQ(run.output.measurements[0].unit, "samples/s");
    EXPECT_EQ(run.output.measurements.back().role, "large_batch");
    ASSERT_EQ(run.output.searches.size(), 1u);
    EXPECT_EQ(run.output.searches[0].largest, 16u);  // the cap
    TuneAdvice advice = BuildTuneAdvice(run.output);
    ASSERT_EQ(advice.models.size(), 1u);
    bool channels_last_row = false;
    std::string checkpointing;
    for (const auto& k : advice.models[0].knobs) {
      channels_last_row = channels_last_row || k.knob == "channels_last";
      if (k.knob == "activation checkpointing") checkpointing = k.why;
    }
    EXPECT_TRUE(channels_last_row);
    // Not an nn.Sequential: tune cannot know where to cut it.
    EXPECT_EQ(checkpointing.rfind("not measured: your model is not an nn.Sequential", 0), 0u)
        << checkpointing;
  }
}

// The user's code raising is a finding with its traceback, never a crash: in its function (the error names
// the file and the exception), and in its forward pass (each run that failed).
TEST_F(TuneChild, UsersModelThatRaisesIsAProblemWithItsTraceback) {
  if (!std::filesystem::exists("/usr/lib/python3/dist-packages/torch/version.py"))
    GTEST_SKIP() << "Debian's python3-torch is not installed (apt-get install python3-torch)";
  TuneOptions o;
  o.interpreter = kPython;
  o.device = "cpu";
  o.size = "tiny";
  o.models = {"user"};
  o.user_model = SourcePath("tests/fixtures/tune/user_model_raises.py") + ":build";
  o.timeout = std::chrono::seconds(120);
  TuneRun run = RunTune(o, nullptr);
  EXPECT_EQ(run.status, "ok");
  EXPECT_TRUE(run.output.measurements.empty());
  ASSERT_EQ(run.problems.size(), 1u);
  const TuneProblem& p = run.problems[0];
  EXPECT_EQ(p.id, "tune.user_model_failed");
  EXPECT_EQ(p.severity, Severity::kError);
  EXPECT_NE(p.title.find("loading your model failed"), std::string::npos) << p.title;
  EXPECT_NE(p.title.find("ValueError: planted: the user's build function failed"), std::string::npos)
      << p.title;
  bool frame = false;
  for (const auto& e : p.evidence)
    frame = frame || e.find("user_model_raises.py\", line 6, in helper") != std::string::npos;
  EXPECT_TRUE(frame) << "the traceback's frame in the user's file is evidence";
  EXPECT_EQ(TuneExitCode(run), 2);

  o.user_model = SourcePath("tests/fixtures/tune/user_model.py") + ":build_broken_forward";
  o.max_batch = 4;
  run = RunTune(o, nullptr);
  EXPECT_EQ(run.status, "ok");
  ASSERT_FALSE(run.problems.empty());
  EXPECT_EQ(run.problems[0].id, "tune.user_model_failed");
  EXPECT_NE(run.problems[0].title.find("your model failed in user/fp32/nchw/default/2"), std::string::npos)
      << run.problems[0].title;
  EXPECT_NE(run.problems[0].title.find("planted: the user's forward pass failed"), std::string::npos);
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
