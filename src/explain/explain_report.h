// What `gpudoctor explain` prints: every matched problem with its cause, fix and this machine's
// facts, or, when nothing matched, the summary to paste when asking for help. Text and JSON
// (docs/explain-json.md); the command only wires input to these.
#pragma once

#include <string>
#include <vector>

#include "explain/explain_facts.h"
#include "explain/loader_fix.h"
#include "explain/log_facts.h"
#include "explain/log_scanner.h"
#include "explain/target_fix.h"
#include "explain/wheel_fix.h"

namespace gpudoctor {

inline constexpr int kExplainJsonSchemaVersion = 1;

struct ExplainedMatch {
  ExplainMatch match;
  std::vector<FactLine> facts;  // about `facts_about` (empty when that is the log's machine)
  std::string facts_about;      // report.machine, or "the log's machine"
  // For an entry whose fix depends on the GPU's target: one fix per target the log (or the machine, as
  // the log allows) states, or one saying how to find the target.
  std::vector<TargetFix> target_fixes;
  // For an entry whose fix is installing the right build: the command for the log's GPU, Python and OS.
  std::optional<WheelFix> wheel_fix;
  // For a loader failure: the component behind the library, symbol or version, and its fix (loader_fix.h).
  std::optional<LoaderFix> loader_fix;
  // For a failure no entry knows (a fallback entry): what the log says about it, for the next step.
  std::string fallback_advice;
  // The entry's specific_fix filled with this match's captures, and for a required CUDA version
  // (capture `cuda_required`) the driver that version needs; "" when a capture it names is missing.
  std::string specific_fix;
  // The entry's commands with `{capture}` filled from this match (command_placeholders.h).
  ShellCommands commands;
};

struct ExplainReport {
  std::string input_name;  // "arguments", "stdin", or the file path
  ScanStats stats;
  std::vector<ExplainedMatch> matches;
  std::vector<ExplainMatch>
      harmless;                      // known-harmless messages seen (never findings), first appearance first
  std::vector<SummaryLine> summary;  // filled when nothing matched
  std::string machine;               // "this machine", "sysroot DIR", "snapshot FILE"
  std::vector<LogFact> log_facts;    // what the log states about its own machine
  LogMachineCheck log_machine;       // whether the log contradicts `machine`
  bool windows = false;              // show PowerShell commands rather than bash
  std::string tool_version;
  std::string knowledge_as_of;   // the knowledge base's newest `checked` date, "" when none
  std::string knowledge_origin;  // "embedded", "DIR over embedded"
};

// Builds the report: facts for each match, the help summary when there is none. The machine's facts
// are shown only when the log does not contradict it (log_facts.h) or when `here` says it is the same
// machine; otherwise the log's own facts stand in.
ExplainReport BuildExplainReport(const std::vector<ExplainMatch>& matches, const ScanStats& stats,
                                 const Snapshot& snap, const KnowledgeDb& db,
                                 const std::vector<LogFact>& log_facts = {}, bool here = false);

// 0 nothing matched or only info, 1 a warning, 2 an error (cli/command.h exit codes).
int ExplainExitCode(const ExplainReport& report);

std::string RenderExplainText(const ExplainReport& report, bool color);
std::string RenderExplainJson(const ExplainReport& report);

}  // namespace gpudoctor
