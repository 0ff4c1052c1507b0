// The verify flow against a scripted executor (no processes, no GPU): gate order, skipping of dependants,
// exit codes, backend choice, device selection, bus matching, reading dead workers, the JSON round trip and
// the rendered report.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "gates/device_choice.h"
#include "gates/device_match.h"
#include "gates/gate_protocol.h"
#include "gates/verify_json.h"
#include "gates/verify_report.h"
#include "gates/verify_runner.h"
#include "worker/worker_protocol.h"

namespace gpudoctor {
namespace {

// Answers each gate from a table; unlisted gates pass. Records what ran, and which gates went to one
// worker together.
class ScriptedExecutor final : public GateExecutor {
 public:
  std::map<std::string, GateResult> answers;
  std::vector<std::string> ran;
  std::vector<std::vector<std::string>> workers;  // the gates of each Run call
  std::vector<DeviceInfo> devices = {{0, "Test GPU", "0000:17:00.0", "sm_90", 8ull << 30, 132u}};

  std::vector<GateResult> Run(const GateRequest& request) override {
    std::vector<GateResult> out;
    workers.emplace_back();
    for (GateId gate : request.gates) {
      workers.back().push_back(SpecOf(gate).name);
      out.push_back(Answer(request, gate));
      if (out.back().status != GateStatus::kPass) break;
    }
    return out;
  }

 private:
  GateResult Answer(const GateRequest& request, GateId gate) {
    std::string name = SpecOf(gate).name;
    ran.push_back(std::string(ToString(request.target.backend)) + ":" + name);
    if (auto it = answers.find(std::string(ToString(request.target.backend)) + ":" + name);
        it != answers.end())
      return it->second;
    if (auto it = answers.find(name); it != answers.end()) return it->second;
    GateResult r;
    r.gate = name;
    r.status = GateStatus::kPass;
    r.summary = "ok";
    if (gate == GateId::kDevices) r.devices = devices;
    if (gate == GateId::kRuntime) {
      r.runtime_version = "runtime 1.0";
      r.libraries.push_back(
          {"runtime", "libtest", LoadStatus::kLoaded, "/lib/libtest.so", "system", "system loader", "1", ""});
    }
    return r;
  }
};

GateResult Answer(const char* gate, GateStatus st, const char* summary) {
  GateResult r;
  r.gate = gate;
  r.status = st;
  r.summary = summary;
  return r;
}

Snapshot WithGpu(GpuVendor vendor, const char* pci) {
  Snapshot s;
  Gpu g;
  g.vendor = vendor;
  g.pci_address = pci;
  g.name = vendor == GpuVendor::kAmd ? "Radeon RX 7900 XTX" : "NVIDIA H200";
  g.architecture = vendor == GpuVendor::kAmd ? "gfx1100" : "sm_90";
  g.driver = vendor == GpuVendor::kAmd ? "amdgpu" : "nvidia";
  s.gpus.push_back(g);
  return s;
}

const GateResult* FindGate(const VerifyReport& r, const char* gate) {
  for (const auto& g : r.gates)
    if (g.gate == gate) return &g;
  return nullptr;
}

TEST(GatesRunner, AllPassRunsEveryGateInOrder) {
  ScriptedExecutor exec;
  VerifyRequest req;
  auto report = RunVerify(req, WithGpu(GpuVendor::kNvidia, "0000:17:00.0"), Environment(), exec);
  EXPECT_EQ(report.exit_code, 0);
  ASSERT_EQ(report.gates.size(), AllGates().size());
  for (size_t i = 0; i < AllGates().size(); ++i) EXPECT_EQ(report.gates[i].gate, AllGates()[i].name);
  EXPECT_EQ(report.backend, "cuda");
  ASSERT_TRUE(report.device);
  EXPECT_EQ(report.device->pci_address, "0000:17:00.0");
  EXPECT_TRUE(report.findings.empty());
}

TEST(GatesRunner, AFailedGateSkipsOnlyItsDependants) {
  ScriptedExecutor exec;
  exec.answers["kernel"] = Answer("kernel", GateStatus::kFail, "wrong result");
  auto report = RunVerify(VerifyRequest{}, Snapshot{}, Environment(), exec);
  EXPECT_EQ(report.exit_code, 1);
  EXPECT_EQ(FindGate(report, "kernel")->status, GateStatus::kFail);
  EXPECT_EQ(FindGate(report, "memtest")->status, GateStatus::kSkip);
  EXPECT_EQ(FindGate(report, "memtest")->summary, "skipped: needs kernel (failed)");
  EXPECT_EQ(FindGate(report, "gemm_bf16")->status, GateStatus::kPass);
  EXPECT_EQ(FindGate(report, "sustained")->status, GateStatus::kPass);
  int failed = 0;
  for (const auto& g : report.gates) failed += g.status == GateStatus::kFail;
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(VerifyVerdict(report).rfind("1 gate failed: kernel", 0), 0u);
}

TEST(GatesRunner, SkipsChainThroughSkippedGates) {
  ScriptedExecutor exec;
  exec.answers["context"] = Answer("context", GateStatus::kFail, "cuDevicePrimaryCtxRetain failed");
  auto report = RunVerify(VerifyRequest{}, Snapshot{}, Environment(), exec);
  EXPECT_EQ(report.exit_code, 1);
  EXPECT_EQ(FindGate(report, "copy")->summary, "skipped: needs context (failed)");
  EXPECT_EQ(FindGate(report, "kernel")->summary, "skipped: needs copy (skipped)");
  EXPECT_EQ(FindGate(report, "sustained")->status, GateStatus::kSkip);
}

TEST(GatesRunner, NoRuntimeAnywhereIsExitTwoWithInstallAdvice) {
  ScriptedExecutor exec;
  exec.answers["runtime"] = Answer("runtime", GateStatus::kFail, "not found");
  auto report = RunVerify(VerifyRequest{}, WithGpu(GpuVendor::kAmd, "0000:c1:00.0"), Environment(), exec);
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_NE(report.advice.find("ROCm"), std::string::npos);
  EXPECT_EQ(FindGate(report, "devices")->status, GateStatus::kSkip);
  EXPECT_EQ(exec.ran, std::vector<std::string>{"hip:runtime"});  // only the AMD GPU's runtime was tried
}

TEST(GatesRunner, RuntimeWithNoDeviceWinsOverAMissingOne) {
  ScriptedExecutor exec;
  exec.answers["cuda:runtime"] = Answer("runtime", GateStatus::kFail, "libcuda not found");
  exec.answers["hip:devices"] =
      Answer("devices", GateStatus::kFail, "the HIP runtime was found but sees no device");
  auto report = RunVerify(VerifyRequest{}, Snapshot{}, Environment(), exec);
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_EQ(report.backend, "hip");
  EXPECT_EQ(FindGate(report, "runtime")->status, GateStatus::kPass);
  EXPECT_NE(FindGate(report, "devices")->summary.find("sees no device"), std::string::npos);
}

TEST(GatesRunner, ABusGpuTheRuntimeMissesIsAFinding) {
  ScriptedExecutor exec;
  Snapshot s = WithGpu(GpuVendor::kNvidia, "0000:17:00.0");
  s.gpus.push_back(s.gpus.front());
  s.gpus.back().pci_address = "0000:2a:00.0";
  auto report =
      RunVerify(VerifyRequest{}, s,
                Environment(std::map<std::string, std::string>{{"CUDA_VISIBLE_DEVICES", "0"}}), exec);
  EXPECT_EQ(report.exit_code, 0);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_NE(report.findings[0].find("0000:2a:00.0"), std::string::npos);
  EXPECT_NE(report.findings[0].find("CUDA_VISIBLE_DEVICES=0"), std::string::npos);
}

TEST(GatesRunner, DeviceSelectorByIndexOrPciAddress) {
  std::vector<DeviceInfo> d = {{0, "a", "0000:17:00.0", "sm_90", 1, {}},
                               {1, "b", "0000:2a:00.0", "sm_90", 1, {}}};
  EXPECT_EQ(SelectDevice(d, "").value(), 0);
  EXPECT_EQ(SelectDevice(d, "1").value(), 1);
  EXPECT_EQ(SelectDevice(d, "2a:00.0").value(), 1);
  EXPECT_EQ(SelectDevice(d, "00000000:2A:00.0").value(), 1);
  EXPECT_FALSE(SelectDevice(d, "5").ok());
  EXPECT_NE(SelectDevice(d, "3b:00.0").error().message.find("0000:17:00.0, 0000:2a:00.0"), std::string::npos);
}

TEST(GatesRunner, UnknownDeviceFailsTheDevicesGate) {
  ScriptedExecutor exec;
  VerifyRequest req;
  req.device_selector = "7";
  auto report = RunVerify(req, Snapshot{}, Environment(), exec);
  EXPECT_EQ(report.exit_code, 2);
  EXPECT_EQ(FindGate(report, "devices")->status, GateStatus::kFail);
}

TEST(GatesRunner, ArchHintsComeFromTheAmdGpus) {
  auto hints = ArchHints(WithGpu(GpuVendor::kAmd, "0000:C1:00.0"));
  ASSERT_EQ(hints.size(), 1u);
  EXPECT_EQ(hints.at("0000:c1:00.0"), "gfx1100");
}

TEST(WorkerProtocol, ArgumentsRoundTrip) {
  GateRequest r;
  r.gates = {GateId::kMemtest};
  r.target.backend = BackendKind::kHip;
  r.options.level = VerifyLevel::kStandard;
  r.target.device = "0000:c1:00.0";
  r.options.memtest_fraction = 0.25;
  r.options.inject = InjectedFault::kOversizeAlloc;
  r.target.arch_by_pci["0000:c1:00.0"] = "gfx1100";
  auto args = EncodeWorkerRequest(ToWorkerRequest(r));
  ASSERT_EQ(args[0], kWorkerModeArg);
  ASSERT_EQ(args[1], kWorkerVerifyGate);
  auto decoded = DecodeWorkerRequest(args);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  auto back = GateRequestFromWorker(*decoded);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->gates, std::vector<GateId>{GateId::kMemtest});
  EXPECT_EQ(back->target.backend, BackendKind::kHip);
  EXPECT_EQ(back->options.level, VerifyLevel::kStandard);
  EXPECT_EQ(back->target.device, "0000:c1:00.0");
  EXPECT_DOUBLE_EQ(back->options.memtest_fraction, 0.25);
  EXPECT_EQ(back->options.inject, InjectedFault::kOversizeAlloc);
  EXPECT_EQ(back->target.arch_by_pci, r.target.arch_by_pci);
  auto gates_of = [](std::vector<std::string> tail) -> Result<GateRequest> {
    tail.insert(tail.begin(), {kWorkerModeArg, kWorkerVerifyGate});
    auto request = DecodeWorkerRequest(tail);
    if (!request) return request.error();
    return GateRequestFromWorker(*request);
  };
  EXPECT_TRUE(gates_of({"--items", "kernel"}).ok());
  EXPECT_FALSE(gates_of({"--items", "nope"}).ok());
  EXPECT_FALSE(gates_of({}).ok());  // no gate
  EXPECT_FALSE(gates_of({"--items", "kernel", "--set"}).ok());
  EXPECT_FALSE(gates_of({"--items", "kernel", "--set", "level=forever"}).ok());
  EXPECT_FALSE(gates_of({"--items", "kernel", "--set", "memtest-fraction=-1"}).ok());
}

TEST(WorkerProtocol, GateResultJsonRoundTrip) {
  GateResult r;
  r.gate = "devices";
  r.status = GateStatus::kPass;
  r.summary = "1 device \"quoted\"";
  r.figures.push_back({"rate", 1.5, "TFLOP/s"});
  r.details = {"a", "b"};
  r.libraries.push_back(
      {"runtime", "libcuda", LoadStatus::kLoaded, "/x/libcuda.so.1", "system", "system loader", "13.0", ""});
  r.devices.push_back({0, "H200", "0000:17:00.0", "sm_90", 1ull << 37, 132u});
  auto back = GateResultFromJson("some library chatter\n" + GateResultToJson(r) + "\n");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->summary, r.summary);
  EXPECT_EQ(back->figures[0].unit, "TFLOP/s");
  EXPECT_EQ(back->details, r.details);
  EXPECT_EQ(back->libraries[0].path, "/x/libcuda.so.1");
  EXPECT_EQ(back->devices[0].memory_total_bytes, 1ull << 37);
  EXPECT_EQ(back->devices[0].compute_units, 132u);
  EXPECT_FALSE(GateResultFromJson("segfault").ok());
}

// The line shares verify's codec for a gate (gate_json.h); what that codec writes as null must come back.
TEST(WorkerProtocol, GateResultLineKeepsASkippedGatesTimeAndUnmeasuredFigures) {
  GateResult r;
  r.gate = "gemm_tf32";
  r.status = GateStatus::kSkip;
  r.summary = "no tensor cores";
  r.elapsed_ms = 12.5;
  r.figures.push_back({"rate", std::nan(""), "TFLOP/s"});
  r.libraries.push_back({"blas", "libcublas", LoadStatus::kAbsent, "", "", "", "", "not found"});
  auto back = GateResultFromJson(GateResultToJson(r));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->status, GateStatus::kSkip);
  EXPECT_DOUBLE_EQ(back->elapsed_ms, 12.5);
  ASSERT_EQ(back->figures.size(), 1u);
  EXPECT_TRUE(std::isnan(back->figures[0].value));
  EXPECT_EQ(back->hint, "");
  EXPECT_EQ(back->libraries[0].path, "");
  EXPECT_EQ(back->libraries[0].detail, "not found");
  auto bad = GateResultFromJson(R"({"type":"result","gate":"alloc","status":"maybe"})");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("result.status"), std::string::npos) << bad.error().message;
}

TEST(WorkerProtocol, DeadWorkersBecomeFailedGatesWithTheirReason) {
  auto one = [](GateId gate, const ProcessResult& p, long timeout) {
    auto results = InterpretWorker({gate}, p, timeout);
    EXPECT_EQ(results.size(), 1u);
    return results.empty() ? GateResult{} : results.front();
  };
  ProcessResult crashed;
  crashed.term_signal = 11;
  GateResult r = one(GateId::kKernel, crashed, 30);
  EXPECT_EQ(r.status, GateStatus::kFail);
  EXPECT_EQ(r.summary, "worker was killed by signal 11 (segmentation fault) during gate kernel");

  ProcessResult hung;
  hung.timed_out = true;
  hung.stderr_text = "launching gd_spin\n";
  r = one(GateId::kKernel, hung, 20);
  EXPECT_EQ(r.summary, "timed out after 20 s during gate kernel (the worker was killed)");
  EXPECT_EQ(r.details, std::vector<std::string>{"worker's last log line: launching gd_spin"});

  ProcessResult windows_crash;
  windows_crash.exit_code = static_cast<int>(0xC0000005u);
  EXPECT_NE(one(GateId::kCopy, windows_crash, 20).summary.find("0xc0000005"), std::string::npos);

  ProcessResult garbage;
  garbage.exit_code = 0;
  garbage.stdout_text = "not json";
  EXPECT_NE(one(GateId::kCopy, garbage, 20).summary.find("without a result"), std::string::npos);
}

GateResult Passed(const char* gate, double ms) {
  GateResult r = Answer(gate, GateStatus::kPass, "ok");
  r.elapsed_ms = ms;
  return r;
}

TEST(WorkerProtocol, ABatchWorkerAnswersEachGateInOrderAndACrashFailsTheFirstUnanswered) {
  std::vector<GateId> batch = {GateId::kContext, GateId::kAlloc, GateId::kCopy, GateId::kKernel};
  ProcessResult p;
  p.term_signal = 11;
  p.elapsed = std::chrono::milliseconds(1000);
  p.stdout_text = "chatter from a vendor library\n" + GateResultToJson(Passed("context", 300)) + "\n" +
                  "{not a result}\n" + GateResultToJson(Passed("alloc", 200)) + "\n";
  auto results = InterpretWorker(batch, p, 60);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].gate, "context");
  EXPECT_EQ(results[0].status, GateStatus::kPass);
  EXPECT_EQ(results[1].gate, "alloc");
  EXPECT_EQ(results[2].gate, "copy");
  EXPECT_EQ(results[2].status, GateStatus::kFail);
  EXPECT_EQ(results[2].summary, "worker was killed by signal 11 (segmentation fault) during gate copy");
  EXPECT_DOUBLE_EQ(results[2].elapsed_ms, 500.0);  // the process's time less the answered gates'
}

TEST(WorkerProtocol, ABatchStopsAtTheFirstGateThatDidNotPassAndIgnoresAnswersOutOfOrder) {
  std::vector<GateId> batch = {GateId::kContext, GateId::kAlloc, GateId::kCopy};
  ProcessResult p;
  p.exit_code = 0;
  GateResult failed = Answer("alloc", GateStatus::kFail, "out of memory");
  p.stdout_text = GateResultToJson(Passed("copy", 1)) + "\n" + GateResultToJson(Passed("context", 1)) + "\n" +
                  GateResultToJson(failed) + "\n" + GateResultToJson(Passed("copy", 1)) + "\n";
  auto results = InterpretWorker(batch, p, 60);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].summary, "out of memory");

  // The watchdog's own timeout line is the hung gate's answer.
  ProcessResult watchdog;
  watchdog.exit_code = 4;
  watchdog.stdout_text = GateResultToJson(Passed("context", 1)) + "\n" + WorkerBeginLine("alloc") + "\n" +
                         WorkerTimeoutLine("alloc", 7) + "\n";
  results = InterpretWorker(batch, watchdog, 60);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].summary, "timed out after 7 s during gate alloc (the worker stopped itself)");
}

TEST(WorkerProtocol, AnswersThenADeathInTeardownKeepTheAnswersWithANote) {
  ProcessResult p;
  p.term_signal = 6;
  p.stdout_text = GateResultToJson(Passed("context", 1)) + "\n" + GateResultToJson(Passed("alloc", 1)) + "\n";
  auto results = InterpretWorker({GateId::kContext, GateId::kAlloc}, p, 60);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[1].status, GateStatus::kPass);
  ASSERT_EQ(results[1].findings.size(), 1u);
  EXPECT_NE(results[1].findings[0].find("after reporting this gate"), std::string::npos);
}

TEST(WorkerProtocol, GateListsAndTimeoutsTravelAsArguments) {
  GateRequest w;
  w.gates = {GateId::kContext, GateId::kGemmBf16, GateId::kSustained};
  w.target.limit = std::chrono::seconds(9);
  auto args = EncodeWorkerRequest(ToWorkerRequest(w));
  auto items = std::find(args.begin(), args.end(), "--items");
  ASSERT_NE(items, args.end());
  ASSERT_NE(items + 1, args.end());
  EXPECT_EQ(*(items + 1), "context,gemm_bf16,sustained");
  auto decoded = DecodeWorkerRequest(args);
  ASSERT_TRUE(decoded.ok()) << decoded.error().message;
  auto back = GateRequestFromWorker(*decoded);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->gates, w.gates);
  EXPECT_EQ(TimeoutOf(*back, GateId::kSustained), std::chrono::seconds(9));
  EXPECT_FALSE(DecodeWorkerRequest({kWorkerModeArg, kWorkerVerifyGate, "--items", ","}).ok());
  WorkerRequest nonsense;
  nonsense.items = {"context", "nonsense"};
  EXPECT_FALSE(GateRequestFromWorker(nonsense).ok());
}

TEST(DeviceChoice, ASelectorThatCanNameNoDeviceIsRefusedUpFront) {
  EXPECT_TRUE(CheckDeviceSelector("").ok());
  EXPECT_TRUE(CheckDeviceSelector("3").ok());
  EXPECT_TRUE(CheckDeviceSelector("17:00.0").ok());
  EXPECT_TRUE(CheckDeviceSelector("0000:C1:00.0").ok());
  EXPECT_FALSE(CheckDeviceSelector("gpu0").ok());
  EXPECT_FALSE(CheckDeviceSelector("-1").ok());
  EXPECT_FALSE(CheckDeviceSelector("17:00").ok());
}

TEST(DeviceChoice, TheFirstBackendThatSeesADeviceWinsAndTheSelectorIsApplied) {
  ScriptedExecutor exec;
  exec.answers["cuda:runtime"] = Answer("runtime", GateStatus::kFail, "libcuda not found");
  exec.devices.push_back({1, "Second GPU", "0000:2a:00.0", "gfx942", 8ull << 30, 304u});
  DeviceChoice choice = ChooseDevice({BackendKind::kCuda, BackendKind::kHip, BackendKind::kFake},
                                     GateRequest{}, "2a:00.0", exec);
  ASSERT_NE(choice.Chosen(), nullptr);
  EXPECT_EQ(choice.Chosen()->kind, BackendKind::kHip);
  EXPECT_EQ(choice.attempts.size(), 2u);  // fake was never tried
  EXPECT_FALSE(choice.attempts[0].devices.has_value());
  ASSERT_TRUE(choice.device.ok()) << choice.device.error().message;
  EXPECT_EQ(*choice.device, 1);
  EXPECT_EQ(exec.workers, (std::vector<std::vector<std::string>>{{"runtime"}, {"runtime", "devices"}}));
}

TEST(GatesRunner, GatesThatCanRunTogetherShareOneWorkerAndAFailureStartsAFreshOne) {
  ScriptedExecutor exec;
  auto report = RunVerify(VerifyRequest{}, WithGpu(GpuVendor::kNvidia, "0000:17:00.0"), Environment(), exec);
  EXPECT_EQ(report.exit_code, 0);
  // runtime and devices in one worker (the backend is chosen from them), then everything else in one more.
  ASSERT_EQ(exec.workers.size(), 2u);
  EXPECT_EQ(exec.workers[0], (std::vector<std::string>{"runtime", "devices"}));
  EXPECT_EQ(exec.workers[1].size(), AllGates().size() - 2);

  ScriptedExecutor failing;
  failing.answers["kernel"] = Answer("kernel", GateStatus::kFail, "wrong result");
  report = RunVerify(VerifyRequest{}, WithGpu(GpuVendor::kNvidia, "0000:17:00.0"), Environment(), failing);
  EXPECT_EQ(report.exit_code, 1);
  ASSERT_EQ(report.gates.size(), AllGates().size());
  ASSERT_GE(failing.workers.size(), 3u);
  EXPECT_EQ(failing.workers[1].back(), "kernel");  // the worker stopped at the failed gate
  for (size_t w = 2; w < failing.workers.size(); ++w)
    for (const auto& g : failing.workers[w]) EXPECT_NE(g, "kernel");
}

TEST(VerifyReport, TextAndJsonCarryEveryGate) {
  ScriptedExecutor exec;
  exec.answers["gemm_fp16"] = Answer("gemm_fp16", GateStatus::kFail, "wrong result: relative error 1e-1");
  auto report = RunVerify(VerifyRequest{}, Snapshot{}, Environment(), exec);
  std::string text = RenderVerifyText(report, false);
  EXPECT_NE(text.find("gemm_fp16  fail"), std::string::npos) << text;
  EXPECT_NE(text.find("1 gate failed: gemm_fp16"), std::string::npos);
  auto j = nlohmann::json::parse(VerifyReportToJson(report));
  EXPECT_EQ(j["schema"], "gpudoctor.verify/1");
  EXPECT_EQ(j["exit_code"], 1);
  EXPECT_EQ(j["gates"].size(), AllGates().size());
  EXPECT_EQ(j["gates"][8]["gate"], "gemm_fp16");
  EXPECT_EQ(j["gates"][8]["status"], "fail");
  EXPECT_EQ(j["device"]["pci_address"], "0000:17:00.0");
}

}  // namespace
}  // namespace gpudoctor
