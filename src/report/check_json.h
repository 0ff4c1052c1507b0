// CheckReport <-> its JSON document, `gpudoctor check --json` (schema "gpudoctor.check/1", fields in
// docs/check-json.md): each finding with its fix both as shell-neutral actions and as lines for the chosen
// shell, the worst severity per layer, and the machine summary. The one codec of the type. Reading also
// takes the form of the last release ("gpudoctor.check" with "schema_version": 1); the fields the document
// derives from others (the verdict, the layers, a fix's lines) are not read back. Never throws (fuzzed:
// fuzz/result_documents_fuzz.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "report/check_report.h"

namespace gpudoctor {

inline constexpr int64_t kCheckSchemaMajor = 1;  // "gpudoctor.check/1"

std::string CheckReportToJson(const CheckReport& report);
// `origin` names the text in messages ("node017.check.json").
Result<CheckReport> CheckReportFromJson(std::string_view text, const std::string& origin);

// CheckReportToJson(MakeCheckReport(...)): what `check --json` prints.
std::string RenderCheckJson(const Snapshot& snapshot, std::vector<Finding> findings, Shell shell,
                            int exit_code, const KnowledgeStamp& knowledge = {});

}  // namespace gpudoctor
