// VerifyReport <-> its JSON document, `gpudoctor verify --json` (schema "gpudoctor.verify/1", fields in
// docs/verify-json.md). The one codec of the type: verify writes with it, `report` and `fleet merge` read
// with it. Reading also takes the form of the last release (no schema name, "schema_version": 1); it checks
// every field's type and enumerated value and names the file and the JSON path of the first problem. Never
// throws (fuzzed: fuzz/result_documents_fuzz.cpp).
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "gates/verify_result.h"

namespace gpudoctor {

inline constexpr int64_t kVerifySchemaMajor = 1;

// Pretty-printed, keys sorted.
std::string VerifyReportToJson(const VerifyReport& report);

// `origin` names the text in messages ("verify.json"). Fields the document derives from others (a gate's
// title, the verdict) are not read back: VerifyVerdict() and SpecOf() give them again.
Result<VerifyReport> VerifyReportFromJson(std::string_view text, const std::string& origin);

}  // namespace gpudoctor
