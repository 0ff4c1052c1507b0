// `setup --apply`: a plan carried out step by step (create or adopt the environment, uninstall, install,
// write the activation snippets), each child through RunProcess with a time limit. What is done is
// recorded in the environment (.gpudoctor-setup-state), so a re-run after a failure resumes at the step
// that failed; a failure stops with the error, what was done and how to undo it. Manual steps are never
// run; the post-check (check --live, verify) is the caller's.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "platform/process.h"
#include "setup/setup_plan.h"

namespace gpudoctor {

// kConda: conda creates the environment (a prefix with the plan's Python and pip) and the environment's
// own pip installs the wheels from the plan's index: PyTorch's conda channel is deprecated.
enum class Installer { kPip, kUv, kConda };
const char* ToString(Installer i);  // "pip", "uv", "conda"

struct ApplyOptions {
  Installer installer = Installer::kPip;
  std::string uv = "uv";        // the uv to run (a path or a name on PATH)
  std::string conda = "conda";  // the conda to run (a path or a name on PATH)
  std::string local_index;      // a folder of wheels: --no-index --find-links DIR instead of the plan's index
  bool existing = false;        // the environment exists already (--env DIR, --repair)
  bool allow_foreign = false;   // adopt one that is not a venv or is conda's (--allow-foreign-env); with
                                // kConda a conda environment is adopted without it
  std::chrono::milliseconds step_timeout{std::chrono::minutes(30)};
  std::function<void(const std::string&)> progress;  // one line per step as it starts
};

using ProcessRunner = std::function<Result<ProcessResult>(const ProcessRequest&)>;

struct ApplyOutcome {
  std::vector<std::string> done;      // the steps run now
  std::vector<std::string> resumed;   // the steps a previous run had done, skipped
  std::string failed_step;            // "" when every step succeeded
  std::string error;                  // what went wrong, the child's last lines included
  std::vector<std::string> undo;      // how to take back what was done
  std::string python;                 // the environment's interpreter
  std::vector<std::string> snippets;  // the activation snippets written
  bool ok() const { return failed_step.empty(); }
};

// `Error` only when nothing could start (a refused environment); a failed step is an outcome.
Result<ApplyOutcome> ApplyPlan(const SetupPlan& plan, const ApplyOptions& options, const ProcessRunner& run);

// The name of the state file in the environment's folder.
inline constexpr char kSetupStateFile[] = ".gpudoctor-setup-state";

}  // namespace gpudoctor
