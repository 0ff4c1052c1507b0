// The verify gates as data: their ids, order, dependencies, time limits per level, and the result each one
// produces. The worker (gate_job.h) runs the gates; the parent (verify_runner.h) orders them, skips the
// ones whose dependencies failed and turns crashes and hangs into failed gates.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpu/backend.h"

namespace gpudoctor {

// As DCGM's run levels: quick (< 10 s), standard (< 1 min), long (minutes).
enum class VerifyLevel { kQuick, kStandard, kLong };
const char* ToString(VerifyLevel level);
std::optional<VerifyLevel> VerifyLevelFromString(std::string_view s);

// Faults planted on purpose, for tests of the isolation itself; each ends as exactly one failed gate.
enum class InjectedFault { kNone, kKernelHang, kWrongResult, kOversizeAlloc, kWorkerCrash };
const char* ToString(InjectedFault fault);  // "none", "kernel-hang", ...
std::optional<InjectedFault> InjectedFaultFromString(std::string_view s);

enum class GateId {
  kRuntime,
  kDevices,
  kContext,
  kAlloc,
  kCopy,
  kKernel,
  kGemmFp32,
  kGemmTf32,
  kGemmFp16,
  kGemmBf16,
  kMemtest,
  kSustained,
};

struct GateSpec {
  GateId id;
  const char* name;   // stable key: "gemm_bf16"
  const char* title;  // "GEMM bf16 vs CPU reference"
  std::vector<GateId> depends_on;
};

// Every gate, in the order they run.
const std::vector<GateSpec>& AllGates();
const GateSpec& SpecOf(GateId id);
std::optional<GateId> GateIdFromName(std::string_view name);

enum class GateStatus { kPass, kFail, kSkip };
const char* ToString(GateStatus status);  // "pass", "fail", "skip"
std::optional<GateStatus> GateStatusFromString(std::string_view s);

// One measured number of a gate, its unit in its own field ("GB/s", "TFLOP/s", "GiB", "C", "W", "MHz").
struct GateFigure {
  std::string label;  // "host to device"
  double value = 0;
  std::string unit;
};

struct GateResult {
  std::string gate;  // GateSpec::name
  GateStatus status = GateStatus::kFail;
  std::string summary;                // one line: what was measured, or why it failed or was skipped
  std::string hint;                   // what to do about a failure (may be empty)
  std::vector<GateFigure> figures;    // the first is the headline
  std::vector<std::string> details;   // more lines: sizes, tolerances, seeds, library files
  std::vector<std::string> findings;  // problems seen that do not fail the gate
  double elapsed_ms = 0;
  // Filled by the runtime and devices gates.
  std::string runtime_version;
  std::vector<BackendLibrary> libraries;
  std::vector<DeviceInfo> devices;
};

// What a gate run needs besides the backend; the same in the worker and the parent.
struct GateOptions {
  VerifyLevel level = VerifyLevel::kQuick;
  double memtest_fraction = 0;  // 0 = the level's default
  double sustain_seconds = 0;   // 0 = the level's default
  InjectedFault inject = InjectedFault::kNone;
};

// The level's defaults.
double DefaultMemtestFraction(VerifyLevel level);
double DefaultSustainSeconds(VerifyLevel level);
double EffectiveMemtestFraction(const GateOptions& o);
double EffectiveSustainSeconds(const GateOptions& o);

// How long the parent lets a gate's worker run before killing it.
std::chrono::seconds GateTimeout(GateId id, const GateOptions& o);

}  // namespace gpudoctor
