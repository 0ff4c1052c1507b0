// Reading saved verify and bench documents back for the report (report/report_inputs.h): the fixtures
// under tests/fixtures/reports parse, and every kind of bad input is an error naming the file and the
// place: broken JSON (with its line), the wrong kind of document, a newer schema, a wrong type, a
// missing field, an unknown enumerated value.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "report/report_inputs.h"

namespace gpudoctor {
namespace {

const std::string kReports = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/reports/";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string BenchError(const std::string& text) {
  auto r = ParseBenchJson(text, "b.json");
  return r.ok() ? "(parsed)" : r.error().message;
}

std::string VerifyError(const std::string& text) {
  auto r = ParseVerifyJson(text, "v.json");
  return r.ok() ? "(parsed)" : r.error().message;
}

// One benchmark entry with `extra` fields replacing the defaults.
std::string Bench(const std::string& entry_fields) {
  return R"({"schema": "gpudoctor.bench/1", "benchmarks": [{)" + entry_fields + "}]}";
}
const std::string kEntry = R"("id": "memory.triad", "unit": "GB/s", "verdict": "ok", "check": "passed")";

TEST(ReportInputs, BenchFixtureParses) {
  auto doc = ParseBenchJson(Slurp(kReports + "bench-h200-synthetic.json"), "bench-h200-synthetic.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->device.name, "NVIDIA H200");
  EXPECT_EQ(doc->device.backend, "cuda");
  EXPECT_EQ(doc->level, "standard");
  ASSERT_GE(doc->benchmarks.size(), 10u);
  const BenchEntry& triad = doc->benchmarks[3];
  EXPECT_EQ(triad.id, "memory.triad");
  EXPECT_EQ(triad.x_unit, "bytes");
  EXPECT_EQ(triad.points.front().x, 1048576);
  ASSERT_TRUE(triad.peak.has_value());
  EXPECT_EQ(*triad.peak, 4800.0);
  EXPECT_EQ(triad.check, BenchCheck::kPassed);
  size_t failed = 0, skipped = 0;
  for (const auto& b : doc->benchmarks) {
    failed += b.check == BenchCheck::kFailed;
    skipped += b.verdict == BenchVerdict::kSkipped;
  }
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(skipped, 1u);
  EXPECT_EQ(doc->findings.size(), 2u);
}

// A document `bench --json` wrote (fake backend) before the worker layer (issue 15): saved so that a later
// change of the result types' JSON still reads what this release wrote.
TEST(ReportInputs, ASavedFakeBenchDocumentParses) {
  auto doc = ParseBenchJson(Slurp(kReports + "bench-fake-memory-latency.json"), "bench-fake.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->schema, "gpudoctor.bench/1");
  EXPECT_EQ(doc->device.backend, "fake");
  EXPECT_EQ(doc->device.pci_address, "0000:03:00.0");
  EXPECT_EQ(doc->level, "quick");
  ASSERT_EQ(doc->benchmarks.size(), 8u);
  EXPECT_EQ(doc->benchmarks.front().id, "memory.copy");
  EXPECT_EQ(doc->benchmarks.back().id, "latency.roundtrip");
  for (const auto& b : doc->benchmarks) {
    EXPECT_EQ(b.check, BenchCheck::kPassed) << b.id;
    EXPECT_FALSE(b.points.empty()) << b.id;
  }
}

TEST(ReportInputs, VerifyFixtureParses) {
  auto doc = ParseVerifyJson(Slurp(kReports + "verify-fake-wrong-result.json"), "verify.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->backend, "fake");
  EXPECT_EQ(doc->inject, "wrong-result");
  ASSERT_TRUE(doc->device.has_value());
  EXPECT_EQ(doc->device->pci_address, "0000:03:00.0");
  size_t pass = 0, fail = 0, skip = 0;
  for (const auto& g : doc->gates) {
    pass += g.status == GateOutcome::kPass;
    fail += g.status == GateOutcome::kFail;
    skip += g.status == GateOutcome::kSkip;
  }
  EXPECT_GT(pass, 0u);
  EXPECT_EQ(fail, 1u);
  EXPECT_GT(skip, 0u);
  EXPECT_EQ(doc->exit_code, 1);
}

TEST(ReportInputs, BrokenJsonNamesFileAndLine) {
  EXPECT_EQ(BenchError("{\n  \"schema\": \"gpudoctor.bench/1\",\n  \"benchmarks\": [,]\n}"),
            "b.json:3: not valid JSON");
  EXPECT_EQ(VerifyError(""), "v.json:1: not valid JSON");
  EXPECT_EQ(BenchError("[1, 2]"), "b.json: expected a JSON object, found an array");
}

TEST(ReportInputs, WrongKindOfDocumentIsNamed) {
  const std::string bench = Bench(kEntry);
  EXPECT_NE(VerifyError(bench).find("it is a `gpudoctor bench --json` document (give it with --bench)"),
            std::string::npos)
      << VerifyError(bench);
  const std::string verify = R"({"schema_version": 1, "gates": []})";
  EXPECT_NE(BenchError(verify).find("it is a `gpudoctor verify --json` document (give it with --verify)"),
            std::string::npos)
      << BenchError(verify);
  const std::string snapshot = R"({"schema": "gpudoctor.snapshot", "schema_version": 1})";
  EXPECT_NE(BenchError(snapshot).find("give it with --from"), std::string::npos);
  EXPECT_NE(VerifyError(snapshot).find("give it with --from"), std::string::npos);
  EXPECT_EQ(BenchError(R"({"a": 1})"),
            "b.json: not a `gpudoctor bench --json` document (\"schema\" is not \"gpudoctor.bench/1\")");
  EXPECT_EQ(VerifyError(R"({"a": 1})"), "v.json: not a `gpudoctor verify --json` document");
}

TEST(ReportInputs, NewerSchemasAreRefused) {
  EXPECT_NE(BenchError(R"({"schema": "gpudoctor.bench/2", "benchmarks": []})")
                .find("is not one this gpudoctor reads"),
            std::string::npos);
  EXPECT_NE(VerifyError(R"({"schema_version": 2, "gates": []})").find("newer than this gpudoctor reads"),
            std::string::npos);
  EXPECT_NE(VerifyError(R"({"schema_version": 0, "gates": []})").find("is not valid"), std::string::npos);
  EXPECT_NE(VerifyError(R"({"schema_version": "1", "gates": []})").find("expected a whole number"),
            std::string::npos);
}

TEST(ReportInputs, WrongTypesNameTheirPath) {
  EXPECT_EQ(BenchError(Bench(kEntry + R"(, "points": [{"x": 1, "value": 2}, {"x": 2, "value": "fast"}])")),
            "b.json: benchmarks[0].points[1].value: expected a number, found a string");
  EXPECT_EQ(BenchError(Bench(kEntry + R"(, "points": [], "peak": "4800")")),
            "b.json: benchmarks[0].peak: expected a number, found a string");
  EXPECT_EQ(BenchError(Bench(kEntry + R"(, "points": {})")),
            "b.json: benchmarks[0].points: expected an array, found an object");
  EXPECT_EQ(BenchError(R"({"schema": "gpudoctor.bench/1", "benchmarks": [3]})"),
            "b.json: benchmarks[0]: expected an object, found a number");
  EXPECT_EQ(VerifyError(
                R"({"schema_version": 1, "gates": [{"gate": "kernel", "status": "pass", "details": [1]}]})"),
            "v.json: gates[0].details[0]: expected a string, found a number");
  EXPECT_EQ(VerifyError(R"({"schema_version": 1, "gates": {}})"),
            "v.json: gates: expected an array, found an object");
}

TEST(ReportInputs, MissingFieldsAreNamed) {
  EXPECT_EQ(BenchError(Bench(R"("unit": "GB/s", "verdict": "ok", "check": "passed", "points": [])")),
            "b.json: benchmarks[0]: \"id\" is missing");
  EXPECT_EQ(BenchError(Bench(kEntry)), "b.json: benchmarks[0]: \"points\" is missing");
  EXPECT_EQ(BenchError(Bench(kEntry + R"(, "points": [{"value": 1}])")),
            "b.json: benchmarks[0].points[0]: \"x\" is missing");
  EXPECT_EQ(BenchError(R"({"schema": "gpudoctor.bench/1"})"), "b.json: document: \"benchmarks\" is missing");
  EXPECT_EQ(VerifyError(R"({"schema_version": 1, "gates": [{"status": "pass"}]})"),
            "v.json: gates[0]: \"gate\" is missing");
}

TEST(ReportInputs, EnumeratedValuesAreChecked) {
  EXPECT_EQ(BenchError(Bench(R"("id": "a.b", "verdict": "great", "check": "passed", "points": [])")),
            "b.json: benchmarks[0].verdict: \"great\" is not ok, low, failed or skipped");
  EXPECT_EQ(BenchError(Bench(R"("id": "a.b", "verdict": "ok", "check": "maybe", "points": [])")),
            "b.json: benchmarks[0].check: \"maybe\" is not passed, \"failed: ...\" or not run");
  EXPECT_EQ(VerifyError(R"({"schema_version": 1, "gates": [{"gate": "kernel", "status": "ok"}]})"),
            "v.json: gates[0].status: \"ok\" is not pass, fail or skip");
  EXPECT_NE(
      BenchError(R"({"schema": "gpudoctor.bench/1", "benchmarks": [], "findings": [{"severity": "fatal"}]})")
          .find("findings[0].severity"),
      std::string::npos);
}

TEST(ReportInputs, NullsAndDefaults) {
  auto doc = ParseBenchJson(Bench(R"("id": "gemm.bf16", "verdict": "failed", "check": "failed: wrong sums",
                                     "peak": null, "best": null, "points": [{"x": 8192, "value": null}])"),
                            "b.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  const BenchEntry& e = doc->benchmarks[0];
  EXPECT_EQ(e.group, "gemm");  // from the id
  EXPECT_EQ(e.title, "gemm.bf16");
  EXPECT_TRUE(e.higher_is_better);
  EXPECT_FALSE(e.peak.has_value());
  EXPECT_FALSE(e.best.has_value());
  ASSERT_EQ(e.points.size(), 1u);
  EXPECT_TRUE(std::isnan(e.points[0].value));
  EXPECT_EQ(e.check, BenchCheck::kFailed);
  EXPECT_EQ(e.check_text, "failed: wrong sums");
  EXPECT_EQ(e.verdict, BenchVerdict::kFailed);

  auto v = ParseVerifyJson(R"({"schema_version": 1, "device": null, "backend": null,
      "gates": [{"gate": "gemm_fp32", "status": "pass", "hint": null, "elapsed_ms": null,
                 "figures": [{"label": "rate", "value": null, "unit": "TFLOP/s"}]}]})",
                           "v.json");
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->device.has_value());
  EXPECT_EQ(v->backend, "");
  ASSERT_EQ(v->gates[0].figures.size(), 1u);
  EXPECT_FALSE(v->gates[0].figures[0].value.has_value());
  EXPECT_FALSE(v->gates[0].elapsed_ms.has_value());
}

}  // namespace
}  // namespace gpudoctor
