// `gpudoctor tune` without a child: the protocol reader, the judging of a finished child (hang, crash,
// garbage, no GPU, a search that contradicts itself), the knob table on planted figures, and the JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/html_report.h"
#include "tune/tune_advice.h"
#include "tune/tune_child_script.h"
#include "tune/tune_json.h"
#include "tune/tune_report.h"
#include "tune/tune_runner.h"

namespace gpudoctor {
namespace {

std::string Fixture(const std::string& name) {
  std::ifstream in(std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/tune/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ProcessResult Exited(int code, std::string out, std::string err = "") {
  ProcessResult r;
  r.exit_code = code;
  r.stdout_text = std::move(out);
  r.stderr_text = std::move(err);
  r.elapsed = std::chrono::milliseconds(4200);
  return r;
}

const TuneModelAdvice* Model(const TuneAdvice& a, const std::string& name) {
  for (const auto& m : a.models)
    if (m.model == name) return &m;
  return nullptr;
}

const TuneKnobRow* Knob(const TuneModelAdvice& m, const std::string& knob) {
  for (const auto& k : m.knobs)
    if (k.knob == knob) return &k;
  return nullptr;
}

TEST(TuneProtocol, ReadsEveryKindOfLineAndIgnoresTheRest) {
  TuneChildOutput out = ParseTuneOutput(Fixture("planted_gpu.jsonl") + "banner\n{\"type\": 3}\n[1]\n");
  ASSERT_TRUE(out.hello);
  EXPECT_EQ(out.hello->device, "Planted GPU");
  EXPECT_EQ(out.hello->timed_steps, 20u);
  EXPECT_TRUE(out.hello->bf16);
  EXPECT_EQ(out.measurements.size(), 18u);
  ASSERT_EQ(out.searches.size(), 1u);
  EXPECT_EQ(out.searches[0].largest, 600u);
  EXPECT_EQ(out.searches[0].failed_at, 604u);
  EXPECT_EQ(out.searches[0].tried.size(), 17u);
  EXPECT_EQ(out.skips.size(), 1u);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].code, "oom");
  EXPECT_TRUE(out.ended);
  EXPECT_EQ(out.ignored_lines, 3u);
  EXPECT_FALSE(out.measurements[18 - 2].loss_finite);  // the transformer's fp16 run
  EXPECT_EQ(out.measurements[0].role, "generic");
  EXPECT_EQ(out.measurements[1].role, "knob");
  EXPECT_EQ(out.measurements[13].role, "large_batch");
  ASSERT_TRUE(out.last_progress);
  EXPECT_EQ(out.last_progress->done, out.last_progress->total);
}

TEST(TuneProtocol, WrongTypesAreLeftUnset) {
  TuneChildOutput out = ParseTuneOutput(
      "{\"type\": \"result\", \"model\": 5, \"batch\": -3, \"seconds\": \"fast\", \"units_per_s\": [1]}\n"
      "{\"type\": \"search\", \"largest\": 4294967296, \"tried\": [[1, true], [\"x\", false], [2], 7]}\n");
  ASSERT_EQ(out.measurements.size(), 1u);
  EXPECT_EQ(out.measurements[0].model, "");
  EXPECT_EQ(out.measurements[0].batch, 0u);
  EXPECT_EQ(out.measurements[0].seconds, 0);
  ASSERT_EQ(out.searches.size(), 1u);
  EXPECT_EQ(out.searches[0].largest, 0u);
  EXPECT_EQ(out.searches[0].tried, (std::vector<std::pair<uint32_t, bool>>{{1, true}}));
}

// The reader builds no JSON tree (tune_protocol.cpp), so what a tree would have answered is spelled out here.
TEST(TuneProtocol, ReadsLinesAsAJsonObjectWouldAnswer) {
  TuneChildOutput out = ParseTuneOutput(
      // A repeated field: the last value counts, also when it is of another type than the first.
      "{\"type\": \"search\", \"largest\": 8, \"largest\": 16, \"tried\": [[1, true]], \"tried\": 5}\n"
      "{\"type\": \"search\", \"tried\": [[[1], true], [2, true, 3], {\"a\": [4, true]}, [4, false]]}\n"
      // alloc_conf: string values only, a repeated name's last value, in name order, at most 8.
      "{\"type\": \"hello\", \"alloc_conf\": {\"Z\": \"z\", \"B\": \"b1\", \"A\": {\"x\": \"y\"}, \"B\": "
      "\"b2\", "
      "\"C\": 3, \"D\": \"d\", \"E\": \"e\", \"F\": \"f\", \"G\": \"g\", \"H\": \"h\", \"I\": \"i\", \"J\": "
      "\"j\"}}\n"
      "{\"type\": \"result\", \"batch\": 4.0, \"seconds\": 2, \"loss\": null, \"model\": \"m\"} trailing\n"
      "{\"type\": \"result\", \"batch\": 4.0, \"seconds\": 2, \"loss\": null, \"model\": \"m\"}\n"
      "{\"type\": \"result\", \"loss\": 1e999}\n");
  ASSERT_EQ(out.searches.size(), 2u);
  EXPECT_EQ(out.searches[0].largest, 16u);
  EXPECT_TRUE(out.searches[0].tried.empty());
  EXPECT_EQ(out.searches[1].tried, (std::vector<std::pair<uint32_t, bool>>{{4, false}}));
  ASSERT_TRUE(out.hello);
  EXPECT_EQ(
      out.hello->alloc_conf,
      (std::vector<std::pair<std::string, std::string>>{
          {"B", "b2"}, {"D", "d"}, {"E", "e"}, {"F", "f"}, {"G", "g"}, {"H", "h"}, {"I", "i"}, {"J", "j"}}));
  EXPECT_EQ(out.ignored_lines, 2u);  // the line with text after its object, and 1e999 (nlohmann: overflow)
  ASSERT_EQ(out.measurements.size(), 1u);
  EXPECT_EQ(out.measurements[0].batch, 0u);  // 4.0 is no count
  EXPECT_EQ(out.measurements[0].seconds, 2);
  EXPECT_FALSE(out.measurements[0].loss);  // null is no number
  EXPECT_EQ(out.measurements[0].model, "m");
}

TEST(TuneProtocol, SplitterHandsOnWholeLinesAcrossPieces) {
  TuneLineSplitter s;
  std::vector<std::string> lines;
  auto keep = [&](std::string_view l) { lines.emplace_back(l); };
  s.Feed("{\"type\": \"prog", keep);
  EXPECT_TRUE(lines.empty());
  s.Feed("ress\"}\nsecond\nthi", keep);
  s.Feed("rd\n", keep);
  EXPECT_EQ(lines, (std::vector<std::string>{"{\"type\": \"progress\"}", "second", "third"}));
}

TEST(TuneRunJudging, ACompleteRunIsOkWithItsMeasurementProblems) {
  TuneRun run =
      InterpretTuneRun("/v/bin/python", Exited(0, Fixture("planted_gpu.jsonl")), std::chrono::seconds(300));
  EXPECT_EQ(run.status, "ok");
  EXPECT_EQ(run.elapsed_ms, 4200u);
  std::vector<std::string> ids;
  for (const auto& p : run.problems) ids.push_back(p.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"tune.loss_not_finite", "tune.measurement_oom"}));
  EXPECT_EQ(TuneExitCode(run), 1);
}

TEST(TuneRunJudging, HangCrashGarbageFailureAndNotStarted) {
  ProcessResult hang =
      Exited(0, "{\"type\": \"hello\"}\n{\"type\": \"begin\", \"item\": \"resnet50/fp16\"}\n", "waiting\n");
  hang.timed_out = true;
  hang.exit_code.reset();
  TuneRun h = InterpretTuneRun("p", hang, std::chrono::seconds(120));
  EXPECT_EQ(h.status, "timeout");
  ASSERT_FALSE(h.problems.empty());
  EXPECT_EQ(h.problems[0].id, "tune.child_hang");
  EXPECT_NE(h.problems[0].title.find("120 s"), std::string::npos) << h.problems[0].title;
  EXPECT_NE(h.problems[0].title.find("resnet50/fp16"), std::string::npos);
  EXPECT_EQ(TuneExitCode(h), 2);

  ProcessResult crash = Exited(0, "{\"type\": \"begin\", \"item\": \"x\"}\n", "Segmentation fault\n");
  crash.exit_code.reset();
  crash.term_signal = 11;
  TuneRun c = InterpretTuneRun("p", crash, std::chrono::seconds(1));
  EXPECT_EQ(c.status, "crashed");
  EXPECT_NE(std::find(c.problems[0].evidence.begin(), c.problems[0].evidence.end(), "signal: 11"),
            c.problems[0].evidence.end());
  EXPECT_NE(
      std::find(c.problems[0].evidence.begin(), c.problems[0].evidence.end(), "stderr: Segmentation fault"),
      c.problems[0].evidence.end());

  TuneRun g = InterpretTuneRun("p", Exited(0, "hello there\n{broken\n"), std::chrono::seconds(1));
  EXPECT_EQ(g.status, "no-report");
  EXPECT_EQ(g.problems[0].id, "tune.child_no_report");

  TuneRun f = InterpretTuneRun("p", Exited(1, "", "Traceback\nImportError: x\n"), std::chrono::seconds(1));
  EXPECT_EQ(f.status, "failed");
  EXPECT_EQ(f.stderr_tail.back(), "ImportError: x");

  TuneRun n = InterpretTuneRun("p", Result<ProcessResult>(EnvError("cannot run p: no such file")),
                               std::chrono::seconds(1));
  EXPECT_EQ(n.status, "not-started");
  EXPECT_EQ(TuneExitCode(n), 2);
}

TEST(TuneRunJudging, NoGpuSaysWhyAndIsExitTwo) {
  TuneRun run =
      InterpretTuneRun("p",
                       Exited(0,
                              "{\"type\": \"error\", \"item\": \"setup\", \"code\": \"no_gpu\", \"message\": "
                              "\"torch.cuda.is_available() is False in this environment\"}\n"),
                       std::chrono::seconds(1));
  EXPECT_EQ(run.status, "no-gpu");
  ASSERT_EQ(run.problems.size(), 1u);
  EXPECT_NE(run.problems[0].title.find("is_available() is False"), std::string::npos);
  EXPECT_EQ(TuneExitCode(run), 2);
}

TEST(TuneRunJudging, SearchThatContradictsItself) {
  TuneBatchSearch s;
  s.largest = 8;
  s.failed_at = 16;
  s.tried = {{1, true}, {2, true}, {4, true}, {8, true}, {16, false}};
  EXPECT_FALSE(CheckBatchSearch(s));
  s.largest = 12;  // never tried
  EXPECT_TRUE(CheckBatchSearch(s));
  s.largest = 8;
  s.failed_at = 12;
  EXPECT_TRUE(CheckBatchSearch(s));
  s.failed_at = 4;
  s.tried = {{1, true}, {4, false}, {8, true}};  // a smaller batch failed, a larger one fitted
  EXPECT_NE(CheckBatchSearch(s).value_or("").find("not monotonic"), std::string::npos);
  s.tried.clear();
  EXPECT_TRUE(CheckBatchSearch(s));
}

TEST(TuneAdvice, KnobTableFromPlantedFigures) {
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(Fixture("planted_gpu.jsonl")));
  const TuneModelAdvice* r = Model(a, "resnet50");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->unit, "images/s");
  EXPECT_EQ(r->knob_batch, 64u);  // the knob runs' batch, not the generic run's 32
  ASSERT_TRUE(Knob(*r, "AMP fp16") && Knob(*r, "AMP bf16") && Knob(*r, "channels_last") &&
              Knob(*r, "cudnn.benchmark") && Knob(*r, "batch size"));
  EXPECT_DOUBLE_EQ(*Knob(*r, "AMP fp16")->without_rate, 400.0);  // fp32 at batch 64, not the generic 320
  EXPECT_NEAR(*Knob(*r, "AMP fp16")->change_percent, 150.0, 1e-9);
  EXPECT_TRUE(Knob(*r, "AMP fp16")->recommended);
  EXPECT_NE(Knob(*r, "AMP fp16")->why.find("at batch 64"), std::string::npos) << Knob(*r, "AMP fp16")->why;
  EXPECT_FALSE(Knob(*r, "AMP bf16")->recommended);  // +140%, but fp16 is 4% faster
  EXPECT_NE(Knob(*r, "AMP bf16")->why.find("fp16 is faster"), std::string::npos);
  EXPECT_NEAR(*Knob(*r, "channels_last")->change_percent, 20.0, 1e-9);  // 1000 -> 1200 at fp16
  EXPECT_FALSE(Knob(*r, "cudnn.benchmark")->recommended);               // 1200 -> 1210: within the noise
  EXPECT_EQ(Knob(*r, "cudnn.benchmark")->why.rfind("no measurable effect (+0.8% at batch 64", 0), 0u)
      << Knob(*r, "cudnn.benchmark")->why;
  EXPECT_TRUE(Knob(*r, "batch size")->recommended);  // 1200 -> 1312
  EXPECT_EQ(Knob(*r, "batch size")->without, "batch 64");
  EXPECT_EQ(Knob(*r, "batch size")->with, "batch 256");  // the same settings as the knob table chose
  EXPECT_EQ(r->precision, "fp16");
  EXPECT_TRUE(r->channels_last);
  EXPECT_FALSE(r->benchmark);
  EXPECT_EQ(r->batch, 256u);
  EXPECT_EQ(r->largest_batch, 600u);
  EXPECT_EQ(r->generic_batch, 32u);
  EXPECT_DOUBLE_EQ(*r->generic_rate, 320.0);
  EXPECT_DOUBLE_EQ(*r->recommended_rate, 1312.0);

  const TuneModelAdvice* t = Model(a, "transformer");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->unit, "tokens/s");
  EXPECT_EQ(t->knob_batch, 8u);                   // no search: the knobs at the base batch
  EXPECT_FALSE(Knob(*t, "AMP fp16")->with_rate);  // its loss was not finite: not a figure to advise on
  EXPECT_EQ(t->precision, "bf16");
  EXPECT_FALSE(Knob(*t, "channels_last"));
  EXPECT_FALSE(Knob(*t, "batch size"));

  // Lines per model: fp16 with a scaler for ResNet-50, bf16 for the transformer.
  auto has = [&](const std::string& needle) {
    for (const auto& l : a.python_lines)
      if (l.find(needle) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("memory_format=torch.channels_last"));
  EXPECT_TRUE(has("batch_size = 256"));
  EXPECT_TRUE(has("torch.bfloat16"));
  EXPECT_TRUE(has("torch.float16"));
  EXPECT_TRUE(has("# transformer:"));
  EXPECT_FALSE(has("cudnn.benchmark"));
}

// One `result` line of the protocol, for planted tables.
std::string ResultLine(const std::string& role, const std::string& precision, bool channels_last,
                       bool benchmark, int batch, double rate) {
  nlohmann::json j = {{"type", "result"},
                      {"role", role},
                      {"model", "resnet50"},
                      {"precision", precision},
                      {"channels_last", channels_last},
                      {"benchmark", benchmark},
                      {"batch", batch},
                      {"units_per_s", rate},
                      {"samples_per_s", rate},
                      {"unit", "images/s"},
                      {"seconds", 1},
                      {"loss_finite", true}};
  return j.dump() + "\n";
}

// The recommendation quotes a measured run: some measurement has exactly its settings, batch and figure.
void ExpectRecommendationIsAMeasuredRun(const TuneModelAdvice& m, const TuneChildOutput& out) {
  ASSERT_TRUE(m.recommended_rate);
  size_t matches = 0;
  for (const auto& r : out.measurements)
    matches += r.model == m.model && r.precision == m.precision && r.channels_last == m.channels_last &&
               r.benchmark == m.benchmark && r.batch == m.batch && r.units_per_s == *m.recommended_rate;
  EXPECT_EQ(matches, 1u) << m.precision << " cl=" << m.channels_last << " benchmark=" << m.benchmark
                         << " batch " << m.batch;
}

// Figures shaped like the H200's (torch 2.11): at batch 32 the GPU waited on Python and every knob looked
// slower; at the knob batch AMP, channels_last and cudnn.benchmark all help. The recommended block, its
// text and the Python lines must state exactly the settings of the large-batch run they quote.
TEST(TuneAdvice, RecommendationAndLinesMatchTheWinningRun) {
  std::string text =
      "{\"type\": \"hello\", \"backend\": \"cuda\"}\n" +
      ResultLine("generic", "fp32", false, false, 32, 1776) +
      ResultLine("knob", "fp32", false, false, 512, 1900) +
      ResultLine("knob", "fp32", false, true, 512, 1950) +
      ResultLine("knob", "fp32", true, false, 512, 2000) + ResultLine("knob", "fp32", true, true, 512, 2050) +
      ResultLine("knob", "fp16", false, false, 512, 3000) +
      ResultLine("knob", "fp16", false, true, 512, 3100) +
      ResultLine("knob", "fp16", true, false, 512, 3900) + ResultLine("knob", "fp16", true, true, 512, 4100) +
      ResultLine("knob", "bf16", false, false, 512, 3050) +
      ResultLine("knob", "bf16", false, true, 512, 3150) +
      ResultLine("knob", "bf16", true, false, 512, 3950) + ResultLine("knob", "bf16", true, true, 512, 4150) +
      ResultLine("large_batch", "bf16", true, true, 2048, 5024);
  TuneChildOutput out = ParseTuneOutput(text);
  TuneAdvice a = BuildTuneAdvice(out);
  ASSERT_EQ(a.models.size(), 1u);
  const TuneModelAdvice& m = a.models[0];
  EXPECT_EQ(m.knob_batch, 512u);
  EXPECT_TRUE(Knob(m, "AMP bf16")->recommended);
  EXPECT_FALSE(Knob(m, "AMP fp16")->recommended);  // 1.6% below bf16: no measurable difference
  EXPECT_NE(Knob(m, "AMP fp16")->why.find("no measurable difference from AMP bf16"), std::string::npos)
      << Knob(m, "AMP fp16")->why;
  EXPECT_TRUE(Knob(m, "channels_last")->recommended);    // 3050 -> 3950
  EXPECT_TRUE(Knob(m, "cudnn.benchmark")->recommended);  // 3950 -> 4150: +5.1%
  EXPECT_EQ(Knob(m, "batch size")->with, "batch 2048");
  EXPECT_EQ(m.precision, "bf16");
  EXPECT_TRUE(m.channels_last);
  EXPECT_TRUE(m.benchmark);
  EXPECT_EQ(m.batch, 2048u);
  EXPECT_DOUBLE_EQ(*m.recommended_rate, 5024.0);
  ExpectRecommendationIsAMeasuredRun(m, out);
  EXPECT_EQ(a.python_lines,
            (std::vector<std::string>{
                "# resnet50:", "torch.backends.cudnn.benchmark = True",
                "model = model.to(memory_format=torch.channels_last)",
                "images = images.to(memory_format=torch.channels_last)  # each input batch",
                "with torch.autocast(\"cuda\", dtype=torch.bfloat16):  # forward pass and loss",
                "batch_size = 2048  # largest that fitted: n/a"}));

  TuneRun run;
  run.output = out;
  const std::string written = TuneResultToJson(TuneResult{"", "0", false, run, a});
  auto j = nlohmann::json::parse(written);
  auto rec = j["models"][0]["recommended"];
  ASSERT_TRUE(rec["speedup_vs_generic"].is_number());  // against the generic run, which the test planted
  EXPECT_NEAR(rec["speedup_vs_generic"].get<double>(), 5024.0 / *m.generic_rate, 1e-9);
  rec.erase("speedup_vs_generic");
  EXPECT_EQ(rec, nlohmann::json({{"precision", "bf16"},
                                 {"channels_last", true},
                                 {"benchmark", true},
                                 {"batch", 2048},
                                 {"rate", 5024.0},
                                 {"tf32", false},
                                 {"fused_optimizer", false},
                                 {"sdpa", nullptr},
                                 {"compile", nullptr},
                                 {"compile_seconds", nullptr},
                                 {"checkpointing", false},
                                 {"peak_allocated_bytes", nullptr}}));
  EXPECT_EQ(j["models"][0]["knob_batch"], 512);
  auto back = TuneResultFromJson(written, "tune.json");  // the report reads the knob batch back
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->advice.models[0].knob_batch, 512u);
  EXPECT_EQ(back->advice.models[0].batch, 2048u);
  std::string rendered = RenderTuneText(run, a, TuneReportContext{});
  EXPECT_NE(rendered.find("knobs timed at batch 512 (the guides' batch 32 can leave"), std::string::npos)
      << rendered;
  EXPECT_NE(rendered.find("recommended: AMP bf16, channels_last, cudnn.benchmark, batch 2048: 5024 images/s"),
            std::string::npos)
      << rendered;
  EXPECT_NE(rendered.find("generic advice (fp32, batch 32): 1776 images/s (the recommendation is 2.83x)"),
            std::string::npos)
      << rendered;
}

// Within the noise floor a knob has "no measurable effect"; only a change beyond it is "slower".
TEST(TuneAdvice, WithinTheNoiseIsNoMeasurableEffectNotSlower) {
  std::string text = ResultLine("knob", "fp32", false, false, 256, 1000) +
                     ResultLine("knob", "fp32", true, false, 256, 975) +  // -2.5%
                     ResultLine("knob", "fp32", false, true, 256, 940);   // -6%
  TuneChildOutput out = ParseTuneOutput(text);
  TuneAdvice a = BuildTuneAdvice(out);
  ASSERT_EQ(a.models.size(), 1u);
  const TuneModelAdvice& m = a.models[0];
  EXPECT_EQ(Knob(m, "channels_last")->why.rfind("no measurable effect (-2.5% at batch 256", 0), 0u)
      << Knob(m, "channels_last")->why;
  EXPECT_EQ(Knob(m, "cudnn.benchmark")->why, "slower here (-6.0% images/s at batch 256)");
  EXPECT_FALSE(Knob(m, "channels_last")->recommended || Knob(m, "cudnn.benchmark")->recommended);
  EXPECT_EQ(m.batch, 256u);  // no large-batch run: the knob run with the chosen settings is the answer
  ExpectRecommendationIsAMeasuredRun(m, out);
}

// An out-of-memory error at the knob batch halves it for every knob run; runs made at the larger batch
// before it are not compared with runs at the smaller one.
TEST(TuneAdvice, KnobRowsAreTheRunsAtTheSmallestKnobBatch) {
  std::string text = ResultLine("generic", "fp32", false, false, 32, 500) +
                     ResultLine("knob", "fp16", false, false, 512, 9000) +  // before fp32 ran out of memory
                     ResultLine("knob", "fp32", false, false, 256, 1000) +
                     ResultLine("knob", "fp16", false, false, 256, 2000);
  TuneChildOutput out = ParseTuneOutput(text);
  TuneAdvice a = BuildTuneAdvice(out);
  ASSERT_EQ(a.models.size(), 1u);
  EXPECT_EQ(a.models[0].knob_batch, 256u);
  EXPECT_DOUBLE_EQ(*Knob(a.models[0], "AMP fp16")->with_rate, 2000.0);
  EXPECT_EQ(a.models[0].precision, "fp16");
  EXPECT_EQ(a.models[0].batch, 256u);
  ExpectRecommendationIsAMeasuredRun(a.models[0], out);
}

TEST(TuneAdvice, RocmNamesMiopenAndSlowerKnobsAreNotRecommended) {
  std::string text =
      "{\"type\": \"hello\", \"backend\": \"rocm\"}\n"
      "{\"type\": \"result\", \"role\": \"knob\", \"model\": \"resnet50\", \"precision\": \"fp32\", "
      "\"batch\": 32, "
      "\"units_per_s\": 100, \"unit\": \"images/s\", \"seconds\": 1, \"samples_per_s\": 100, "
      "\"loss_finite\": true}\n"
      "{\"type\": \"result\", \"role\": \"knob\", \"model\": \"resnet50\", \"precision\": \"fp32\", "
      "\"benchmark\": true, "
      "\"batch\": 32, \"units_per_s\": 90, \"unit\": \"images/s\", \"seconds\": 1, \"samples_per_s\": 90, "
      "\"loss_finite\": true}\n";
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(text));
  ASSERT_EQ(a.models.size(), 1u);
  const TuneKnobRow* b = Knob(a.models[0], "cudnn.benchmark (MIOpen find)");
  ASSERT_TRUE(b);
  EXPECT_FALSE(b->recommended);
  EXPECT_NE(b->why.find("slower"), std::string::npos);
  EXPECT_EQ(a.models[0].precision, "fp32");
  EXPECT_TRUE(a.python_lines.empty());
  // The knob is shown as the MIOpen find it controls, and the notes name MIOPEN_FIND_MODE and the sharing
  // knob.
  EXPECT_EQ(b->with, "on (exhaustive find)");
  EXPECT_NE(b->without.find("MIOPEN_FIND_MODE"), std::string::npos);
  ASSERT_EQ(a.notes.size(), 2u);
  EXPECT_NE(a.notes[0].find("set_per_process_memory_fraction"), std::string::npos);
  EXPECT_NE(a.notes[0].find("makes nothing faster"), std::string::npos);
  EXPECT_NE(a.notes[1].find("MIOPEN_FIND_MODE"), std::string::npos);
  EXPECT_NE(a.notes[1].find("Conv_miopen.cpp"), std::string::npos);
}

// A second large-batch run of the planted ResNet-50 (fp16, channels_last at batch 256: 1312 images/s), with
// bf16 and every other setting the same, as the child times it when both mixed precisions beat fp32.
std::string LargeBf16Line(double rate) {
  return R"({"type": "result", "item": "resnet50/bf16/cl/default/256", "role": "large_batch", "model": )"
         R"("resnet50", "precision": "bf16", "channels_last": true, "benchmark": false, "batch": 256, )"
         R"("warmup": 2, "steps": 10, "seconds": 2.0, "samples_per_s": )" +
         std::to_string(rate) + R"(, "units_per_s": )" + std::to_string(rate) +
         R"(, "unit": "images/s", "loss": 6.9, "loss_finite": true})" + "\n";
}

// The knob table chose fp16 at batch 64 (4% above bf16); at the large batch the same rule decides again:
// bf16 unless fp16 is measurably faster there. The row says which and why, and the recommendation follows.
TEST(TuneAdvice, LargeBatchKeepsTheFasterMixedPrecision) {
  auto advise = [](double bf16_rate) {
    return BuildTuneAdvice(ParseTuneOutput(Fixture("planted_gpu.jsonl") + LargeBf16Line(bf16_rate)));
  };
  TuneAdvice faster = advise(1360);  // bf16 +3.7% over fp16's 1312
  const TuneModelAdvice* r = Model(faster, "resnet50");
  ASSERT_TRUE(r);
  const TuneKnobRow* row = Knob(*r, "precision at the large batch");
  ASSERT_TRUE(row);
  EXPECT_TRUE(row->recommended);
  EXPECT_EQ(row->without, "AMP fp16 (the knob table's)");
  EXPECT_EQ(row->with, "AMP bf16");
  EXPECT_NE(row->why.find("at batch 256"), std::string::npos) << row->why;
  EXPECT_NE(row->why.find("the knob table chose AMP fp16 at batch 64"), std::string::npos) << row->why;
  EXPECT_EQ(r->precision, "bf16");
  EXPECT_EQ(r->batch, 256u);
  EXPECT_DOUBLE_EQ(*r->recommended_rate, 1360.0);
  EXPECT_NE(Knob(*r, "batch size")->with.find("bf16"), std::string::npos) << Knob(*r, "batch size")->with;
  EXPECT_LT(row - &r->knobs[0], Knob(*r, "batch size") - &r->knobs[0]);  // the precision row comes first

  TuneAdvice level = advise(1300);  // bf16 1% below fp16: within the noise, and bf16 needs no GradScaler
  r = Model(level, "resnet50");
  row = Knob(*r, "precision at the large batch");
  ASSERT_TRUE(row);
  EXPECT_TRUE(row->recommended);
  EXPECT_EQ(row->why.rfind("no measurable difference at batch 256; AMP bf16 needs no GradScaler", 0), 0u)
      << row->why;
  EXPECT_EQ(r->precision, "bf16");
  EXPECT_DOUBLE_EQ(*r->recommended_rate, 1300.0);

  TuneAdvice slower = advise(1250);  // fp16 5% faster: it stays
  r = Model(slower, "resnet50");
  row = Knob(*r, "precision at the large batch");
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->recommended);
  EXPECT_NE(row->why.find("slower here"), std::string::npos) << row->why;
  EXPECT_EQ(r->precision, "fp16");
  EXPECT_DOUBLE_EQ(*r->recommended_rate, 1312.0);

  // Without the second run there is no such row (the planted GPU alone).
  TuneAdvice plain = BuildTuneAdvice(ParseTuneOutput(Fixture("planted_gpu.jsonl")));
  EXPECT_FALSE(Knob(*Model(plain, "resnet50"), "precision at the large batch"));
}

std::string LoaderLine(int workers, bool pin, double rate) {
  return "{\"type\": \"loader\", \"workers\": " + std::to_string(workers) +
         ", \"pin_memory\": " + (pin ? "true" : "false") +
         ", \"batch\": 32, \"images\": 320, \"seconds\": 1, \"images_per_s\": " + std::to_string(rate) +
         ", \"decode\": \"jpeg\", \"image\": 224, \"cpus\": 16}\n";
}

// The planted GPU trains ResNet-50 at 1312 images/s at the recommended settings (its large batch): 4 workers
// are the fewest that keep up, and pin_memory (+10% at 8 workers) is recommended.
TEST(TuneAdvice, DataLoaderWorkersThatKeepTheGpuFed) {
  std::string text = Fixture("planted_gpu.jsonl") + LoaderLine(0, false, 300) + LoaderLine(2, false, 700) +
                     LoaderLine(4, false, 1400) + LoaderLine(8, false, 2000) + LoaderLine(8, true, 2200);
  TuneChildOutput out = ParseTuneOutput(text);
  ASSERT_EQ(out.loader.size(), 5u);
  EXPECT_EQ(out.loader[4].workers, 8u);
  EXPECT_TRUE(out.loader[4].pin_memory);
  TuneAdvice a = BuildTuneAdvice(out);
  const TuneModelAdvice* r = Model(a, "resnet50");
  ASSERT_TRUE(r);
  const TuneKnobRow* workers = Knob(*r, "DataLoader workers");
  ASSERT_TRUE(workers);
  EXPECT_EQ(workers->with, "4 workers");
  EXPECT_TRUE(workers->recommended);
  EXPECT_NE(workers->why.find("training consumes 1312"), std::string::npos) << workers->why;
  EXPECT_EQ(r->loader_workers, 4u);
  EXPECT_TRUE(r->loader_keeps_up);
  const TuneKnobRow* pin = Knob(*r, "pin_memory");
  ASSERT_TRUE(pin);
  EXPECT_NEAR(*pin->change_percent, 10.0, 1e-9);
  EXPECT_TRUE(r->pin_memory);
  EXPECT_FALSE(Knob(*Model(a, "transformer"), "DataLoader workers"));
  bool line = false;
  for (const auto& l : a.python_lines)
    line = line || l.find("num_workers=4, pin_memory=True, persistent_workers=True") != std::string::npos;
  EXPECT_TRUE(line);

  // No worker count keeps up: the fastest is given, said as the limit it is; a slower pin is not advised.
  TuneAdvice slow = BuildTuneAdvice(ParseTuneOutput(Fixture("planted_gpu.jsonl") + LoaderLine(0, false, 200) +
                                                    LoaderLine(2, false, 500) + LoaderLine(2, true, 450)));
  const TuneModelAdvice* s = Model(slow, "resnet50");
  const TuneKnobRow* w = Knob(*s, "DataLoader workers");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->with, "2 workers");
  EXPECT_FALSE(s->loader_keeps_up);
  EXPECT_NE(w->why.find("will bound training"), std::string::npos) << w->why;
  EXPECT_FALSE(s->pin_memory);
}

TEST(TuneAdvice, CudaHasTheSharingNoteButNoMiopenNote) {
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(Fixture("planted_gpu.jsonl")));
  ASSERT_EQ(a.notes.size(), 1u);
  EXPECT_NE(a.notes[0].find("set_per_process_memory_fraction"), std::string::npos);
  EXPECT_EQ(Knob(*Model(a, "resnet50"), "cudnn.benchmark")->with, "on");
}

// A large-batch run made with other settings than the knob table chose (the child picks them by the same
// rules, so this is a safety net): the recommendation takes the settings of the figure it quotes, and
// the row says which they are (found on the H200: "fp32 at batch 2048" was advised with the figure of bf16
// at batch 2048).
TEST(TuneAdvice, LargeBatchRecommendationKeepsTheSettingsItWasMeasuredWith) {
  std::string text = "{\"type\": \"hello\", \"backend\": \"cuda\"}\n" +
                     ResultLine("knob", "fp32", false, false, 32, 1700) +
                     ResultLine("knob", "bf16", false, false, 32, 1380) +
                     ResultLine("large_batch", "bf16", true, false, 2048, 2563);
  TuneChildOutput out = ParseTuneOutput(text);
  TuneAdvice a = BuildTuneAdvice(out);
  ASSERT_EQ(a.models.size(), 1u);
  EXPECT_EQ(a.models[0].precision, "bf16");
  EXPECT_TRUE(a.models[0].channels_last);
  EXPECT_FALSE(a.models[0].benchmark);
  EXPECT_EQ(a.models[0].batch, 2048u);
  ExpectRecommendationIsAMeasuredRun(a.models[0], out);
  const TuneKnobRow* batch = Knob(a.models[0], "batch size");
  ASSERT_TRUE(batch);
  EXPECT_TRUE(batch->recommended);
  EXPECT_EQ(batch->with, "batch 2048 with bf16 autocast, channels_last") << batch->with;
  bool autocast = false, channels_last = false;
  for (const std::string& l : a.python_lines) {
    autocast = autocast || l.find("torch.bfloat16") != std::string::npos;
    channels_last = channels_last || l.find("torch.channels_last") != std::string::npos;
  }
  EXPECT_TRUE(autocast);
  EXPECT_TRUE(channels_last);
}

// The allocator's second run repeats the large batch (the settings the knob table recommends, at the
// recommended batch) with its role, so the child times it with the same steps; without one, the fastest knob
// run at the knob batch, never a run at a batch an out-of-memory error made the knob runs give up.
// The other knobs on planted figures (tests/fixtures/tune/planted_extras.jsonl): each judged against the
// settings chosen before it, one of several (attention backends, compile modes) kept, the compile time and
// the steps it pays back after in the why, skips as rows with their reason, the recommendation and its lines.
TEST(TuneAdvice, OtherKnobsAreJudgedOnTopOfTheChosenSettings) {
  TuneChildOutput out = ParseTuneOutput(Fixture("planted_gpu.jsonl") + Fixture("planted_extras.jsonl"));
  TuneAdvice a = BuildTuneAdvice(out);
  const TuneModelAdvice* r = Model(a, "resnet50");
  ASSERT_TRUE(r);
  const TuneKnobRow* tf32 = Knob(*r, "TF32");
  ASSERT_TRUE(tf32);
  EXPECT_FALSE(tf32->recommended);  // +10% at fp32, but AMP fp16 was chosen
  EXPECT_EQ(tf32->without_rate, 400.0);
  EXPECT_EQ(tf32->with_rate, 440.0);
  EXPECT_NE(tf32->why.find("for fp32 training: AMP fp16 is the precision recommended here"),
            std::string::npos)
      << tf32->why;
  const TuneKnobRow* fused = Knob(*r, "fused optimizer");
  ASSERT_TRUE(fused);
  EXPECT_TRUE(fused->recommended);
  EXPECT_NEAR(*fused->change_percent, 5.0, 1e-6);
  EXPECT_EQ(fused->without_rate, 1200.0);  // fp16 + channels_last, the knob table's choice
  const TuneKnobRow* compiled = Knob(*r, "torch.compile");
  const TuneKnobRow* graphs = Knob(*r, "torch.compile reduce-overhead");
  ASSERT_TRUE(compiled && graphs);
  EXPECT_EQ(compiled->without_rate, 1260.0);  // on top of the fused optimizer it chose
  EXPECT_FALSE(compiled->recommended);        // faster than eager, but reduce-overhead is faster still
  EXPECT_NE(compiled->why.find("torch.compile reduce-overhead is faster"), std::string::npos)
      << compiled->why;
  EXPECT_NE(compiled->why.find("compiling took 40 s, paid back after 4922 steps"), std::string::npos)
      << compiled->why;
  EXPECT_TRUE(graphs->recommended);
  EXPECT_NE(graphs->why.find("compiling took 30 s, paid back after 3072 steps"), std::string::npos)
      << graphs->why;
  EXPECT_FALSE(Knob(*r, "attention: flash"));  // no attention in ResNet-50: no row
  const TuneKnobRow* tunableop = Knob(*r, "TunableOp");
  ASSERT_TRUE(tunableop);
  EXPECT_EQ(tunableop->why, "not measured: ROCm only (this backend is cuda)");
  ASSERT_TRUE(Knob(*r, "hipBLASLt"));
  ASSERT_TRUE(Knob(*r, "MIOPEN_FIND_MODE"));
  // The large batch was timed without the other knobs (planted_gpu.jsonl): slower than them, not taken.
  const TuneKnobRow* batch = Knob(*r, "batch size");
  ASSERT_TRUE(batch);
  EXPECT_FALSE(batch->recommended);
  EXPECT_EQ(r->precision, "fp16");
  EXPECT_TRUE(r->channels_last);
  EXPECT_TRUE(r->fused);
  EXPECT_EQ(r->compile, "reduce-overhead");
  EXPECT_EQ(r->batch, 64u);
  EXPECT_EQ(r->recommended_rate, 1560.0);
  EXPECT_EQ(r->compile_seconds, 30.0);
  EXPECT_EQ(TuneSettingsLabel(*r),
            "AMP fp16, channels_last, fused SGD, torch.compile reduce-overhead, batch 64");
  EXPECT_EQ(TuneCostLabel(*r), "compiling once: 30 s; peak memory: 8.0 GiB");

  const TuneModelAdvice* t = Model(a, "transformer");
  ASSERT_TRUE(t);
  ASSERT_TRUE(Knob(*t, "TF32"));
  EXPECT_EQ(Knob(*t, "TF32")->why,
            "not measured: the run failed or its loss was not finite (see the problems)");
  EXPECT_FALSE(Knob(*t, "fused optimizer")->recommended);  // -5%
  EXPECT_TRUE(Knob(*t, "attention: flash")->recommended);
  EXPECT_FALSE(Knob(*t, "attention: efficient")->recommended);  // within the noise
  EXPECT_FALSE(Knob(*t, "attention: math")->recommended);
  const TuneKnobRow* tc = Knob(*t, "torch.compile");
  ASSERT_TRUE(tc);
  EXPECT_EQ(tc->without_rate, 170000.0);  // on top of flash attention
  EXPECT_FALSE(tc->recommended);
  EXPECT_NE(tc->why.find("never paid back"), std::string::npos) << tc->why;
  const TuneKnobRow* tro = Knob(*t, "torch.compile reduce-overhead");
  ASSERT_TRUE(tro);
  EXPECT_EQ(tro->why, "not measured: planted: reduce-overhead failed to compile");
  EXPECT_EQ(t->sdpa, "flash");
  EXPECT_EQ(t->compile, "");
  EXPECT_EQ(t->recommended_rate, 170000.0);
  EXPECT_FALSE(t->compile_seconds);

  auto has = [&](const std::string& line) {
    return std::find(a.python_lines.begin(), a.python_lines.end(), line) != a.python_lines.end();
  };
  EXPECT_TRUE(
      has("model = torch.compile(model, mode=\"reduce-overhead\")  # compiles in about 30 s on the first "
          "steps"));
  EXPECT_TRUE(has("torch.compiler.cudagraph_mark_step_begin()  # at the start of each training step"));
  EXPECT_TRUE(has("with sdpa_kernel(SDPBackend.FLASH_ATTENTION):  # forward pass, loss and backward"));
  EXPECT_FALSE(
      std::any_of(a.python_lines.begin(), a.python_lines.end(),  // AMP was chosen: no TF32 line
                  [](const std::string& l) { return l.find("fp32_precision") != std::string::npos; }));

  // The JSON keeps every run's knobs, and the advice read back is the same.
  TuneResult result;
  result.run = InterpretTuneRun("/v/bin/python",
                                Exited(0, Fixture("planted_gpu.jsonl") + Fixture("planted_extras.jsonl")),
                                std::chrono::seconds(300));
  result.advice = AdviseRun(result.run);
  const std::string json = TuneResultToJson(result);
  EXPECT_NE(json.find("\"speedup_vs_generic\""), std::string::npos);
  auto back = TuneResultFromJson(json, "tune.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  const TuneModelAdvice* rb = Model(back->advice, "resnet50");
  ASSERT_TRUE(rb);
  EXPECT_EQ(rb->compile, "reduce-overhead");
  EXPECT_TRUE(rb->fused);
  EXPECT_EQ(rb->compile_seconds, 30.0);
  EXPECT_EQ(TuneResultToJson(*back), json);
}

// TF32 on top of fp32: recommended when fp32 won, and its lines are given.
TEST(TuneAdvice, Tf32IsRecommendedOnTopOfFp32) {
  std::string text = Fixture("planted_gpu.jsonl");
  // Only fp32 knob runs: drop the fp16/bf16 ones so fp32 is the precision chosen.
  std::string kept;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find("\"role\": \"knob\"") == std::string::npos ||
        line.find("\"precision\": \"fp32\"") != std::string::npos)
      kept += line + "\n";
  kept +=
      "{\"type\": \"result\", \"role\": \"knob\", \"model\": \"transformer\", \"precision\": \"fp32\", "
      "\"batch\": 8, \"steps\": 20, \"seconds\": 0.5, \"samples_per_s\": 320.0, \"units_per_s\": 163840.0, "
      "\"unit\": \"tokens/s\", \"loss\": 9.2, \"loss_finite\": true, \"tf32\": true}\n";
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(kept));
  const TuneModelAdvice* t = Model(a, "transformer");
  ASSERT_TRUE(t);
  const TuneKnobRow* tf32 = Knob(*t, "TF32");
  ASSERT_TRUE(tf32);
  EXPECT_TRUE(tf32->recommended);
  EXPECT_NEAR(*tf32->change_percent, 100.0, 1e-6);
  EXPECT_EQ(t->precision, "fp32");
  EXPECT_TRUE(t->tf32);
  EXPECT_EQ(t->recommended_rate, 163840.0);
  EXPECT_NE(std::find(a.python_lines.begin(), a.python_lines.end(),
                      "torch.backends.cuda.matmul.fp32_precision = \"tf32\"  # TF32 matmuls; before torch "
                      "2.9: torch.set_float32_matmul_precision(\"high\")"),
            a.python_lines.end());
  // ResNet-50 has no TF32 line and no row: an older child's output says nothing of it.
  EXPECT_FALSE(Knob(*Model(a, "resnet50"), "TF32"));
}

// ResNet-50 at fp32 (the knob batch 64) whose search stopped on out-of-memory at 352, the large batch (256)
// at `large` images/s, and activation checkpointing's run at batch 512 at `checkpointed`; `compile` adds a
// chosen torch.compile (the large batch compiled at 2000 images/s) and the large batch again eager at
// `large`.
std::string CheckpointingRuns(double large, double checkpointed, bool compile = false) {
  auto run = [](const std::string& role, int batch, double rate, const std::string& mode, bool ckpt,
                double peak_gib) {
    nlohmann::json j = nlohmann::json::parse(ResultLine(role, "fp32", false, false, batch, rate));
    j["compile"] = mode.empty() ? nlohmann::json(nullptr) : nlohmann::json(mode);
    j["checkpointing"] = ckpt;
    j["peak_allocated_bytes"] = peak_gib * 1024 * 1024 * 1024;
    return j.dump() + "\n";
  };
  std::string text =
      "{\"type\": \"hello\", \"backend\": \"cuda\"}\n" +
      ResultLine("generic", "fp32", false, false, 32, 900) +
      ResultLine("knob", "fp32", false, false, 64, 1100) +
      "{\"type\": \"search\", \"model\": \"resnet50\", \"precision\": \"bf16\", \"largest\": 340, "
      "\"failed_at\": 352, \"cap\": 4096}\n";
  if (compile) {
    text += run("knob", 64, 1400, "default", false, 10);
    text += run("large_batch", 256, 2000, "default", false, 60);
    text += run("checkpointing", 256, large, "", false, 62);
  } else {
    text += run("large_batch", 256, large, "", false, 60);
  }
  return text + run("checkpointing", 512, checkpointed, "", true, 40);
}

// Activation checkpointing measurably faster at the larger batch than the large batch without it:
// recommended, the recommendation is its run, and the lines to paste checkpoint each residual block. The JSON
// keeps it.
TEST(TuneAdvice, CheckpointingFasterAtALargerBatchIsRecommended) {
  TuneResult result;
  result.run =
      InterpretTuneRun("/v/bin/python", Exited(0, CheckpointingRuns(1500, 1700)), std::chrono::seconds(300));
  result.advice = AdviseRun(result.run);
  const TuneModelAdvice* r = Model(result.advice, "resnet50");
  ASSERT_TRUE(r);
  const TuneKnobRow* row = Knob(*r, "activation checkpointing");
  ASSERT_TRUE(row);
  EXPECT_TRUE(row->recommended);
  EXPECT_EQ(row->without, "off, batch 256");
  EXPECT_EQ(row->with, "torch.utils.checkpoint, batch 512");
  EXPECT_EQ(row->without_rate, 1500.0);
  EXPECT_EQ(row->with_rate, 1700.0);
  EXPECT_NE(row->why.find("+13.3% images/s; with it batch 512 fits with the large batch's headroom (the "
                          "largest without it: 340); peak memory 40.0 GiB with it, 60.0 GiB without"),
            std::string::npos)
      << row->why;
  EXPECT_TRUE(r->checkpointing);
  EXPECT_EQ(r->batch, 512u);
  EXPECT_EQ(r->recommended_rate, 1700.0);
  EXPECT_EQ(TuneSettingsLabel(*r), "fp32, activation checkpointing, batch 512");
  const auto& lines = result.advice.python_lines;
  EXPECT_NE(std::find(lines.begin(), lines.end(),
                      "x = checkpoint(block, x, use_reentrant=False)  # in forward: each residual block of "
                      "model.layer1 ... model.layer4"),
            lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "batch_size = 512  # largest that fitted: 340"),
            lines.end());
  const std::string json = TuneResultToJson(result);
  auto back = TuneResultFromJson(json, "tune.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->run.output.measurements.back().checkpointing);
  EXPECT_TRUE(Model(back->advice, "resnet50")->checkpointing);
  EXPECT_EQ(TuneResultToJson(*back), json);
}

// Slower with checkpointing: "slower here" with the figure, the large batch stays recommended, no checkpoint
// line. Within the noise: no measurable effect.
TEST(TuneAdvice, CheckpointingSlowerIsNotRecommended) {
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(CheckpointingRuns(1500, 1300)));
  const TuneModelAdvice* r = Model(a, "resnet50");
  ASSERT_TRUE(r);
  const TuneKnobRow* row = Knob(*r, "activation checkpointing");
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->recommended);
  EXPECT_EQ(row->why.rfind("slower here (-13.3% images/s)", 0), 0u) << row->why;
  EXPECT_FALSE(r->checkpointing);
  EXPECT_EQ(r->batch, 256u);
  EXPECT_EQ(r->recommended_rate, 1500.0);
  for (const auto& line : a.python_lines) EXPECT_EQ(line.find("checkpoint"), std::string::npos) << line;
  a = BuildTuneAdvice(ParseTuneOutput(CheckpointingRuns(1500, 1520)));
  EXPECT_EQ(Knob(*Model(a, "resnet50"), "activation checkpointing")->why.rfind("no measurable effect", 0),
            0u);
}

// With torch.compile chosen the child timed checkpointing eager against the large batch eager: the row
// compares those two and says so; faster than eager but not than the compiled recommendation, it is not
// taken.
TEST(TuneAdvice, CheckpointingWithCompileChosenComparesEagerWithEager) {
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(CheckpointingRuns(1500, 1700, true)));
  const TuneModelAdvice* r = Model(a, "resnet50");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->compile, "default");
  const TuneKnobRow* row = Knob(*r, "activation checkpointing");
  ASSERT_TRUE(row);
  EXPECT_EQ(row->without_rate, 1500.0);  // the eager large batch, not the compiled one (2000)
  EXPECT_FALSE(row->recommended);
  EXPECT_NE(row->why.find("both eager: with torch.compile it would compile again"), std::string::npos)
      << row->why;
  EXPECT_NE(row->why.find("the recommendation (fp32, torch.compile, batch 256) is as fast or faster"),
            std::string::npos)
      << row->why;
  EXPECT_FALSE(r->checkpointing);
  EXPECT_EQ(r->recommended_rate, 2000.0);
}

// Not timed: the row gives the child's reason.
TEST(TuneAdvice, CheckpointingNotMeasuredSaysWhy) {
  std::string text =
      "{\"type\": \"hello\", \"backend\": \"cuda\"}\n" + ResultLine("knob", "fp32", false, false, 64, 1100) +
      "{\"type\": \"skip\", \"item\": \"resnet50/knob/checkpointing\", \"reason\": \"the largest batch is "
      "not memory-bound: the search reached the cap (batch 64)\"}\n";
  const TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(text));
  const TuneModelAdvice* r = Model(a, "resnet50");
  ASSERT_TRUE(r);
  const TuneKnobRow* row = Knob(*r, "activation checkpointing");
  ASSERT_TRUE(row);
  EXPECT_FALSE(row->recommended);
  EXPECT_FALSE(row->with_rate);
  EXPECT_EQ(row->why,
            "not measured: the largest batch is not memory-bound: the search reached the cap (batch 64)");
}

// A result line of ResultLine's for another model.
std::string ForModel(std::string line, const std::string& model) {
  return line.replace(line.find("resnet50"), 8, model);
}

TEST(TuneAllocator, PlanRepeatsTheLargeBatchElseTheFastestKnobRunAtTheKnobBatch) {
  const std::string search =
      "{\"type\": \"search\", \"model\": \"resnet50\", \"precision\": \"bf16\", \"largest\": 600, "
      "\"failed_at\": 604, \"cap\": 4096, \"tried\": [[600, true], [604, false]], \"seconds\": 1}\n";
  std::string knobs = "{\"type\": \"hello\", \"backend\": \"cuda\"}\n" + search +
                      ResultLine("generic", "fp32", false, false, 32, 300) +
                      ResultLine("knob", "bf16", true, false, 128, 2000) +  // before the knob batch halved
                      ResultLine("knob", "fp32", false, false, 64, 1000) +
                      ResultLine("knob", "bf16", false, false, 64, 1500) +
                      ResultLine("knob", "bf16", true, false, 64, 1600);
  auto plan = AllocatorPlan(ParseTuneOutput(knobs));
  ASSERT_TRUE(plan);
  auto j = nlohmann::json::parse(*plan);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["role"], "knob");
  EXPECT_EQ(j[0]["batch"], 64);
  EXPECT_EQ(j[0]["precision"], "bf16");
  EXPECT_EQ(j[0]["channels_last"], true);
  EXPECT_EQ(j[0]["search_from"], 600);

  // A transformer measured first, with a baseline of its own: the plan still holds ResNet-50 alone (one
  // model keeps a full run under 3 minutes).
  std::string transformer = search + ResultLine("large_batch", "bf16", false, false, 64, 900);
  for (size_t at = transformer.find("resnet50"); at != std::string::npos; at = transformer.find("resnet50"))
    transformer.replace(at, 8, "transformer");
  plan = AllocatorPlan(ParseTuneOutput(transformer + knobs.substr(knobs.find('\n') + 1) +
                                       ResultLine("large_batch", "bf16", true, false, 256, 2500)));
  ASSERT_TRUE(plan);
  j = nlohmann::json::parse(*plan);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["model"], "resnet50");
  EXPECT_EQ(j[0]["role"], "large_batch");
  EXPECT_EQ(j[0]["batch"], 256);
  EXPECT_EQ(j[0]["channels_last"], true);

  // Both baselines compiled: the second child compiles again, so the model that compiled faster goes
  // (on an H100, ResNet-50's large batch took 58 s to compile, the transformer's 9 s).
  auto compiled = [](std::string line, int seconds) {
    line.insert(line.rfind('}'),
                ", \"compile\": \"default\", \"compile_seconds\": " + std::to_string(seconds));
    return line;
  };
  plan = AllocatorPlan(ParseTuneOutput(
      ForModel(search, "transformer") +
      ForModel(compiled(ResultLine("large_batch", "bf16", false, false, 64, 900), 9), "transformer") +
      knobs.substr(knobs.find('\n') + 1) +
      compiled(ResultLine("large_batch", "bf16", true, false, 256, 2500), 58)));
  ASSERT_TRUE(plan);
  j = nlohmann::json::parse(*plan);
  ASSERT_EQ(j.size(), 1u);
  EXPECT_EQ(j[0]["model"], "transformer");
  EXPECT_EQ(j[0]["compile"], "default");
}

TuneResult PlantedResult(const std::string& python_env) {
  TuneResult t;
  t.python_env = python_env;
  t.device_requested = "0";
  t.run = InterpretTuneRun("/v/bin/python", Exited(0, Fixture("planted_gpu.jsonl")), std::chrono::seconds(1));
  t.advice = AdviseRun(t.run);
  return t;
}

TEST(TuneReport, JsonCarriesTheKnobTableAndProblems) {
  TuneResult t = PlantedResult("/v");
  auto j = nlohmann::json::parse(TuneResultToJson(t));
  EXPECT_EQ(j["schema"], "gpudoctor.tune/1");
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["framework"]["device"], "Planted GPU");
  EXPECT_EQ(j["models"][0]["recommended"]["batch"], 256);
  EXPECT_EQ(j["models"][0]["generic"]["rate"], 320.0);
  EXPECT_EQ(j["models"][0]["knob_batch"], 64);
  EXPECT_EQ(j["models"][0]["recommended"]["channels_last"], true);
  EXPECT_EQ(j["batch_searches"][0]["largest_batch"], 600);
  EXPECT_EQ(j["problems"].size(), 2u);
  EXPECT_TRUE(j["allocator"].is_null());
  EXPECT_EQ(j["notes"].size(), 1u);
  TuneReportContext ctx;
  ctx.python_env = "/v";
  std::string text = RenderTuneText(t.run, t.advice, ctx);
  EXPECT_NE(text.find("largest batch that fitted: 600 (604 ran out of memory)"), std::string::npos) << text;
  EXPECT_NE(text.find("generic advice (fp32, batch 32): 320 images/s (the recommendation is 4.10x)"),
            std::string::npos)
      << text;
}

// One codec: what tune writes reads back to the same result (the allocator's run and the loader included),
// and writing it again gives the same document.
TEST(TuneReport, JsonRoundTripsThroughTheOneCodec) {
  TuneResult t = PlantedResult("/v");
  t.run.output.loader.push_back(
      {"loader/4 workers/pageable", 4, false, 32, 320, 0.25, 1280, "jpeg", 224, 16});
  TuneAllocatorRun alloc;
  alloc.variable = "PYTORCH_CUDA_ALLOC_CONF";
  alloc.value = kAllocatorSetting;
  alloc.status = "ok";
  alloc.output = ParseTuneOutput(Fixture("planted_gpu.jsonl"));
  alloc.output.hello->alloc_conf = {{"PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True"}};
  t.run.allocator = alloc;
  t.run.stderr_tail.push_back("a traceback line that is not UTF-8: \xff\xfe");  // any bytes from the child
  t.advice = AdviseRun(t.run);
  const std::string first = TuneResultToJson(t);
  auto back = TuneResultFromJson(first, "tune.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->run.output.measurements.size(), t.run.output.measurements.size());
  ASSERT_TRUE(back->run.allocator);
  EXPECT_EQ(back->run.allocator->output.hello->alloc_conf, alloc.output.hello->alloc_conf);
  EXPECT_EQ(back->run.output.loader.size(), 1u);
  EXPECT_EQ(back->run.stderr_tail.back(), "a traceback line that is not UTF-8: \xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(TuneResultToJson(*back), first);
}

// The last release's file (tests/fixtures/reports/tune-cpu-tiny-v1.json, written by gpudoctor before this
// codec) still loads, and the advice derived again from its measurements is the knob table it carries.
TEST(TuneReport, LastReleasesDocumentStillLoads) {
  const std::string text = Fixture("../reports/tune-cpu-tiny-v1.json");
  auto t = TuneResultFromJson(text, "tune-cpu-tiny-v1.json");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->run.status, "ok");
  EXPECT_EQ(t->device_requested, "cpu");
  ASSERT_TRUE(t->run.output.hello);
  EXPECT_EQ(t->run.output.hello->backend, "cpu");
  EXPECT_FALSE(t->run.allocator);
  auto saved = nlohmann::json::parse(text);
  ASSERT_EQ(t->advice.models.size(), saved["models"].size());
  for (size_t i = 0; i < t->advice.models.size(); ++i) {
    const auto& model = t->advice.models[i];
    const auto& was = saved["models"][i];
    EXPECT_EQ(model.model, was["model"].get<std::string>());
    EXPECT_EQ(model.precision, was["recommended"]["precision"].get<std::string>());
    EXPECT_EQ(model.channels_last, was["recommended"]["channels_last"].get<bool>());
    EXPECT_EQ(model.batch, was["recommended"]["batch"].get<uint32_t>());
    ASSERT_EQ(model.knobs.size(), was["knobs"].size()) << model.model;
    for (size_t k = 0; k < model.knobs.size(); ++k) {
      EXPECT_EQ(model.knobs[k].knob, was["knobs"][k]["knob"].get<std::string>());
      EXPECT_EQ(model.knobs[k].recommended, was["knobs"][k]["recommended"].get<bool>())
          << model.knobs[k].knob;
      EXPECT_EQ(model.knobs[k].with_rate.has_value(), !was["knobs"][k]["with_rate"].is_null());
    }
  }
  EXPECT_EQ(nlohmann::json(t->advice.python_lines), saved["python_lines"]);
}

// tune --json read back by `report --tune`: the knob table and the problems reach the page, escaped.
TEST(TuneReport, HtmlReportReadsTheSavedJson) {
  auto doc = TuneResultFromJson(TuneResultToJson(PlantedResult("/home/<me>/venv")), "tune.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_TRUE(doc->run.output.hello);
  EXPECT_EQ(doc->run.output.hello->device, "Planted GPU");
  ASSERT_EQ(doc->advice.models.size(), 2u);
  EXPECT_EQ(doc->advice.models[0].knobs.size(), 5u);
  EXPECT_EQ(doc->advice.models[0].batch, 256u);
  EXPECT_EQ(doc->advice.models[0].knob_batch, 64u);     // read back from the knob runs' batch
  EXPECT_EQ(doc->advice.models[0].generic_batch, 32u);  // and from the generic role
  EXPECT_EQ(doc->advice.models[0].generic_rate, 320.0);
  EXPECT_EQ(doc->run.problems.size(), 2u);

  HtmlReportInput in;
  EXPECT_EQ(RenderHtmlReport(in).find("id=\"tune\""), std::string::npos);  // only when given
  in.tune = *doc;
  in.tune_origin = "tune.json";
  std::string html = RenderHtmlReport(in);
  EXPECT_NE(html.find("<section id=\"tune\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#tune\">Tune</a>"), std::string::npos);
  EXPECT_NE(html.find("/home/&lt;me&gt;/venv"), std::string::npos);
  EXPECT_NE(html.find("channels_last (model and input)"), std::string::npos);
  EXPECT_NE(html.find("Knobs timed at"), std::string::npos);
  EXPECT_NE(html.find("batch 64"), std::string::npos);
  EXPECT_NE(html.find("fp32, batch 32: 320.0 images/s"), std::string::npos) << html;
  EXPECT_NE(html.find("tune.loss_not_finite"), std::string::npos);
  EXPECT_NE(html.find("set_per_process_memory_fraction"), std::string::npos);  // the notes

  EXPECT_FALSE(TuneResultFromJson("{\"schema\": \"gpudoctor.bench/1\"}", "b.json").ok());
  EXPECT_FALSE(TuneResultFromJson("not json", "x").ok());
  auto wrong = TuneResultFromJson(
      "{\"schema\": \"gpudoctor.tune/1\", \"measurements\": [{\"batch\": \"big\"}]}", "w.json");
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.error().message.find("measurements[0].batch"), std::string::npos) << wrong.error().message;
}

// A child whose stdout is not UTF-8 (found by fuzz/tune_protocol_fuzz.cpp: one byte, 0x95) once made
// tune --json throw from the JSON writer; the byte is written as U+FFFD and the report reads the file back.
TEST(TuneReport, JsonOfAChildThatPrintedInvalidUtf8) {
  TuneRun run = InterpretTuneRun("/v/bin/python", Exited(0, "\x95"), std::chrono::seconds(1));
  std::string json;
  ASSERT_NO_THROW(json = TuneResultToJson(TuneResult{"", "0", false, run, BuildTuneAdvice(run.output)}));
  EXPECT_NE(json.find("\xef\xbf\xbd"), std::string::npos) << json;
  auto doc = TuneResultFromJson(json, "tune.json");
  EXPECT_TRUE(doc.ok()) << doc.error().message;
}

TEST(TuneChildScript, IsEmbeddedAndSpeaksTheProtocol) {
  std::string_view script = TuneChildScript();
  EXPECT_NE(script.find("def largest_batch("), std::string_view::npos);
  EXPECT_NE(script.find("emit(\"end\")"), std::string_view::npos);
  EXPECT_TRUE(script == Fixture("../../../data/tune/tune_child.py")) << "rebuild: the embedded copy is stale";
  // The child picks the large batch's settings with the knob table's noise floor.
  char floor[48];
  std::snprintf(floor, sizeof floor, "\nNOISE_PERCENT = %.1f\n", kTuneNoisePercent);
  EXPECT_NE(script.find(floor), std::string_view::npos) << floor;
}

TEST(TuneRequest, ArgumentsAndScriptOnStdin) {
  TuneOptions o;
  o.interpreter = "/v/bin/python";
  o.device = "1";
  o.size = "quick";
  o.models = {"transformer"};
  o.max_batch = 64;
  o.exact_search = true;
  o.extra_env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "1";  // the user's own setting is overruled
  ProcessRequest r = BuildTuneRequest(o);
  EXPECT_EQ(r.argv, (std::vector<std::string>{"/v/bin/python", "-", "--device", "1", "--size", "quick",
                                              "--models", "transformer", "--max-batch", "64", "--exact",
                                              "--compile-modes=default"}));
  EXPECT_EQ(r.stdin_text, std::string(TuneChildScript()));
  EXPECT_EQ(r.extra_env.at("PYTHONUNBUFFERED"), "1");
  EXPECT_EQ(r.extra_env.at("TORCHINDUCTOR_AUTOGRAD_CACHE"), "0");  // no graph of another autocast dtype
}

}  // namespace
}  // namespace gpudoctor
