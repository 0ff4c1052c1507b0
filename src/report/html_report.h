// `gpudoctor report`: one self-contained HTML page (inline CSS, inline SVG, no script, no network: a
// Content-Security-Policy forbids both) with a summary, the machine, the check findings, the verify
// gates and the bench charts. Every string from the machine or the input files is escaped
// (html_escape.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "bench/bench_types.h"
#include "gates/verify_result.h"
#include "rules/finding.h"
#include "rules/shell.h"
#include "snapshot/snapshot.h"
#include "tune/tune_result.h"

namespace gpudoctor {

struct HtmlReportInput {
  Snapshot snapshot;
  std::string machine_source;     // "this machine", "recorded machine DIR", "snapshot file FILE"
  std::vector<Finding> findings;  // any order; shown worst first
  Shell shell = Shell::kBash;     // the shell the fixes are written for
  std::optional<VerifyReport> verify;
  std::string verify_origin;  // the file it came from
  std::optional<BenchReport> bench;
  std::string bench_origin;
  std::optional<TuneResult> tune;  // only on the page when given (report --tune FILE)
  std::string tune_origin;
  std::string generated_at;     // "2026-12-02 21:40 UTC"; "" leaves it out
  std::string knowledge_as_of;  // the knowledge base's as-of date ("2026-12-03"); "" leaves it out
};

// The ids of the page's sections, in order (tests and docs/report.md name them).
inline constexpr const char* kReportSectionIds[] = {"summary", "machine", "findings", "verify", "bench"};

std::string RenderHtmlReport(const HtmlReportInput& input);

}  // namespace gpudoctor
