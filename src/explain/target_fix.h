// The fix that depends on the GPU's gfx target (a missing code object, an invalid ISA, rocBLAS without
// kernels): whether HSA_OVERRIDE_GFX_VERSION helps, with which value, or which build carries the target
// instead. Read from the knowledge base for the target the log states (or this machine's, when the log is
// from it); when no target is known, it says how to find it rather than guessing a value.
#pragma once

#include <string>
#include <vector>

#include "explain/explain_catalog.h"
#include "explain/log_facts.h"
#include "explain/log_scanner.h"
#include "knowledge/knowledge_db.h"
#include "snapshot/snapshot.h"

namespace gpudoctor {

// A physical gfx target a fix is for, and where it was read.
struct FixTarget {
  std::string gfx;   // "gfx1031"
  std::string from;  // "the log, line 3", "the log's GPU Radeon RX 6600 (line 2)", "this machine's GPU ..."
};

// Whose targets may be used: only the log's (a log from another machine), the log's and then this
// machine's when the log states none (a log from this machine), or this machine's first (--here).
enum class TargetMachineUse { kLogOnly, kLogThenMachine, kMachineFirst };

// At most this many targets get a fix (a dGPU and an iGPU; a 64-GPU log names one target many times).
inline constexpr size_t kMaxFixTargets = 3;

// The physical targets for `match`, most certain first: the target the message captured, the targets the
// log states (not a list of compiled targets, not the one an override in the log selects), the targets of
// the GPUs and PCI ids it names, and this machine's AMD targets as `use` allows. Empty: not known.
std::vector<FixTarget> ChooseFixTargets(const ExplainMatch& match, const std::vector<LogFact>& log_facts,
                                        const Snapshot& machine, TargetMachineUse use, const KnowledgeDb& db);

// What to do for one target, or (gfx empty) how to find the target first.
struct TargetFix {
  std::string gfx;  // "" when no target is known
  std::string from;
  std::string advice;      // sentences, from the knowledge base
  ShellCommands commands;  // bash for Linux/WSL, powershell for Windows
};

// The fix for `target` on Linux/WSL (`windows` false) or native Windows, where the override does nothing.
TargetFix FixForTarget(const FixTarget& target, bool windows, const KnowledgeDb& db);
// No target known: how to find it, and why the value cannot be guessed.
TargetFix FixForUnknownTarget(bool windows);

// The AMD install routes of pytorch_routes.toml that carry `gfx` on `os` (superseded ones left out), most
// official first; shared with the machine facts so both name the same route.
std::vector<const TorchRoute*> AmdRoutesCarrying(const KnowledgeDb& db, const std::string& gfx, Platform os);

}  // namespace gpudoctor
