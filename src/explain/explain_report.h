// What `gpudoctor explain` prints: every matched problem with its cause, fix and this machine's
// facts, or, when nothing matched, the summary to paste when asking for help. Text and JSON
// (docs/explain-json.md); the command only wires input to these.
#pragma once

#include <string>
#include <vector>

#include "explain/explain_facts.h"
#include "explain/log_scanner.h"

namespace gpudoctor {

inline constexpr int kExplainJsonSchemaVersion = 1;

struct ExplainedMatch {
  ExplainMatch match;
  std::vector<FactLine> facts;
};

struct ExplainReport {
  std::string input_name;  // "arguments", "stdin", or the file path
  ScanStats stats;
  std::vector<ExplainedMatch> matches;
  std::vector<SummaryLine> summary;  // filled when nothing matched
  std::string machine;               // "this machine", "sysroot DIR", "snapshot FILE"
  bool windows = false;              // show PowerShell commands rather than bash
  std::string tool_version;
  std::string knowledge_as_of;   // the knowledge base's newest `checked` date, "" when none
  std::string knowledge_origin;  // "embedded", "DIR over embedded"
};

// Builds the report: facts for each match, the help summary when there is none.
ExplainReport BuildExplainReport(const std::vector<ExplainMatch>& matches, const ScanStats& stats,
                                 const Snapshot& snap, const KnowledgeDb& db);

// 0 nothing matched or only info, 1 a warning, 2 an error (cli/command.h exit codes).
int ExplainExitCode(const ExplainReport& report);

std::string RenderExplainText(const ExplainReport& report, bool color);
std::string RenderExplainJson(const ExplainReport& report);

}  // namespace gpudoctor
