// `gpudoctor tune` without a child: the protocol reader, the judging of a finished child (hang, crash,
// garbage, no GPU, a search that contradicts itself), the knob table on planted figures, and the JSON.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report/html_report.h"
#include "report/tune_input.h"
#include "tune/tune_advice.h"
#include "tune/tune_child_script.h"
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
  EXPECT_EQ(out.measurements.size(), 11u);
  ASSERT_EQ(out.searches.size(), 1u);
  EXPECT_EQ(out.searches[0].largest, 600u);
  EXPECT_EQ(out.searches[0].failed_at, 604u);
  EXPECT_EQ(out.searches[0].tried.size(), 17u);
  EXPECT_EQ(out.skips.size(), 1u);
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].code, "oom");
  EXPECT_TRUE(out.ended);
  EXPECT_EQ(out.ignored_lines, 3u);
  EXPECT_FALSE(out.measurements[11 - 2].loss_finite);  // the transformer's fp16 run
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
  ASSERT_TRUE(Knob(*r, "AMP fp16") && Knob(*r, "AMP bf16") && Knob(*r, "channels_last") &&
              Knob(*r, "cudnn.benchmark") && Knob(*r, "batch size"));
  EXPECT_NEAR(*Knob(*r, "AMP fp16")->change_percent, 150.0, 1e-9);
  EXPECT_TRUE(Knob(*r, "AMP fp16")->recommended);
  EXPECT_FALSE(Knob(*r, "AMP bf16")->recommended);  // +140%, but fp16 is faster
  EXPECT_NE(Knob(*r, "AMP bf16")->why.find("fp16 is faster"), std::string::npos);
  EXPECT_EQ(r->precision, "fp16");
  EXPECT_NEAR(*Knob(*r, "channels_last")->change_percent, 20.0, 1e-9);  // 800 -> 960 at fp16
  EXPECT_TRUE(r->channels_last);
  EXPECT_FALSE(Knob(*r, "cudnn.benchmark")->recommended);  // 960 -> 970: within the noise
  EXPECT_NE(Knob(*r, "cudnn.benchmark")->why.find("noise"), std::string::npos);
  EXPECT_FALSE(r->benchmark);
  EXPECT_TRUE(Knob(*r, "batch size")->recommended);  // 960 -> 1056
  EXPECT_EQ(r->batch, 256u);
  EXPECT_EQ(r->largest_batch, 600u);
  EXPECT_EQ(r->generic_batch, 32u);
  EXPECT_DOUBLE_EQ(*r->generic_rate, 320.0);
  EXPECT_DOUBLE_EQ(*r->recommended_rate, 1056.0);

  const TuneModelAdvice* t = Model(a, "transformer");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->unit, "tokens/s");
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
}

// On a big GPU the small batch waits on the CPU, so fp32 wins there; the large batch, timed at the batch
// search's bf16, is what is recommended, and the lines must carry the bf16 it was measured with (found on
// the H200: "fp32 at batch 2048" was advised with the figure of bf16 at batch 2048).
TEST(TuneAdvice, LargeBatchRecommendationKeepsThePrecisionItWasMeasuredAt) {
  auto result = [](const char* role, const char* precision, int batch, double rate) {
    return std::string("{\"type\": \"result\", \"role\": \"") + role +
           "\", \"model\": \"resnet50\", \"precision\": \"" + precision +
           "\", \"batch\": " + std::to_string(batch) + ", \"units_per_s\": " + std::to_string(rate) +
           ", \"unit\": \"images/s\", \"seconds\": 1, \"samples_per_s\": " + std::to_string(rate) +
           ", \"loss_finite\": true}\n";
  };
  std::string text = "{\"type\": \"hello\", \"backend\": \"cuda\"}\n" + result("knob", "fp32", 32, 1700) +
                     result("knob", "bf16", 32, 1380) + result("large_batch", "bf16", 2048, 2563);
  TuneAdvice a = BuildTuneAdvice(ParseTuneOutput(text));
  ASSERT_EQ(a.models.size(), 1u);
  EXPECT_EQ(a.models[0].precision, "bf16");
  EXPECT_EQ(a.models[0].batch, 2048u);
  const TuneKnobRow* batch = Knob(a.models[0], "batch size");
  ASSERT_TRUE(batch);
  EXPECT_TRUE(batch->recommended);
  EXPECT_NE(batch->with.find("bf16"), std::string::npos) << batch->with;
  bool autocast = false;
  for (const std::string& l : a.python_lines)
    autocast = autocast || l.find("torch.bfloat16") != std::string::npos;
  EXPECT_TRUE(autocast);
}

TEST(TuneReport, JsonCarriesTheKnobTableAndProblems) {
  TuneRun run =
      InterpretTuneRun("/v/bin/python", Exited(0, Fixture("planted_gpu.jsonl")), std::chrono::seconds(1));
  TuneAdvice advice = BuildTuneAdvice(run.output);
  TuneReportContext ctx;
  ctx.python_env = "/v";
  auto j = nlohmann::json::parse(RenderTuneJson(run, advice, ctx));
  EXPECT_EQ(j["schema"], "gpudoctor.tune/1");
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["framework"]["device"], "Planted GPU");
  EXPECT_EQ(j["models"][0]["recommended"]["batch"], 256);
  EXPECT_EQ(j["models"][0]["generic"]["rate"], 320.0);
  EXPECT_EQ(j["batch_searches"][0]["largest_batch"], 600);
  EXPECT_EQ(j["problems"].size(), 2u);
  std::string text = RenderTuneText(run, advice, ctx);
  EXPECT_NE(text.find("largest batch that fitted: 600 (604 ran out of memory)"), std::string::npos) << text;
  EXPECT_NE(text.find("generic advice (fp32, batch 32): 320 images/s (the recommendation is 3.30x)"),
            std::string::npos)
      << text;
}

// tune --json read back by `report --tune`: the knob table and the problems reach the page, escaped.
TEST(TuneReport, HtmlReportReadsTheSavedJson) {
  TuneRun run =
      InterpretTuneRun("/v/bin/python", Exited(0, Fixture("planted_gpu.jsonl")), std::chrono::seconds(1));
  TuneReportContext ctx;
  ctx.python_env = "/home/<me>/venv";
  auto doc = ParseTuneJson(RenderTuneJson(run, BuildTuneAdvice(run.output), ctx), "tune.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->device, "Planted GPU");
  ASSERT_EQ(doc->models.size(), 2u);
  EXPECT_EQ(doc->models[0].knobs.size(), 5u);
  EXPECT_EQ(doc->models[0].recommended_batch, 256.0);
  EXPECT_EQ(doc->problems.size(), 2u);

  HtmlReportInput in;
  EXPECT_EQ(RenderHtmlReport(in).find("id=\"tune\""), std::string::npos);  // only when given
  in.tune = *doc;
  in.tune_origin = "tune.json";
  std::string html = RenderHtmlReport(in);
  EXPECT_NE(html.find("<section id=\"tune\""), std::string::npos);
  EXPECT_NE(html.find("<a href=\"#tune\">Tune</a>"), std::string::npos);
  EXPECT_NE(html.find("/home/&lt;me&gt;/venv"), std::string::npos);
  EXPECT_NE(html.find("channels_last (model and input)"), std::string::npos);
  EXPECT_NE(html.find("tune.loss_not_finite"), std::string::npos);

  EXPECT_FALSE(ParseTuneJson("{\"kind\": \"bench\"}", "b.json").ok());
  EXPECT_FALSE(ParseTuneJson("not json", "x").ok());
}

// A child whose stdout is not UTF-8 (found by fuzz/tune_protocol_fuzz.cpp: one byte, 0x95) once made
// tune --json throw from the JSON writer; the byte is written as U+FFFD and the report reads the file back.
TEST(TuneReport, JsonOfAChildThatPrintedInvalidUtf8) {
  TuneRun run = InterpretTuneRun("/v/bin/python", Exited(0, "\x95"), std::chrono::seconds(1));
  std::string json;
  ASSERT_NO_THROW(json = RenderTuneJson(run, BuildTuneAdvice(run.output), TuneReportContext{}));
  EXPECT_NE(json.find("\xef\xbf\xbd"), std::string::npos) << json;
  auto doc = ParseTuneJson(json, "tune.json");
  EXPECT_TRUE(doc.ok()) << doc.error().message;
}

TEST(TuneChildScript, IsEmbeddedAndSpeaksTheProtocol) {
  std::string_view script = TuneChildScript();
  EXPECT_NE(script.find("def largest_batch("), std::string_view::npos);
  EXPECT_NE(script.find("emit(\"end\")"), std::string_view::npos);
  EXPECT_TRUE(script == Fixture("../../../data/tune/tune_child.py")) << "rebuild: the embedded copy is stale";
}

TEST(TuneRequest, ArgumentsAndScriptOnStdin) {
  TuneOptions o;
  o.interpreter = "/v/bin/python";
  o.device = "1";
  o.size = "quick";
  o.models = {"transformer"};
  o.max_batch = 64;
  o.exact_search = true;
  ProcessRequest r = BuildTuneRequest(o);
  EXPECT_EQ(r.argv, (std::vector<std::string>{"/v/bin/python", "-", "--device", "1", "--size", "quick",
                                              "--models", "transformer", "--max-batch", "64", "--exact"}));
  EXPECT_EQ(r.stdin_text, std::string(TuneChildScript()));
  EXPECT_EQ(r.extra_env.at("PYTHONUNBUFFERED"), "1");
}

}  // namespace
}  // namespace gpudoctor
