// The worker layer without processes: the one request's codec, the JSON lines, the reading of a worker that
// answered, crashed or hung, and the dispatch to a job by name.
#include <gtest/gtest.h>

#include <cstdio>

#include "worker/worker_job.h"
#include "worker/worker_protocol.h"
#include "worker/worker_request.h"
#include "worker/worker_watchdog.h"

namespace gpudoctor {
namespace {

TEST(WorkerRequest, EveryFieldRoundTripsThroughTheArguments) {
  WorkerRequest r;
  r.job = "tune";
  r.backend = BackendKind::kHip;
  r.device = "0000:17:00.0";
  r.items = {"a.one", "b.two"};
  r.limit = std::chrono::seconds(42);
  r.fake_script_path = "/tmp/with space/script.json";
  r.arch_by_pci["0000:c1:00.0"] = "gfx1100";
  r.settings["level"] = "standard";
  r.settings["ratio"] = "a=b";  // the first '=' splits
  auto args = EncodeWorkerRequest(r);
  ASSERT_GE(args.size(), 2u);
  EXPECT_EQ(args[0], kWorkerModeArg);
  EXPECT_EQ(args[1], "tune");
  auto back = DecodeWorkerRequest(args);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->job, "tune");
  EXPECT_EQ(back->backend, BackendKind::kHip);
  EXPECT_EQ(back->device, "0000:17:00.0");
  EXPECT_EQ(back->items, r.items);
  EXPECT_EQ(back->limit, r.limit);
  EXPECT_EQ(back->fake_script_path, r.fake_script_path);
  EXPECT_EQ(back->arch_by_pci, r.arch_by_pci);
  EXPECT_EQ(back->settings, r.settings);
}

TEST(WorkerRequest, AJobsTargetIsCarriedAsItIsAndReadBack) {
  WorkerTarget t;
  t.backend = BackendKind::kFake;
  t.device = "0000:c1:00.0";
  t.limit = std::chrono::seconds(5);
  t.fake_script_path = "/tmp/fake.json";
  t.arch_by_pci["0000:c1:00.0"] = "gfx942";
  WorkerRequest w = MakeWorkerRequest("bench", t, {"memory.copy"}, {{"group", "memory"}});
  auto back = DecodeWorkerRequest(EncodeWorkerRequest(w));
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->job, "bench");
  EXPECT_EQ(back->items, std::vector<std::string>{"memory.copy"});
  EXPECT_EQ(SettingText(*back, "group", ""), "memory");
  WorkerTarget read = TargetOf(*back);
  EXPECT_EQ(read.backend, t.backend);
  EXPECT_EQ(read.device, t.device);
  EXPECT_EQ(read.limit, t.limit);
  EXPECT_EQ(read.fake_script_path, t.fake_script_path);
  EXPECT_EQ(read.arch_by_pci, t.arch_by_pci);
}

TEST(WorkerRequest, MalformedArgumentsAreUserErrors) {
  auto bad = [](std::vector<std::string> args) { return !DecodeWorkerRequest(args).ok(); };
  EXPECT_TRUE(bad({}));
  EXPECT_TRUE(bad({"__worker"}));
  EXPECT_TRUE(bad({"worker", "bench"}));
  EXPECT_TRUE(bad({"__worker", "--backend", "cuda"}));  // no job
  EXPECT_TRUE(bad({"__worker", "bench", "--backend"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--backend", "opencl"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--device", "-1"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--limit", "0"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--items", "a,,b"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--set", "novalue"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--arch-hint", "=gfx1100"}));
  EXPECT_TRUE(bad({"__worker", "bench", "--bogus", "1"}));
  EXPECT_FALSE(bad({"__worker", "bench"}));
}

TEST(WorkerRequest, SettingsAreReadWithFallbacksAndChecked) {
  WorkerRequest r;
  r.settings = {{"fraction", "0.25"}, {"count", "12"}, {"bad", "x"}};
  EXPECT_DOUBLE_EQ(*SettingNumber(r, "fraction", 1), 0.25);
  EXPECT_DOUBLE_EQ(*SettingNumber(r, "absent", 1), 1);
  EXPECT_FALSE(SettingNumber(r, "bad", 1).ok());
  EXPECT_EQ(*SettingCount(r, "count", 0, 100), 12u);
  EXPECT_FALSE(SettingCount(r, "count", 0, 10).ok());  // above the maximum
  EXPECT_EQ(SettingText(r, "absent", "dflt"), "dflt");
}

ProcessResult Answered(const std::vector<std::string>& ids) {
  ProcessResult p;
  p.exit_code = 0;
  for (const auto& id : ids)
    p.stdout_text += WorkerBeginLine(id) + "\n{\"type\":\"result\",\"id\":\"" + id + "\"}\n";
  return p;
}

TEST(WorkerProtocol, AnswersAreTakenInTheRequestsOrderAmidNoise) {
  ProcessResult p = Answered({"b", "a"});
  p.stdout_text = "chatter\n{broken\n" + p.stdout_text + "{\"type\":3}\n";
  WorkerOutcome o = InterpretWorkerProcess({"a", "b"}, p, 60);
  ASSERT_EQ(o.results.size(), 2u);
  EXPECT_EQ(o.results[0].id, "a");
  EXPECT_EQ(o.results[1].id, "b");
  EXPECT_FALSE(o.stopped_at.has_value());
  EXPECT_FALSE(o.ended_badly);
}

TEST(WorkerProtocol, ACrashIsBlamedOnTheFirstUnansweredItem) {
  ProcessResult p = Answered({"a"});
  p.exit_code.reset();
  p.term_signal = 11;
  p.stdout_text += WorkerBeginLine("b") + "\n";
  p.stderr_text = "first\nlast words\n\n";
  WorkerOutcome o = InterpretWorkerProcess({"a", "b", "c"}, p, 60, "gate ");
  ASSERT_EQ(o.results.size(), 1u);
  EXPECT_EQ(o.stopped_at, "b");
  EXPECT_EQ(o.why, "worker was killed by signal 11 (segmentation fault) during gate b");
  EXPECT_FALSE(o.hung);
  EXPECT_TRUE(o.ended_badly);
  EXPECT_EQ(o.last_log_line, "last words");
}

TEST(WorkerProtocol, HangsAreToldApartByWhoEndedThem) {
  ProcessResult watchdog;
  watchdog.exit_code = kWatchdogExitCode;
  watchdog.stdout_text = WorkerBeginLine("a") + "\n" + WorkerTimeoutLine("a", 7) + "\n";
  WorkerOutcome o = InterpretWorkerProcess({"a"}, watchdog, 60);
  EXPECT_TRUE(o.hung);
  EXPECT_TRUE(o.stopped_itself);
  EXPECT_EQ(o.limit_s, 7);
  EXPECT_EQ(o.why, "timed out after 7 s during a (the worker stopped itself)");

  ProcessResult killed;
  killed.timed_out = true;
  o = InterpretWorkerProcess({"a"}, killed, 60);
  EXPECT_TRUE(o.hung);
  EXPECT_FALSE(o.stopped_itself);
  EXPECT_EQ(o.why, "timed out after 60 s during a (the worker was killed)");

  ProcessResult windows;
  windows.exit_code = static_cast<int>(0xC0000005u);
  o = InterpretWorkerProcess({"a"}, windows, 60);
  EXPECT_EQ(o.why, "worker crashed with exception 0xc0000005 (access violation) during a");
}

TEST(WorkerProtocol, ASetupErrorIsRead) {
  ProcessResult p;
  p.exit_code = 0;
  p.stdout_text = WorkerErrorLine(EnvError("no runtime", "install it")) + "\n";
  WorkerOutcome o = InterpretWorkerProcess({"a"}, p, 60);
  ASSERT_TRUE(o.setup_error.has_value());
  EXPECT_EQ(o.setup_error->message, "no runtime");
  EXPECT_EQ(o.setup_error->hint, "install it");
  EXPECT_EQ(o.stopped_at, "a");
}

TEST(WorkerJob, TheRequestGoesToTheJobItNames) {
  std::string seen;
  auto job = [&seen](const char* name) {
    return WorkerJob{name, [&seen, name](const WorkerRequest& r, const Environment&, std::FILE*, std::FILE*) {
                       seen = std::string(name) + ":" + (r.items.empty() ? "" : r.items[0]);
                       return 7;
                     }};
  };
  std::vector<WorkerJob> jobs = {job("one"), job("two")};
  std::FILE* err = std::tmpfile();
  ASSERT_NE(err, nullptr);
  EXPECT_EQ(RunWorker(jobs, {"__worker", "two", "--items", "x"}, Environment{}, stdout, err), 7);
  EXPECT_EQ(seen, "two:x");
  EXPECT_EQ(RunWorker(jobs, {"__worker", "three"}, Environment{}, stdout, err), 3);
  EXPECT_EQ(RunWorker(jobs, {"__worker", "one", "--nonsense"}, Environment{}, stdout, err), 3);
  EXPECT_EQ(seen, "two:x");
  std::fclose(err);
}

}  // namespace
}  // namespace gpudoctor
