// Starts the framework child and judges what it did (tune_runner.h).
#include "tune/tune_runner.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/strings.h"
#include "platform/child_protocol.h"
#include "tune/tune_child_script.h"

namespace gpudoctor {
namespace {

constexpr size_t kStderrLines = 12;
constexpr size_t kMaxLineChars = 300;

std::string Clip(std::string_view s) {
  return ClipLine(s, kMaxLineChars);
}

std::vector<std::string> StderrTail(const std::string& text) {
  return LastLines(text, kStderrLines, kMaxLineChars);
}

std::string Join(const std::vector<std::string>& parts, const std::string& sep) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : sep) + p;
  return out;
}

std::string WholeSeconds(std::chrono::milliseconds ms) {
  return std::to_string(ms.count() / 1000) + " s";
}

// Evidence every problem of the child itself carries.
std::vector<std::string> ChildEvidence(const TuneRun& run) {
  std::vector<std::string> e;
  e.push_back("interpreter: " + run.interpreter);
  if (!run.output.last_begun.empty()) e.push_back("running: " + run.output.last_begun);
  if (run.exit_code) e.push_back("exit code: " + std::to_string(*run.exit_code));
  if (run.signal) e.push_back("signal: " + std::to_string(*run.signal));
  if (run.output.ignored_lines)
    e.push_back("lines not of the protocol: " + std::to_string(run.output.ignored_lines));
  for (const auto& line : run.stderr_tail) e.push_back("stderr: " + line);
  return e;
}

void JudgeResults(TuneRun& run) {
  for (const auto& m : run.output.measurements) {
    if (!m.loss_finite) {
      run.problems.push_back({Severity::kWarning,
                              "tune.loss_not_finite",
                              m.item + " trained to a loss of NaN or Inf: its figures are not to be trusted",
                              {"precision " + m.precision + ", batch " + std::to_string(m.batch)}});
    } else if (!(m.seconds > 0) || !(m.samples_per_s > 0) || !std::isfinite(m.samples_per_s)) {
      run.problems.push_back(
          {Severity::kWarning,
           "tune.measurement_wrong",
           m.item + " reported no usable time",
           {"seconds " + std::to_string(m.seconds) + ", samples/s " + std::to_string(m.samples_per_s)}});
    }
  }
  for (const auto& s : run.output.searches) {
    if (auto wrong = CheckBatchSearch(s))
      run.problems.push_back({Severity::kWarning,
                              "tune.search_inconsistent",
                              "the largest-batch search of " + s.model + " contradicts itself",
                              {*wrong}});
  }
  for (const auto& e : run.output.errors) {
    if (e.item == "setup") continue;
    if (e.code == "user_model") {
      // The user's own code raised: a finding with its traceback (the child printed it on stderr).
      std::vector<std::string> evidence = {e.message};
      for (const auto& line : run.stderr_tail) evidence.push_back("stderr: " + line);
      run.problems.push_back({Severity::kError, "tune.user_model_failed",
                              (e.item == "user/setup" ? std::string("loading your model failed")
                                                      : "your model failed in " + e.item) +
                                  ": " + e.message,
                              evidence});
      continue;
    }
    run.problems.push_back({Severity::kWarning,
                            e.code == "oom" ? "tune.measurement_oom" : "tune.measurement_failed",
                            e.item + " failed",
                            {e.message}});
  }
}

}  // namespace

ProcessRequest BuildTuneRequest(const TuneOptions& options) {
  ProcessRequest req;
  req.argv = {options.interpreter, "-", "--device", options.device, "--size", options.size};
  if (!options.models.empty()) {
    req.argv.push_back("--models");
    req.argv.push_back(Join(options.models, ","));
  }
  if (options.max_batch) {
    req.argv.push_back("--max-batch");
    req.argv.push_back(std::to_string(options.max_batch));
  }
  if (options.exact_search) req.argv.push_back("--exact");
  req.argv.push_back("--compile-modes=" + options.compile_modes);
  if (!options.user_model.empty()) {
    req.argv.push_back("--user-model");
    req.argv.push_back(options.user_model);
  }
  if (!options.allocator_plan.empty()) {
    req.argv.push_back("--allocator-plan");
    req.argv.push_back(options.allocator_plan);
  }
  if (!options.library_plan.empty()) {
    req.argv.push_back("--library-plan");
    req.argv.push_back(options.library_plan);
  }
  req.stdin_text = options.script.empty() ? std::string(TuneChildScript()) : options.script;
  req.timeout = options.timeout;
  req.extra_env = options.extra_env;
  req.extra_env.emplace("PYTHONDONTWRITEBYTECODE", "1");
  req.extra_env.emplace("PYTHONIOENCODING", "utf-8");
  req.extra_env.emplace("PYTHONUNBUFFERED", "1");
  // No AOTAutograd cache: torch's keyed only whether autocast was on, not its dtype (fixed upstream by
  // pytorch/pytorch PR 181564, April 2026), so with torch 2.11 on an H100 the bf16 run compiled in 1.8 s
  // from the fp16 run's graph just before it, timed fp16 kernels as bf16 (6416 images/s against 6085 for a
  // real bf16 compile) and left them on disk for the next process. Inductor's own cache, keyed by the traced
  // graph with its dtypes, stays on.
  req.extra_env["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0";
  return req;
}

std::optional<std::string> CheckBatchSearch(const TuneBatchSearch& s) {
  std::optional<uint32_t> smallest_failed, largest_fitted;
  for (auto [batch, fitted] : s.tried) {
    if (fitted) {
      largest_fitted = std::max(largest_fitted.value_or(0), batch);
    } else {
      smallest_failed = std::min(smallest_failed.value_or(UINT32_MAX), batch);
    }
  }
  if (s.tried.empty()) return "no batch was tried";
  if (s.largest > 0 && largest_fitted != s.largest)
    return "reported largest batch " + std::to_string(s.largest) + ", but the largest that fitted was " +
           (largest_fitted ? std::to_string(*largest_fitted) : std::string("none"));
  if (s.largest == 0 && largest_fitted)
    return "reported that nothing fitted, but batch " + std::to_string(*largest_fitted) + " did";
  if (s.failed_at != smallest_failed)
    return "reported the first failing batch as " + (s.failed_at ? std::to_string(*s.failed_at) : "none") +
           ", the trail says " + (smallest_failed ? std::to_string(*smallest_failed) : std::string("none"));
  if (largest_fitted && smallest_failed && *smallest_failed <= *largest_fitted)
    return "batch " + std::to_string(*smallest_failed) + " failed but the larger batch " +
           std::to_string(*largest_fitted) + " fitted (memory use that is not monotonic, or a flaky step)";
  return std::nullopt;
}

TuneRun InterpretTuneRun(const std::string& interpreter, const Result<ProcessResult>& result,
                         std::chrono::milliseconds timeout) {
  TuneRun run;
  run.interpreter = interpreter;
  if (!result.ok()) {
    run.status = "not-started";
    run.problems.push_back({Severity::kError,
                            "tune.child_not_started",
                            "the Python interpreter could not be started",
                            {result.error().message}});
    return run;
  }
  const ProcessResult& r = *result;
  run.exit_code = r.exit_code;
  run.signal = r.term_signal;
  run.elapsed_ms = static_cast<uint64_t>(r.elapsed.count());
  run.stderr_tail = StderrTail(r.stderr_text);
  run.output = ParseTuneOutput(r.stdout_text);

  for (const auto& e : run.output.errors) {
    if (e.item == "setup" && (e.code == "no_gpu" || e.code == "no_torch" || e.code == "no_device")) {
      run.status = "no-gpu";
      run.problems.push_back(
          {Severity::kError, "tune.no_gpu", "no GPU to tune: " + e.message, {"interpreter: " + interpreter}});
      return run;
    }
  }
  if (r.timed_out) {
    run.status = "timeout";
    run.problems.push_back(
        {Severity::kError, "tune.child_hang",
         "the framework child did not finish within " + WholeSeconds(timeout) +
             (run.output.last_begun.empty() ? "" : " (it was running " + run.output.last_begun + ")"),
         ChildEvidence(run)});
  } else if (const ChildEnd end = ReadChildEnd(r, timeout); end.kind != ChildEndKind::kExited) {
    const bool crashed = end.kind == ChildEndKind::kCrashed;
    run.status = crashed ? "crashed" : "failed";
    run.problems.push_back(
        {Severity::kError, crashed ? "tune.child_crashed" : "tune.child_failed",
         "the framework child " + end.how +
             (run.output.last_begun.empty() ? "" : " while running " + run.output.last_begun),
         ChildEvidence(run)});
  } else if (!run.output.ended || !run.output.hello) {
    run.status = "no-report";
    std::vector<std::string> evidence = ChildEvidence(run);
    auto lines = SplitLines(r.stdout_text);
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      if (!Trim(*it).empty()) {
        evidence.push_back("last output: " + Clip(*it));
        break;
      }
    }
    run.problems.push_back({Severity::kError, "tune.child_no_report",
                            "the framework child ended without a complete report (no end line)", evidence});
  } else {
    run.status = "ok";
  }
  JudgeResults(run);
  return run;
}

namespace {

TuneRun RunOneChild(const TuneOptions& options, const std::function<void(const TuneProgress&)>& on_progress) {
  ProcessRequest req = BuildTuneRequest(options);
  TuneLineSplitter splitter;
  if (on_progress) {
    req.on_stdout = [&](std::string_view piece) {
      splitter.Feed(piece, [&](std::string_view line) {
        TuneChildOutput one;
        if (ReadTuneLine(line, one) && one.last_progress) on_progress(*one.last_progress);
      });
    };
  }
  return InterpretTuneRun(options.interpreter, RunProcess(req), options.timeout);
}

// A child after the first (the allocator's, a library knob's), folded into the first run: its progress shown
// as "LABEL run, ITEM" (it counts its own items), its problems as warnings titled with its setting `what`
// (the first run's figures stand), its time added. Returns its run, for its output and status.
TuneRun RunFollowUpChild(const TuneOptions& child, const std::string& label, const std::string& what,
                         TuneRun& run, const std::function<void(const TuneProgress&)>& on_progress) {
  std::function<void(const TuneProgress&)> progress;
  if (on_progress)
    progress = [&](const TuneProgress& p) {
      TuneProgress q = p;
      q.item = label + " run, " + p.item;
      on_progress(q);
    };
  TuneRun r = RunOneChild(child, progress);
  for (auto& p : r.problems) {
    p.severity = Severity::kWarning;
    p.title = label + " run (" + what + "): " + p.title;
    run.problems.push_back(std::move(p));
  }
  run.elapsed_ms += r.elapsed_ms;
  return r;
}

// The allocator's second child, folded into the first run: its output, and its problems as warnings.
void RunAllocatorChild(const TuneOptions& options, TuneRun& run,
                       const std::function<void(const TuneProgress&)>& on_progress) {
  const std::string variable = AllocatorVariable(run.output.hello ? run.output.hello->backend : "");
  const std::string what = variable + "=" + kAllocatorSetting;
  if (!options.allocator) {
    run.output.skips.push_back(
        {"allocator", what + ": not measured (it takes a second run of the child; --quick leaves it out)"});
    return;
  }
  auto plan = AllocatorPlan(run.output);
  if (!plan) {
    run.output.skips.push_back(
        {"allocator", what + ": not measured (no batch search found a batch to compare at)"});
    return;
  }
  TuneOptions second = options;
  second.allocator_plan = *plan;
  second.extra_env[variable] = kAllocatorSetting;
  TuneRun r = RunFollowUpChild(second, "allocator", what, run, on_progress);
  run.allocator = TuneAllocatorRun{variable, kAllocatorSetting, r.status, std::move(r.output)};
}

// One child per library knob of the backend, each with its variables set, folded into the first run as the
// allocator's is: its output, and its problems as warnings. A knob without a figure to repeat is a skip.
void RunLibraryChildren(const TuneOptions& options, TuneRun& run,
                        const std::function<void(const TuneProgress&)>& on_progress) {
  const std::string backend = run.output.hello ? run.output.hello->backend : "";
  std::chrono::milliseconds expected = kLibraryChildEstimate;
  for (const TuneLibraryKnob& knob : LibraryKnobsFor(backend, options.tunableop_file)) {
    const std::string item = knob.model + "/knob/" + knob.name;
    if (!options.library_knobs) {
      run.output.skips.push_back(
          {item, "it takes another run of the child with its variable set; --quick leaves it out"});
      continue;
    }
    const std::chrono::milliseconds used{run.elapsed_ms};
    if (options.budget.count() > 0 && used + expected > options.budget) {
      run.output.skips.push_back({item, "left out to keep tune within its time: the run had taken " +
                                            std::to_string(used.count() / 1000) + " s of " +
                                            std::to_string(options.budget.count() / 1000) +
                                            " s, and this knob's run takes about " +
                                            std::to_string((expected.count() + 999) / 1000) + " s"});
      continue;
    }
    auto plan = LibraryKnobPlan(run.output, knob);
    if (!plan) {
      run.output.skips.push_back({item, "no run of the first child to time again"});
      continue;
    }
    TuneOptions child = options;
    child.allocator_plan.clear();
    child.library_plan = *plan;
    // One figure again (and TunableOp's tuning in its warm-up): far less than the first run's limit.
    child.timeout = std::min<std::chrono::milliseconds>(options.timeout, std::chrono::minutes(4));
    for (const auto& [name, value] : knob.env) child.extra_env[name] = value;
    TuneRun r = RunFollowUpChild(child, knob.row, LibraryKnobSetting(knob), run, on_progress);
    expected = std::max(expected, std::chrono::milliseconds(r.elapsed_ms));
    run.library.push_back(TuneLibraryRun{knob, r.status, std::move(r.output)});
  }
}

}  // namespace

TuneRun RunTune(const TuneOptions& options, const std::function<void(const TuneProgress&)>& on_progress) {
  TuneRun run = RunOneChild(options, on_progress);
  if (run.status == "ok" && options.allocator_plan.empty() && options.library_plan.empty()) {
    RunAllocatorChild(options, run, on_progress);
    RunLibraryChildren(options, run, on_progress);
  }
  return run;
}

int TuneExitCode(const TuneRun& run) {
  int code = 0;
  for (const auto& p : run.problems) code = std::max(code, p.severity == Severity::kError ? 2 : 1);
  return code;
}

}  // namespace gpudoctor
