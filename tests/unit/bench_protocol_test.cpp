// The bench worker protocol without processes: arguments out and back, the JSON lines out and back, noise
// ignored, and how a worker that crashed, hung or could not start becomes results and a list to rerun.
#include <gtest/gtest.h>

#include "bench/bench_protocol.h"
#include "bench_test_util.h"
#include "worker/worker_protocol.h"
#include "worker/worker_watchdog.h"

namespace gpudoctor {
namespace {

BenchWorkerRequest MemoryRequest() {
  BenchWorkerRequest w;
  w.group = "memory";
  w.ids = {"memory.copy", "memory.mul", "memory.add", "memory.triad", "memory.dot"};
  return w;
}

std::vector<BenchSpec> BenchSpecs() {
  return AllBenchSpecs();
}

TEST(BenchProtocol, ArgumentsRoundTrip) {
  BenchWorkerRequest w = MemoryRequest();
  w.target.backend = BackendKind::kHip;
  w.options.level = BenchLevel::kStandard;
  w.target.device = "0000:2a:00.0";
  w.options.plant_wrong = true;
  w.target.fake_script_path = "/tmp/script.json";
  w.target.limit = std::chrono::seconds(7);
  w.target.arch_by_pci["0000:c1:00.0"] = "gfx1100";
  auto args = EncodeWorkerRequest(ToWorkerRequest(w));
  ASSERT_GE(args.size(), 2u);
  EXPECT_EQ(args[0], "__worker");
  EXPECT_EQ(args[1], "bench");
  auto decoded = DecodeWorkerRequest(args);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  auto back = BenchRequestFromWorker(*decoded);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->group, "memory");
  EXPECT_EQ(back->ids, w.ids);
  EXPECT_EQ(back->target.backend, BackendKind::kHip);
  EXPECT_EQ(back->options.level, BenchLevel::kStandard);
  EXPECT_EQ(back->target.device, "0000:2a:00.0");
  EXPECT_TRUE(back->options.plant_wrong);
  EXPECT_EQ(back->target.fake_script_path, "/tmp/script.json");
  EXPECT_EQ(back->target.limit, std::chrono::seconds(7));
  EXPECT_EQ(back->target.arch_by_pci.at("0000:c1:00.0"), "gfx1100");

  auto bench_of = [](std::vector<std::string> tail) -> Result<BenchWorkerRequest> {
    tail.insert(tail.begin(), {"__worker", "bench", "--set", "group=memory"});
    auto request = DecodeWorkerRequest(tail);
    if (!request) return request.error();
    return BenchRequestFromWorker(*request);
  };
  EXPECT_TRUE(bench_of({"--items", "a"}).ok());
  EXPECT_FALSE(bench_of({}).ok());  // no --items
  EXPECT_FALSE(bench_of({"--items", "a,,b"}).ok());
  EXPECT_FALSE(bench_of({"--items", "a", "--set", "level=long"}).ok());
  EXPECT_FALSE(bench_of({"--items", "a", "--set", "inject=hang"}).ok());
  EXPECT_FALSE(bench_of({"--items", "a", "--limit"}).ok());
  EXPECT_FALSE(bench_of({"--items", "a", "--limit", "0"}).ok());
}

TEST(BenchProtocol, ResultAndTelemetryLinesRoundTripAmidNoise) {
  BenchResult r = MadeResult("memory.triad", 4100.5);
  r.check = BenchCheck::kFailed;
  r.check_detail = "at 1.0 GiB per array: 1 of 268435456 elements differ";
  r.note = "four 16-byte groups";
  r.elapsed_ms = 812;
  TelemetrySample t;
  t.sm_clock_mhz = 1980;
  t.pcie_gen = 5;
  t.pcie_width = 16;
  t.power_limit_watts = 450.5;
  t.throttle_reasons_mask = 0x4;
  t.throttle_reasons = {"sw_power_cap"};
  t.processes = {{17, std::nullopt}, {4242, 1024}};
  std::string text = "vendor library chatter\n" + WorkerBeginLine("memory.triad") + "\n{broken json\n" +
                     BenchTelemetryLine({"memory.triad", t, 4242}) + "\n" + BenchResultLine(r) + "\n";
  auto lines = ReadWorkerLines(text);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0].type, "begin");
  EXPECT_EQ(lines[0].id, "memory.triad");
  EXPECT_EQ(lines[1].type, "telemetry");
  EXPECT_EQ(lines[2].type, "result");
  EXPECT_EQ(lines[2].id, "memory.triad");
  auto result = BenchResultFromLine(lines[2].json);
  ASSERT_TRUE(result.ok()) << result.error().message;
  const BenchResult& back = *result;
  EXPECT_EQ(back.spec.id, "memory.triad");
  EXPECT_EQ(back.spec.group, "memory");
  EXPECT_EQ(back.check, BenchCheck::kFailed);
  EXPECT_EQ(back.check_detail, r.check_detail);
  EXPECT_EQ(back.best, 4100.5);
  ASSERT_EQ(back.points.size(), 2u);
  EXPECT_EQ(back.points[1].x, 1073741824.0);
  EXPECT_EQ(back.note, r.note);
  EXPECT_EQ(back.run, BenchRun::kMeasured);
  EXPECT_DOUBLE_EQ(back.elapsed_ms, 812);
  auto telemetry = BenchTelemetryFromLine(lines[1].json);
  ASSERT_TRUE(telemetry.ok()) << telemetry.error().message;
  EXPECT_EQ(telemetry->worker_pid, 4242u);
  EXPECT_EQ(telemetry->reading.sm_clock_mhz, 1980u);
  EXPECT_EQ(telemetry->reading.pcie_width, 16u);
  EXPECT_FALSE(telemetry->reading.temperature_c.has_value());
  EXPECT_EQ(telemetry->reading.throttle_reasons, std::vector<std::string>{"sw_power_cap"});
  EXPECT_DOUBLE_EQ(telemetry->reading.power_limit_watts.value(), 450.5);
  ASSERT_EQ(telemetry->reading.processes.size(), 2u);
  EXPECT_EQ(telemetry->reading.processes[1].pid, 4242u);
  EXPECT_EQ(telemetry->reading.processes[1].used_bytes, 1024u);
  EXPECT_FALSE(
      BenchTelemetryFromLine(R"({"type": "telemetry", "id": "x", "reading": {"power_watts": "hot"}})").ok());
}

TEST(BenchProtocol, ACompleteWorkerAnswersEveryBenchmarkInOrder) {
  BenchWorkerRequest w = MemoryRequest();
  ProcessResult p;
  p.exit_code = 0;
  for (auto it = w.ids.rbegin(); it != w.ids.rend(); ++it)  // out of order on purpose
    p.stdout_text += BenchResultLine(MadeResult(*it, 100)) + "\n";
  BenchStepOutcome out = InterpretBenchWorker(w, p, 60, BenchSpecs());
  ASSERT_EQ(out.results.size(), 5u);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(out.results[i].spec.id, w.ids[i]);
  EXPECT_TRUE(out.rerun.empty());
}

TEST(BenchProtocol, ACrashFailsTheBenchmarkItHappenedInAndHandsBackTheRest) {
  BenchWorkerRequest w = MemoryRequest();
  ProcessResult p;
  p.term_signal = 11;
  p.stdout_text = WorkerBeginLine("memory.copy") + "\n" + BenchResultLine(MadeResult("memory.copy", 100)) +
                  "\n" + WorkerBeginLine("memory.mul") + "\n";
  BenchStepOutcome out = InterpretBenchWorker(w, p, 60, BenchSpecs());
  ASSERT_EQ(out.results.size(), 2u);
  EXPECT_EQ(out.results[0].run, BenchRun::kMeasured);
  const BenchResult& mul = out.results[1];
  EXPECT_EQ(mul.spec.id, "memory.mul");
  EXPECT_EQ(mul.spec.title, "Device memory: mul (b = s * c)");  // the spec comes from the list
  EXPECT_EQ(mul.run, BenchRun::kError);
  EXPECT_NE(mul.note.find("worker was killed by signal 11 (segmentation fault) during memory.mul"),
            std::string::npos)
      << mul.note;
  EXPECT_EQ(out.rerun, (std::vector<std::string>{"memory.add", "memory.triad", "memory.dot"}));
}

TEST(BenchProtocol, HangsAreNamedWhetherTheWatchdogOrTheParentEndedThem) {
  BenchWorkerRequest w = MemoryRequest();
  ProcessResult watchdog;
  watchdog.exit_code = kWatchdogExitCode;
  watchdog.stdout_text = WorkerBeginLine("memory.copy") + "\n" + WorkerTimeoutLine("memory.copy", 45) + "\n";
  BenchStepOutcome out = InterpretBenchWorker(w, watchdog, 300, BenchSpecs());
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_NE(out.results[0].note.find("timed out after 45 s during memory.copy (the worker stopped itself)"),
            std::string::npos)
      << out.results[0].note;
  EXPECT_NE(out.results[0].note.find("hung"), std::string::npos);
  EXPECT_EQ(out.rerun.size(), 4u);

  ProcessResult killed;
  killed.timed_out = true;
  out = InterpretBenchWorker(w, killed, 300, BenchSpecs());
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_NE(out.results[0].note.find("timed out after 300 s during memory.copy (the worker was killed)"),
            std::string::npos);
}

TEST(BenchProtocol, ASetupErrorAnswersEveryBenchmarkWithIt) {
  BenchWorkerRequest w = MemoryRequest();
  ProcessResult p;
  p.exit_code = 0;
  p.stdout_text = WorkerErrorLine(EnvError("the fake runtime is absent", "edit the fake script")) + "\n";
  BenchStepOutcome out = InterpretBenchWorker(w, p, 60, BenchSpecs());
  ASSERT_EQ(out.results.size(), 5u);
  for (const auto& r : out.results) {
    EXPECT_EQ(r.run, BenchRun::kError);
    EXPECT_EQ(r.note, "the fake runtime is absent (edit the fake script)");
  }
  EXPECT_TRUE(out.rerun.empty());

  ProcessResult silent;
  silent.exit_code = 3;
  out = InterpretBenchWorker(w, silent, 60, BenchSpecs());
  ASSERT_EQ(out.results.size(), 1u);
  EXPECT_NE(out.results[0].note.find("worker exited with code 3 during memory.copy without a result"),
            std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
