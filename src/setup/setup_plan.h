// What `gpudoctor setup` would do on this machine, and nothing else: read from the findings `check` gives
// for it (RunAllRules), so the wheel variant and index are check's first fix by construction, never a
// second copy of its choice. A problem's fix becomes a package step (a pip line of the fix, pinned to the
// torch release the knowledge base records for that variant and GPU), a variable (a SetEnv or UnsetEnv
// action of the first fix: an override appears only where check's ranking puts it first) or a manual step
// (a driver, a group, a reboot: named for the user or an admin, never run). Plain data; setup_text.h and
// setup_json.h show it, setup_apply.h carries it out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "knowledge/knowledge_db.h"
#include "rules/finding.h"
#include "rules/shell.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

enum class PlanMode {
  kNewEnvironment,  // a fresh environment with the PyTorch this GPU needs
  kRepair,          // the environment check judged, fixed in place (uninstalls and add-ons too)
};
const char* ToString(PlanMode m);  // "new", "repair"

// What the installed NVIDIA driver says about the CUDA wheel a step installs (driver_floor.h decides).
struct DriverFloorCheck {
  enum class Verdict { kRuns, kTooOld, kUnknown };
  Verdict verdict = Verdict::kUnknown;
  std::string cuda;       // "12.6": the CUDA runtime the wheel bundles
  std::string needs;      // "525.60.13": the oldest driver that loads it, in this OS's numbering
  std::string installed;  // "570.153.02"; "" when no driver version is known
  std::string os;         // "Linux", "Windows": whose numbering `needs` is
  std::string note;       // the plan's sentence about it
  std::string source;     // where `needs` comes from (the knowledge base's first source)
};
const char* ToString(DriverFloorCheck::Verdict v);  // "runs", "too_old", "unknown"

// One pip install of the plan (with the uninstall before it, in a repair).
struct PackageStep {
  std::string finding;                     // the finding whose fix it is: "framework.torch_no_kernels"
  std::vector<std::string> uninstall;      // removed first (repair only): "torch", "torchvision"
  std::vector<std::string> requirements;   // "torch==2.7.1", "torchvision==0.22.*", "torch[device-gfx1101]"
  std::string index_url;                   // "" for PyPI
  std::string find_links;                  // a download folder instead of an index, "" when none
  std::string variant;                     // "cu126", "rocm7.14": the download.pytorch.org index's; "" else
  std::vector<std::string> options;        // pip options the fix gives: "--no-deps"
  std::string check_command;               // check's own line, as check prints it
  std::optional<DriverFloorCheck> driver;  // a CUDA wheel on an NVIDIA GPU: does the driver load it
  std::string note;                        // what else the plan says of it ("" when nothing)
};

struct VariableStep {
  std::string finding;
  std::string name;
  std::string value;
  bool unset = false;
};

// A step setup never runs: a driver, a group, a reboot, a project file to edit.
struct ManualStep {
  std::string finding;
  std::string title;               // the finding's title
  std::string summary;             // the fix's summary
  std::vector<std::string> lines;  // commands in the plan's shell, or text
};

struct SetupPlan {
  PlanMode mode = PlanMode::kNewEnvironment;
  Shell shell = Shell::kBash;
  std::string gpu;                // "0000:03:00.0 Radeon RX 7800 XT (gfx1101)", "" when none
  std::string environment;        // the folder the packages go into ("" when the plan installs nothing)
  std::string python;             // what creates the environment: "python3", "py -3.12"; with conda, the
                                  // version it installs: "3.13" ("" for conda's default)
  std::string installer = "pip";  // "pip" (in a venv), "uv", or "conda" (pip inside a conda environment)
  std::vector<std::string> python_versions;  // what the pinned wheels are built for: "3.10", "3.11"
  std::vector<ManualStep> manual;            // first, by the user or an admin
  std::vector<PackageStep> packages;
  std::vector<VariableStep> variables;
  bool Empty() const { return manual.empty() && packages.empty() && variables.empty(); }
};

struct PlanRequest {
  PlanMode mode = PlanMode::kNewEnvironment;
  std::string environment;  // new: the folder to create; repair: "" = the one check judged
  Shell shell = Shell::kBash;
  std::string installer = "pip";  // "pip", "uv" (found on PATH) or "conda" (asked for: plan only)
};

// The plan for `findings` (RunAllRules' output for `snap`, any order).
SetupPlan PlanFromFindings(const Snapshot& snap, const KnowledgeDb& db, std::vector<Finding> findings,
                           const PlanRequest& request);
// Runs check's rules and plans from them.
SetupPlan PlanSetup(const Snapshot& snap, const KnowledgeDb& db, const PlanRequest& request);

}  // namespace gpudoctor
