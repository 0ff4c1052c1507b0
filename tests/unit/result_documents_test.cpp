// The codecs of the result documents (gates/verify_json.h, bench/bench_json.h, report/check_json.h,
// collectives/collectives_json.h) and the schema convention they share (core/json_reader.h): the documents
// the last release wrote (tests/fixtures/reports) still load, the current form loads, a report survives a
// round trip, and every kind of bad input is an error naming the file and the place: broken JSON (with its
// line), the wrong kind of document, a newer schema, a wrong type, a missing field, an unknown enumerated
// value.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "bench/bench_json.h"
#include "collectives/collectives_json.h"
#include "core/json_reader.h"
#include "gates/verify_json.h"
#include "gates/verify_report.h"
#include "report/check_json.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

using testing::ReadFileText;

const std::string kReports = std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/reports/";

std::string BenchError(const std::string& text) {
  auto r = BenchReportFromJson(text, "b.json");
  return r.ok() ? "(parsed)" : r.error().message;
}

std::string VerifyError(const std::string& text) {
  auto r = VerifyReportFromJson(text, "v.json");
  return r.ok() ? "(parsed)" : r.error().message;
}

// One benchmark entry with `extra` fields replacing the defaults.
std::string Bench(const std::string& entry_fields) {
  return R"({"schema": "gpudoctor.bench/1", "benchmarks": [{)" + entry_fields + "}]}";
}
const std::string kEntry = R"("id": "memory.triad", "unit": "GB/s", "verdict": "ok", "check": "passed")";

TEST(ResultDocuments, BenchFixtureParses) {
  auto doc =
      BenchReportFromJson(ReadFileText(kReports + "bench-h200-synthetic.json"), "bench-h200-synthetic.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_TRUE(doc->device.has_value());
  EXPECT_EQ(doc->device->name, "NVIDIA H200");
  EXPECT_EQ(doc->device->backend, "cuda");
  EXPECT_EQ(doc->level, BenchLevel::kStandard);
  ASSERT_GE(doc->benchmarks.size(), 10u);
  const BenchResult& triad = doc->benchmarks[3];
  EXPECT_EQ(triad.spec.id, "memory.triad");
  EXPECT_EQ(triad.spec.x_unit, "bytes");
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
TEST(ResultDocuments, ASavedFakeBenchDocumentParses) {
  auto doc =
      BenchReportFromJson(ReadFileText(kReports + "bench-fake-memory-latency.json"), "bench-fake.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_TRUE(doc->device.has_value());
  EXPECT_EQ(doc->device->backend, "fake");
  EXPECT_EQ(doc->device->pci_address, "0000:03:00.0");
  EXPECT_EQ(doc->level, BenchLevel::kQuick);
  ASSERT_EQ(doc->benchmarks.size(), 8u);
  EXPECT_EQ(doc->benchmarks.front().spec.id, "memory.copy");
  EXPECT_EQ(doc->benchmarks.back().spec.id, "latency.roundtrip");
  for (const auto& b : doc->benchmarks) {
    EXPECT_EQ(b.check, BenchCheck::kPassed) << b.spec.id;
    EXPECT_FALSE(b.points.empty()) << b.spec.id;
  }
}

// A verify document written while the backends read telemetry themselves: a "telemetry" library line
// (NVML) and the sustained gate's old reason names in its text still read back as they were written.
TEST(ResultDocuments, AVerifyDocumentFromBeforeTheOneSamplerStillParses) {
  std::string text = ReadFileText(kReports + "verify-fake-wrong-result.json");
  const std::string libraries = "\"libraries\": [";
  size_t at = text.rfind(libraries);
  ASSERT_NE(at, std::string::npos);
  text.insert(at + libraries.size(),
              R"({"detail": "", "name": "nvml", "origin": "system", "path": "/usr/lib/libnvidia-ml.so.1",
                  "role": "telemetry", "status": "loaded", "version": "570.86", "where": "system loader"},)");
  auto doc = VerifyReportFromJson(text, "verify.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  ASSERT_EQ(doc->libraries.size(), 2u);
  EXPECT_EQ(doc->libraries[0].role, "telemetry");
  EXPECT_EQ(doc->libraries[0].name, "nvml");
  EXPECT_EQ(doc->libraries[0].status, LoadStatus::kLoaded);
}

// The form of the last release: no schema name, "schema_version": 1.
TEST(ResultDocuments, TheLastReleasesVerifyDocumentParses) {
  auto doc = VerifyReportFromJson(ReadFileText(kReports + "verify-fake-wrong-result.json"), "verify.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  EXPECT_EQ(doc->backend, "fake");
  EXPECT_EQ(doc->inject, "wrong-result");
  ASSERT_TRUE(doc->device.has_value());
  EXPECT_EQ(doc->device->pci_address, "0000:03:00.0");
  size_t pass = 0, fail = 0, skip = 0;
  for (const auto& g : doc->gates) {
    pass += g.status == GateStatus::kPass;
    fail += g.status == GateStatus::kFail;
    skip += g.status == GateStatus::kSkip;
  }
  EXPECT_GT(pass, 0u);
  EXPECT_EQ(fail, 1u);
  EXPECT_GT(skip, 0u);
  EXPECT_EQ(doc->exit_code, 1);
}

TEST(ResultDocuments, BrokenJsonNamesFileAndLine) {
  EXPECT_EQ(BenchError("{\n  \"schema\": \"gpudoctor.bench/1\",\n  \"benchmarks\": [,]\n}"),
            "b.json:3: not valid JSON");
  EXPECT_EQ(VerifyError(""), "v.json:1: not valid JSON");
  EXPECT_EQ(BenchError("[1, 2]"), "b.json: expected a JSON object, found an array");
}

TEST(ResultDocuments, WrongKindOfDocumentIsNamed) {
  EXPECT_EQ(VerifyError(Bench(kEntry)),
            "v.json: not a `gpudoctor verify --json` document: it is a `gpudoctor bench --json` document");
  const std::string verify = R"({"schema_version": 1, "gates": []})";
  EXPECT_EQ(BenchError(verify),
            "b.json: not a `gpudoctor bench --json` document: it is a `gpudoctor verify --json` document");
  const std::string snapshot = R"({"schema": "gpudoctor.snapshot", "schema_version": 1})";
  EXPECT_NE(BenchError(snapshot).find("it is a snapshot from `gpudoctor info --save`"), std::string::npos);
  EXPECT_NE(VerifyError(R"({"schema": "gpudoctor.check", "schema_version": 1})")
                .find("it is a `gpudoctor check --json` document"),
            std::string::npos);
  EXPECT_EQ(BenchError(R"({"schema": "acme.bench/1"})"),
            "b.json: not a `gpudoctor bench --json` document: it is a document with schema \"acme.bench/1\"");
  EXPECT_EQ(BenchError(R"({"a": 1})"), "b.json: not a `gpudoctor bench --json` document");
  EXPECT_EQ(VerifyError(R"({"a": 1})"), "v.json: not a `gpudoctor verify --json` document");
  // A version that is not a number names no schema.
  EXPECT_EQ(VerifyError(R"({"schema_version": "1", "gates": []})"),
            "v.json: not a `gpudoctor verify --json` document");
}

TEST(ResultDocuments, NewerSchemasAreRefused) {
  EXPECT_EQ(BenchError(R"({"schema": "gpudoctor.bench/2", "benchmarks": []})"),
            "b.json: bench schema \"gpudoctor.bench/2\" is newer than this gpudoctor reads "
            "(\"gpudoctor.bench/1\")");
  EXPECT_NE(VerifyError(R"({"schema": "gpudoctor.verify/2", "gates": []})").find("newer than this gpudoctor"),
            std::string::npos);
  EXPECT_NE(VerifyError(R"({"schema_version": 2, "gates": []})").find("newer than this gpudoctor reads"),
            std::string::npos);
  EXPECT_NE(VerifyError(R"({"schema_version": 0, "gates": []})").find("names no valid version"),
            std::string::npos);
  EXPECT_NE(BenchError(R"({"schema": "gpudoctor.bench/x", "benchmarks": []})").find("names no valid version"),
            std::string::npos);
}

TEST(ResultDocuments, TheSchemaConventionAndItsOlderForms) {
  auto schema = [](const char* text) { return ReadDocumentSchema(JsonValue::parse(text)); };
  EXPECT_EQ(SchemaName("collectives", 1), "gpudoctor.collectives/1");
  DocumentSchema now = schema(R"({"schema": "gpudoctor.check/1"})");
  EXPECT_EQ(now.kind, "check");
  EXPECT_EQ(now.major, 1);
  DocumentSchema old_check = schema(R"({"schema": "gpudoctor.check", "schema_version": 1})");
  EXPECT_EQ(old_check.kind, "check");
  EXPECT_EQ(old_check.major, 1);
  DocumentSchema old_snapshot = schema(R"({"schema": "gpudoctor.snapshot", "schema_version": 2})");
  EXPECT_EQ(old_snapshot.kind, "snapshot");
  EXPECT_EQ(old_snapshot.major, 2);
  DocumentSchema old_verify = schema(R"({"schema_version": 1, "gates": []})");
  EXPECT_EQ(old_verify.kind, "verify");
  EXPECT_EQ(old_verify.major, 1);
  EXPECT_EQ(schema(R"({"schema_version": 1})").kind, "");  // no gates: not verify's old form
  EXPECT_EQ(schema(R"({"schema": "other.thing/1"})").kind, "");
  EXPECT_EQ(schema("[1]").kind, "");
}

TEST(ResultDocuments, WrongTypesNameTheirPath) {
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

TEST(ResultDocuments, MissingFieldsAreNamed) {
  EXPECT_EQ(BenchError(Bench(R"("unit": "GB/s", "verdict": "ok", "check": "passed", "points": [])")),
            "b.json: benchmarks[0]: \"id\" is missing");
  EXPECT_EQ(BenchError(Bench(kEntry)), "b.json: benchmarks[0]: \"points\" is missing");
  EXPECT_EQ(BenchError(Bench(kEntry + R"(, "points": [{"value": 1}])")),
            "b.json: benchmarks[0].points[0]: \"x\" is missing");
  EXPECT_EQ(BenchError(R"({"schema": "gpudoctor.bench/1"})"), "b.json: document: \"benchmarks\" is missing");
  EXPECT_EQ(VerifyError(R"({"schema_version": 1, "gates": [{"status": "pass"}]})"),
            "v.json: gates[0]: \"gate\" is missing");
}

TEST(ResultDocuments, EnumeratedValuesAreChecked) {
  EXPECT_EQ(BenchError(Bench(R"("id": "a.b", "verdict": "great", "check": "passed", "points": [])")),
            "b.json: benchmarks[0].verdict: \"great\" is not ok, low, failed or skipped");
  EXPECT_EQ(BenchError(Bench(R"("id": "a.b", "verdict": "ok", "check": "maybe", "points": [])")),
            "b.json: benchmarks[0].check: \"maybe\" is not passed, \"failed: ...\" or not run");
  EXPECT_EQ(VerifyError(R"({"schema_version": 1, "gates": [{"gate": "kernel", "status": "ok"}]})"),
            "v.json: gates[0].status: \"ok\" is not pass, fail or skip");
  EXPECT_EQ(
      VerifyError(
          R"({"schema_version": 1, "gates": [], "libraries": [{"name": "cublas", "status": "missing"}]})"),
      "v.json: libraries[0].status: \"missing\" is not loaded, absent, broken, not-tried or not-probed");
  EXPECT_NE(
      BenchError(R"({"schema": "gpudoctor.bench/1", "benchmarks": [], "findings": [{"severity": "fatal"}]})")
          .find("findings[0].severity"),
      std::string::npos);
}

TEST(ResultDocuments, NullsAndDefaults) {
  auto doc =
      BenchReportFromJson(Bench(R"("id": "gemm.bf16", "verdict": "failed", "check": "failed: wrong sums",
                                     "peak": null, "best": null, "points": [{"x": 8192, "value": null}])"),
                          "b.json");
  ASSERT_TRUE(doc.ok()) << doc.error().message;
  const BenchResult& e = doc->benchmarks[0];
  EXPECT_EQ(e.spec.group, "gemm");  // from the id
  EXPECT_EQ(e.spec.title, "gemm.bf16");
  EXPECT_TRUE(e.spec.higher_is_better);
  EXPECT_FALSE(e.peak.has_value());
  EXPECT_FALSE(e.best.has_value());
  ASSERT_EQ(e.points.size(), 1u);
  EXPECT_TRUE(std::isnan(e.points[0].value));
  EXPECT_EQ(e.check, BenchCheck::kFailed);
  EXPECT_EQ(e.check_detail, "wrong sums");
  EXPECT_EQ(e.verdict, BenchVerdict::kFailed);

  auto v = VerifyReportFromJson(R"({"schema_version": 1, "device": null, "backend": null,
      "gates": [{"gate": "gemm_fp32", "status": "pass", "hint": null, "elapsed_ms": null,
                 "figures": [{"label": "rate", "value": null, "unit": "TFLOP/s"}]}]})",
                                "v.json");
  ASSERT_TRUE(v.ok()) << v.error().message;
  EXPECT_FALSE(v->device.has_value());
  EXPECT_EQ(v->backend, "");
  ASSERT_EQ(v->gates[0].figures.size(), 1u);
  EXPECT_TRUE(std::isnan(v->gates[0].figures[0].value));
  EXPECT_EQ(v->gates[0].elapsed_ms, 0);
  EXPECT_EQ(v->exit_code, 0);  // absent: no gate failed
}

VerifyReport SampleVerify() {
  VerifyReport r;
  r.tool_version = "0.1.0";
  r.backend = "cuda";
  r.runtime_version = "CUDA driver API 13.0";
  r.level = VerifyLevel::kStandard;
  r.device = DeviceInfo{{1, "NVIDIA H200", "0000:17:00.0"}, "sm_90", 150ull << 30, 132u};
  r.devices = {DeviceInfo{{0, "NVIDIA H200", "0000:06:00.0"}, "sm_90", 150ull << 30, std::nullopt},
               *r.device};
  r.libraries = {{"runtime", "libcuda", LoadStatus::kLoaded, "/usr/lib/libcuda.so.1", "system",
                  "system loader", "13.0", ""},
                 {"blas", "cublas", LoadStatus::kAbsent, "", "", "", "", "not found"}};
  GateResult copy;
  copy.gate = "copy";
  copy.status = GateStatus::kPass;
  copy.summary = "256 MiB both ways intact";
  copy.figures = {{"host to device", 54.9, "GB/s"}, {"device to host", 55.2, "GB/s"}};
  copy.details = {"pinned buffers"};
  copy.elapsed_ms = 812.5;
  GateResult kernel;
  kernel.gate = "kernel";
  kernel.status = GateStatus::kFail;
  kernel.summary = "wrong result at index 7";
  kernel.hint = "reinstall the driver";
  kernel.findings = {"a finding"};
  kernel.elapsed_ms = 95;
  GateResult memtest;
  memtest.gate = "memtest";
  memtest.status = GateStatus::kSkip;
  memtest.summary = "skipped: needs kernel (failed)";
  r.gates = {copy, kernel, memtest};
  r.findings = {"devices: one more GPU on the bus"};
  r.advice = "install the driver";
  r.inject = "wrong-result";
  r.elapsed_ms = 1234.5;
  r.exit_code = 1;
  return r;
}

// Written, read back and written again, a report gives the same text: every field the document carries
// comes back.
TEST(ResultDocuments, AVerifyReportSurvivesARoundTrip) {
  const std::string first = VerifyReportToJson(SampleVerify());
  EXPECT_NE(first.find("\"schema\": \"gpudoctor.verify/1\""), std::string::npos) << first;
  EXPECT_EQ(first.find("schema_version"), std::string::npos);
  auto back = VerifyReportFromJson(first, "v.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(VerifyReportToJson(*back), first);
  EXPECT_EQ(back->level, VerifyLevel::kStandard);
  ASSERT_TRUE(back->device.has_value());
  EXPECT_EQ(back->device->index, 1);
  EXPECT_EQ(back->device->compute_units, 132u);
  EXPECT_FALSE(back->devices[0].compute_units.has_value());
  EXPECT_EQ(back->libraries[0].where, "system loader");
  EXPECT_EQ(back->gates[1].hint, "reinstall the driver");
  EXPECT_EQ(back->gates[0].figures[1].label, "device to host");
  EXPECT_EQ(back->exit_code, 1);
  EXPECT_EQ(VerifyVerdict(*back), VerifyVerdict(SampleVerify()));
}

// What the last release wrote reads, and writes again in the current form, which reads the same.
TEST(ResultDocuments, TheLastReleasesDocumentsComeBackInTheCurrentForm) {
  auto old_verify =
      VerifyReportFromJson(ReadFileText(kReports + "verify-fake-wrong-result.json"), "verify.json");
  ASSERT_TRUE(old_verify.ok()) << old_verify.error().message;
  const std::string verify_now = VerifyReportToJson(*old_verify);
  auto verify_again = VerifyReportFromJson(verify_now, "now.json");
  ASSERT_TRUE(verify_again.ok()) << verify_again.error().message;
  EXPECT_EQ(VerifyReportToJson(*verify_again), verify_now);
  EXPECT_EQ(verify_again->gates.size(), old_verify->gates.size());

  for (const char* file : {"bench-h200-synthetic.json", "bench-fake-memory-latency.json"}) {
    auto old_bench = BenchReportFromJson(ReadFileText(kReports + file), file);
    ASSERT_TRUE(old_bench.ok()) << old_bench.error().message;
    const std::string bench_now = BenchReportToJson(*old_bench);
    auto bench_again = BenchReportFromJson(bench_now, "now.json");
    ASSERT_TRUE(bench_again.ok()) << bench_again.error().message;
    EXPECT_EQ(BenchReportToJson(*bench_again), bench_now) << file;
    EXPECT_EQ(bench_again->benchmarks.size(), old_bench->benchmarks.size()) << file;
    EXPECT_EQ(bench_again->findings.size(), old_bench->findings.size()) << file;
  }
}

TEST(ResultDocuments, ABenchReportSurvivesARoundTrip) {
  BenchReport r;
  r.tool_version = "0.1.0";
  r.level = BenchLevel::kStandard;
  r.device = BenchDevice{{0, "NVIDIA H200", "0000:17:00.0", "sm_90", 150ull << 30, 132u}, "cuda"};
  r.runtime_version = "CUDA driver API 13.0";
  r.peak_model = "H200";
  r.peak_model_source = "PCI id 10de:2335";
  r.link_now = "PCIe 5.0 x16";
  r.link_max = "PCIe 5.0 x16";
  r.duration_s = 12.34;
  BenchResult triad;
  triad.spec = {"memory.triad", "memory", "Device memory: triad", "GB/s", "array size", "bytes", true};
  triad.points = {{1 << 20, 900}, {1 << 30, 4300}};
  triad.best = 4300;
  triad.peak = 4800;
  triad.percent_of_peak = 89.6;
  triad.peak_source = "knowledge base: H200";
  triad.check = BenchCheck::kPassed;
  BenchResult wrong;
  wrong.spec = {"latency.submit", "latency", "Kernel launch: submit", "us", "launches", "count", false};
  wrong.points = {{1, std::nan("")}};
  wrong.check = BenchCheck::kFailed;
  wrong.check_detail = "3 words wrong";
  wrong.verdict = BenchVerdict::kFailed;
  wrong.note = "a note";
  r.benchmarks = {triad, wrong};
  r.findings = {{"bench.low", Severity::kWarning, "low", {"e1", "e2"}, "fix it"}};
  r.exit_code = 1;
  const std::string first = BenchReportToJson(r);
  auto back = BenchReportFromJson(first, "b.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(BenchReportToJson(*back), first);
  EXPECT_EQ(back->level, BenchLevel::kStandard);
  EXPECT_EQ(back->peak_model_source, "PCI id 10de:2335");
  EXPECT_EQ(back->device->memory_total_bytes, 150ull << 30);
  EXPECT_EQ(back->benchmarks[0].peak_source, "knowledge base: H200");
  EXPECT_EQ(back->benchmarks[1].check_detail, "3 words wrong");
  EXPECT_FALSE(back->benchmarks[1].spec.higher_is_better);
  EXPECT_TRUE(std::isnan(back->benchmarks[1].points[0].value));
  EXPECT_EQ(back->findings[0].severity, Severity::kWarning);
  EXPECT_EQ(back->exit_code, 1);
}

CheckReport SampleCheck() {
  Snapshot s;
  s.tool_version = "0.1.0";
  s.host_name = "node017";
  s.sysroot = "/";
  s.live_machine = true;
  s.os.family = OsFamily::kLinux;
  s.os.distro_name = "Ubuntu 24.04";
  s.os.kernel_release = "6.8.0";
  s.os.wsl = true;
  Gpu g;
  g.pci_address = "0000:03:00.0";
  g.vendor = GpuVendor::kAmd;
  g.name = "Radeon RX 7900 XTX";
  g.architecture = "gfx1100";
  g.integrated = false;
  g.driver = "amdgpu";
  s.gpus.push_back(g);
  PythonEnv env;
  env.site_packages = "/venv/lib/python3.12/site-packages";
  env.torch = TorchInstall{"2.5.1+rocm6.2", "", "6.2.41133", "/venv/lib/python3.12/site-packages/torch"};
  s.python_envs.push_back(env);
  s.warnings = {"could not read /proc/x"};
  Finding ok;
  ok.id = "hardware.gpus_found";
  ok.title = "1 GPU";
  Finding bad;
  bad.id = "runtime.device_access";
  bad.layer = Layer::kRuntime;
  bad.severity = Severity::kError;
  bad.subject = "/dev/kfd";
  bad.title = "cannot open /dev/kfd";
  bad.evidence = {"required read-write, found read-only"};
  bad.fix_summary = "join the render group";
  bad.fix = {FixAction::Bash("sudo usermod -aG render $USER"),
             FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "11.0.0"),
             FixAction::UnsetEnv("HIP_VISIBLE_DEVICES"), FixAction::Manual("log out and back in")};
  bad.link = "https://rocm.docs.amd.com/";
  bad.alternatives = {FixOption{"or run as root", {FixAction::Bash("sudo python3 train.py")}, ""},
                      FixOption{"or ask an administrator", {}, "https://example.org/admin"}};
  bad.unconfirmed = {"overrides.toml:45", "pytorch_routes.toml:53"};
  return MakeCheckReport(s, {ok, bad}, Shell::kPowerShell, 2, KnowledgeStamp{"2026-12-01", "embedded"});
}

TEST(ResultDocuments, ACheckReportSurvivesARoundTrip) {
  const CheckReport sample = SampleCheck();
  EXPECT_EQ(sample.findings.front().id, "runtime.device_access");  // worst first
  const std::string first = CheckReportToJson(sample);
  EXPECT_NE(first.find("\"schema\": \"gpudoctor.check/1\""), std::string::npos) << first;
  auto back = CheckReportFromJson(first, "c.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(CheckReportToJson(*back), first);
  EXPECT_EQ(back->findings, sample.findings);
  EXPECT_EQ(back->shell, Shell::kPowerShell);
  EXPECT_EQ(back->exit_code, 2);
  EXPECT_EQ(back->machine.host_name, "node017");
  EXPECT_EQ(back->machine.gpus[0].vendor, GpuVendor::kAmd);
  EXPECT_EQ(back->machine.torch[0].hip, "6.2.41133");
  EXPECT_FALSE(back->machine.nvidia_driver.has_value());
  EXPECT_EQ(back->knowledge.as_of, "2026-12-01");
}

TEST(ResultDocuments, TheLastReleasesCheckAndCollectivesDocumentsRead) {
  auto check = CheckReportFromJson(R"({"schema": "gpudoctor.check", "schema_version": 1, "exit_code": 1,
      "machine": {"host_name": "h", "nvidia_driver": "570.124.06", "torch": [{"version": "2.7.1"}]},
      "findings": [{"id": "a.b", "layer": "environment", "severity": "warning", "title": "t",
                    "fix": {"summary": "s", "actions": [{"kind": "command", "commands":
                            {"bash": "x", "powershell": null, "cmd": null}}], "lines": []}}]})",
                                   "old.check.json");
  ASSERT_TRUE(check.ok()) << check.error().message;
  EXPECT_EQ(check->machine.nvidia_driver, "570.124.06");
  ASSERT_EQ(check->findings.size(), 1u);
  EXPECT_EQ(check->findings[0].layer, Layer::kEnvironment);
  EXPECT_EQ(check->findings[0].fix, std::vector<FixAction>{FixAction::Bash("x")});

  auto collectives = CollectivesReportFromJson(
      R"({"schema": "gpudoctor.collectives", "schema_version": 1, "mode": "local", "launcher": "none",
          "world_size": 2, "ranks": [{"rank": 0, "host": "a", "device": 0}, {"rank": 1, "host": "a", "device": null}],
          "collectives": {"status": "ran", "results": [{"op": "all_reduce", "size_bytes": 1024, "busbw_gbs": 1.5}]},
          "p2p": {"status": "skipped", "matrix": null}, "exit_code": 0})",
      "old.collectives.json");
  ASSERT_TRUE(collectives.ok()) << collectives.error().message;
  EXPECT_EQ(collectives->world_size, 2);
  EXPECT_EQ(collectives->ranks[1].device, -1);
  ASSERT_EQ(collectives->rows.size(), 1u);
  EXPECT_EQ(collectives->rows[0].op, CollectiveOp::kAllReduce);
  EXPECT_DOUBLE_EQ(collectives->rows[0].busbw_gbs, 1.5);

  EXPECT_EQ(CheckReportFromJson(
                R"({"schema": "gpudoctor.check/1", "findings": [{"id": "a", "severity": "bad"}]})", "c.json")
                .error()
                .message,
            "c.json: findings[0].severity: \"bad\" is not ok, info, warning or error");
  EXPECT_EQ(CollectivesReportFromJson(R"({"schema": "gpudoctor.collectives/1", "collectives": {"results":
                                          [{"op": "all_to_most"}]}})",
                                      "c.json")
                .error()
                .message,
            "c.json: collectives.results[0].op: \"all_to_most\" is not a collective this gpudoctor knows");
}

TEST(ResultDocuments, ACollectivesReportSurvivesARoundTrip) {
  CollectivesReport r;
  r.mode = "mpi";
  r.launcher = Launcher::kSrun;
  r.mpi_library = "Open MPI 4.1.4";
  r.world_size = 2;
  r.backend = "cuda";
  r.library = "NCCL 2.27.3 (/usr/lib/libnccl.so.2, system)";
  r.options.ops = {CollectiveOp::kAllReduce, CollectiveOp::kBroadcast};
  r.options.max_bytes = 1 << 20;
  r.ranks = {{0, "a", 0, 8, 0, "NVIDIA H200", "0000:17:00.0", "ran", ""},
             {1, "b", 0, 8, -1, "", "", "failed", "no device"}};
  r.collectives_status = "ran";
  r.rows = {{CollectiveOp::kAllReduce, 1024, 256, 10.5, 0.1, 0.1, 0, 512, 2, ""},
            {CollectiveOp::kBroadcast, 1 << 20, 262144, 30.25, 34.6, 34.6, 3, 524288, 2, "a rank failed"}};
  r.p2p_status = "ran";
  P2pMatrix m;
  m.devices = {{0, "NVIDIA H200", "0000:17:00.0"}, {1, "NVIDIA H200", "0000:18:00.0"}};
  m.bytes = 1 << 20;
  m.bandwidth_gbs = {{0, 300.5}, {301.25, 0}};
  m.latency_us = {{0, 2.5}, {2.75, 0}};
  m.peer_access = {{true, true}, {true, true}};
  m.correct = {{true, true}, {true, false}};
  r.p2p = m;
  r.warnings = {"one rank had no GPU"};
  r.exit_code = 1;
  const std::string first = CollectivesReportToJson(r);
  EXPECT_NE(first.find("\"schema\": \"gpudoctor.collectives/1\""), std::string::npos) << first;
  auto back = CollectivesReportFromJson(first, "c.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(CollectivesReportToJson(*back), first);
  EXPECT_EQ(back->launcher, Launcher::kSrun);
  EXPECT_EQ(back->ranks[1].reason, "no device");
  EXPECT_EQ(back->rows[1].wrong, 3u);
  ASSERT_TRUE(back->p2p.has_value());
  EXPECT_FALSE(back->p2p->correct[1][1]);
}

}  // namespace
}  // namespace gpudoctor
