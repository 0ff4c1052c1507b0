// The one request every GPU worker gets (`gpudoctor __worker JOB ...`): which job, which backend and device,
// which items in order (gates, benchmark ids), the time limit, the fake backend's script, the architecture
// hints, and the job's own settings as name=value pairs. One codec turns it into the worker's arguments and
// back, so a new job (tune, monitor) adds settings, never a parser. Each job reads its settings into its own
// typed options (gates/gate_job.cpp, bench/bench_job.cpp, collectives/collective_job.cpp). Pure functions.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/backend.h"

namespace gpudoctor {

// argv[1] of every worker process; main.cpp hands such a process to the worker layer before flag parsing.
inline constexpr const char* kWorkerModeArg = "__worker";

// Where and how a job's worker runs, the same for every GPU job: the part of a WorkerRequest that verify's
// and bench's requests carry as it is (GateRequest, BenchWorkerRequest), so each converts to and from the
// worker's form through MakeWorkerRequest and TargetOf alone, adding only its items and settings.
struct WorkerTarget {
  BackendKind backend = BackendKind::kCuda;
  // The device: its PCI address ("0000:17:00.0", as the parent's DeviceChoice resolved `--device`), the
  // runtime's index where the parent has no address, or "" for the first (worker/worker_device.h).
  std::string device;
  std::optional<std::chrono::seconds> limit;       // one limit per item (tests); else the job's own
  std::string fake_script_path;                    // the fake backend's script file
  std::map<std::string, std::string> arch_by_pci;  // architecture hints from the probe (HIP)
};

struct WorkerRequest {
  std::string job;  // a name of cli/worker_jobs.cpp's list: "verify-gate", "bench", ...
  BackendKind backend = BackendKind::kCuda;
  // The device: its PCI address ("0000:17:00.0", as the parent's DeviceChoice resolved `--device`), the
  // runtime's index where the parent has no address, or "" for the first (worker/worker_device.h).
  std::string device;
  std::vector<std::string> items;                  // what to run, in order (may be empty)
  std::optional<std::chrono::seconds> limit;       // one limit per item (tests); else the job's own
  std::string fake_script_path;                    // the fake backend's script file
  std::map<std::string, std::string> arch_by_pci;  // architecture hints from the probe (HIP)
  std::map<std::string, std::string> settings;     // the job's own options, by name
};

// The one conversion of a job's request into the worker's: `target` as it is, the job's items in order and
// its own settings; and the target back out of a decoded request.
WorkerRequest MakeWorkerRequest(const std::string& job, const WorkerTarget& target,
                                std::vector<std::string> items, std::map<std::string, std::string> settings);
WorkerTarget TargetOf(const WorkerRequest& request);

// argv after the executable path: "__worker", JOB, "--backend", "cuda", "--device", "0", ...
std::vector<std::string> EncodeWorkerRequest(const WorkerRequest& request);
// Parses argv after the executable path (starting at "__worker"); a user error on anything unexpected.
Result<WorkerRequest> DecodeWorkerRequest(const std::vector<std::string>& args);

// The job's reading of one setting: `fallback` when absent, an error naming the setting when malformed.
Result<double> SettingNumber(const WorkerRequest& request, const std::string& name, double fallback);
Result<uint64_t> SettingCount(const WorkerRequest& request, const std::string& name, uint64_t fallback,
                              uint64_t max);
std::string SettingText(const WorkerRequest& request, const std::string& name, const std::string& fallback);

}  // namespace gpudoctor
