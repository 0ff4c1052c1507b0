// Runs the framework child (data/tune/tune_child.py) in the user's interpreter under a time limit and
// turns what it did into a TuneRun: its measurements, and each crash, hang, failure or wrong result as
// a problem with its evidence (the stderr tail, the signal, the item it was running). Nothing the
// child does is a failure of the tool.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/severity.h"
#include "platform/process.h"
#include "tune/tune_allocator.h"
#include "tune/tune_library_knobs.h"
#include "tune/tune_protocol.h"

namespace gpudoctor {

struct TuneOptions {
  std::string interpreter;          // the environment's python
  std::string device = "0";         // a GPU index, or "cpu" (a test aid: measures the CPU)
  std::string size = "full";        // "full", "quick", "tiny"
  std::vector<std::string> models;  // empty: resnet50 and transformer
  uint32_t max_batch = 0;           // cap of the batch search; 0: the size's own
  bool exact_search = false;        // bisect down to one sample (tests)
  // The user's model, "MODULE:FUNCTION" or "PATH.py:FUNCTION" (the child's --user-model), measured as model
  // "user" (name it in `models`); "": none.
  std::string user_model;
  // torch.compile's modes to time, comma-separated ("default", "reduce-overhead", "max-autotune"); "": none.
  std::string compile_modes = "default";
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::map<std::string, std::string> extra_env;
  std::string script;  // the child's text; empty: the embedded data/tune/tune_child.py
  // Measure the allocator knob with a second child (tune_allocator.h); off: say it was not measured.
  bool allocator = false;
  std::string allocator_plan;  // set for the second child itself: its --allocator-plan
  // Time the library knobs of the backend (tune_library_knobs.h), each in a child of its own; off: say they
  // were not measured.
  bool library_knobs = false;
  std::string library_plan;    // set for a library knob's child itself: its --library-plan
  std::string tunableop_file;  // where TunableOp's run keeps what it tuned; "": torch's default name
  // The time the children together keep to (the full run's 5 minutes, less a margin); 0: none. A library
  // knob's child starts only when the run so far and the child's expected time (the longest library child
  // yet, at least kLibraryChildEstimate) fit in it; otherwise its row says why it was left out.
  std::chrono::milliseconds budget{0};
};

// What a library knob's child is expected to take before one has run (an H100 with torch 2.11: 11 s each,
// start-up of torch included).
inline constexpr std::chrono::milliseconds kLibraryChildEstimate{15000};

struct TuneProblem {
  Severity severity = Severity::kWarning;  // a warning or an error
  std::string id;                          // "tune.child_hang", ...
  std::string title;
  std::vector<std::string> evidence;
};

struct TuneRun {
  std::string interpreter;
  std::string status;  // "ok", "no-gpu", "timeout", "crashed", "failed", "no-report", "not-started"
  std::optional<int> exit_code;
  std::optional<int> signal;
  uint64_t elapsed_ms = 0;
  std::vector<std::string> stderr_tail;
  TuneChildOutput output;
  std::vector<TuneProblem> problems;
  std::optional<TuneAllocatorRun> allocator;  // the second run, when it ran
  std::vector<TuneLibraryRun> library;        // the library knobs' runs, when they ran
};

ProcessRequest BuildTuneRequest(const TuneOptions& options);

// Judges a finished (or failed to start) child. `timeout` is the limit it ran under (for the message).
TuneRun InterpretTuneRun(const std::string& interpreter, const Result<ProcessResult>& result,
                         std::chrono::milliseconds timeout);

// A search whose answer its own trail contradicts (the largest batch never fitted, a larger one
// fitted, the failing one fitted): the text of the contradiction, or nothing when it holds together.
std::optional<std::string> CheckBatchSearch(const TuneBatchSearch& search);

// Runs the child and, when `options.allocator` and the first run timed a large batch, the allocator's second
// child with its variable set, then with `options.library_knobs` one child per library knob of the backend
// (a later child's failure is a warning: the first run's figures stand); `on_progress` (may be empty) gets
// each progress line while they run.
TuneRun RunTune(const TuneOptions& options, const std::function<void(const TuneProgress&)>& on_progress);

// 0 ok, 1 warnings, 2 errors or no usable GPU (the exit codes of docs/cli.md).
int TuneExitCode(const TuneRun& run);

}  // namespace gpudoctor
