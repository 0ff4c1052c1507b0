// The worker process (see worker_main.h): builds the backend the request names, runs its gates in order on
// that one backend, prints each result as it finishes and stops after the first gate that does not pass.
// Anything that goes wrong before a gate runs is still a JSON result, so the parent always has a reason to
// show. A watchdog thread holds each gate to its time limit: when a gate hangs it prints the timeout as that
// gate's result and ends the process, so the parent can go on with the next gates in a fresh worker (the
// parent's own limit on the whole process stays as the backstop).
#include "gates/worker_main.h"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "gates/gate_context.h"
#include "gates/worker_protocol.h"
#include "gpu/backend_inputs.h"

namespace gpudoctor {
namespace {

void Print(std::FILE* out, const GateResult& r) {
  std::string line = GateResultToJson(r) + "\n";
  std::fwrite(line.data(), 1, line.size(), out);
  std::fflush(out);
}

// Ends the process when the gate being run passes its deadline, after printing the timeout as that gate's
// result. Printing goes through Report() so a result and a timeout never interleave.
class GateWatchdog {
 public:
  explicit GateWatchdog(std::FILE* out) : out_(out), thread_([this] { Watch(); }) {}
  ~GateWatchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  GateWatchdog(const GateWatchdog&) = delete;
  GateWatchdog& operator=(const GateWatchdog&) = delete;

  void Start(GateId gate, std::chrono::seconds limit) {
    std::lock_guard<std::mutex> lock(mutex_);
    gate_ = gate;
    limit_ = limit;
    deadline_ = std::chrono::steady_clock::now() + limit;
    wake_.notify_all();
  }
  // Prints the gate's result and disarms the watchdog, unless it already fired.
  void Report(const GateResult& r) {
    std::lock_guard<std::mutex> lock(mutex_);
    gate_.reset();
    Print(out_, r);
  }

 private:
  void Watch() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stop_) {
      if (!gate_) {
        wake_.wait(lock);
        continue;
      }
      if (std::chrono::steady_clock::now() < deadline_) {
        wake_.wait_until(lock, deadline_);
        continue;
      }
      Print(out_, TimedOutGate(*gate_, static_cast<long>(limit_.count()), true));
      std::fflush(stderr);
      // The gate's thread is stuck in the GPU runtime: end the process without running destructors there.
      std::_Exit(4);
    }
  }

  std::FILE* out_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::optional<GateId> gate_;
  std::chrono::seconds limit_{0};
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;  // last: starts after the members it reads
};

Result<std::string> ReadScript(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return UserError("cannot read the fake backend's script " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

int RunWorkerMode(const std::vector<std::string>& args, const Environment& env, std::FILE* out,
                  std::FILE* err) {
  if (args.size() < 2 || args[0] != kWorkerModeArg || args[1] != kWorkerVerifyGate) {
    std::fprintf(err, "gpudoctor worker: usage: __worker verify-gate GATE [options]\n");
    return 3;
  }
  auto request = ParseWorkerArguments(std::vector<std::string>(args.begin() + 2, args.end()));
  if (!request) {
    std::fprintf(err, "gpudoctor worker: %s\n", request.error().message.c_str());
    return 3;
  }
  const char* first_gate = SpecOf(request->gates.front()).name;
  auto fs = MakeRootedFileSystem("/");
  BackendInputs inputs;
  inputs.fs = fs.get();
  inputs.env = env;
  inputs.site_packages = FindSitePackages(*fs, env);
  inputs.arch_by_pci = request->arch_by_pci;
  if (request->backend == BackendKind::kFake) {
    auto script = ReadScript(request->fake_script_path);
    if (!script) {
      Print(out, FailedGate(first_gate, script.error()));
      return 0;
    }
    inputs.fake_script = *script;
  }
  auto backend = MakeBackend(request->backend, inputs);
  if (!backend) {
    Print(out, FailedGate(first_gate, backend.error()));
    return 0;
  }
  GateContext ctx{**backend, request->options, err};
  GateWatchdog watchdog(out);
  for (GateId gate : request->gates) {
    watchdog.Start(gate, TimeoutOf(*request, gate));
    GateResult result;
    try {
      result = RunGate(gate, ctx);
    } catch (const std::exception& e) {
      result =
          FailedGate(SpecOf(gate).name, InternalError(std::string("gate raised an exception: ") + e.what()));
    }
    bool passed = result.status == GateStatus::kPass;
    watchdog.Report(result);
    if (!passed) break;  // the GPU context may be unusable now; the parent goes on in a fresh worker
  }
  return 0;
}

}  // namespace gpudoctor
