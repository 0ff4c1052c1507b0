// The install command filled from the log's facts, for entries whose fix is "install the right PyTorch
// build" (a CPU-only torch, no kernel image for the GPU, no matching distribution): the variant for the
// log's GPU (cuXXX for its compute capability and driver, rocmX.Y or AMD's build for its gfx target), the
// index URL, a torch release that has wheels for the log's Python, in the shell of the log's OS and with a
// portable install's own python.exe. The wheels and commands come from the knowledge base, through the
// same lookups `check` uses (knowledge/torch_wheel_lookup.h, pytorch_routes.toml).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/log_facts.h"
#include "explain/log_scanner.h"
#include "explain/target_fix.h"
#include "knowledge/knowledge_db.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

struct WheelFix {
  std::string gpu;        // what the build was chosen for: "sm_61 (the log, line 3)", "gfx1100 (...)"
  std::string variant;    // "cu126", "rocm7.2"; "" for a route without pytorch.org variants
  std::string index_url;  // "" when the route names none
  std::string torch;      // the release series chosen ("2.14")
  std::string python;     // the log's Python ("3.8"), "" when not stated
  std::string advice;     // sentences, from the knowledge base
  ShellCommands commands;
};

// The platform a fix is written for.
struct FixPlatform {
  bool windows = false;   // PowerShell, py, AMD's Windows routes
  bool portable = false;  // a portable Windows install: its own python_embeded\python.exe
};

// nullopt when neither the log nor (as `use` allows) the machine names a GPU to choose a build for.
// `reinstall`: the wrong build is installed at the same version, so pip must replace it.
std::optional<WheelFix> WheelFixFor(const ExplainMatch& match, const std::vector<LogFact>& log_facts,
                                    const Snapshot& machine, TargetMachineUse use, FixPlatform platform,
                                    bool reinstall, const KnowledgeDb& db);

}  // namespace gpudoctor
