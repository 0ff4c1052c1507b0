// How bad a problem is, one scale for every layer that reports problems: check's findings (rules), bench's
// causes, explain's catalog entries, port's findings, the knowledge base's pitfalls and add-on floors, and
// tune's problems. Each layer accepts the subset it needs where it parses one (a catalog entry is never
// "ok"; a tune problem is a warning or an error); the words are the same everywhere.
#pragma once

#include <optional>
#include <string_view>

namespace gpudoctor {

// Ordered: a larger value is worse.
enum class Severity { kOk, kInfo, kWarning, kError };
const char* ToString(Severity s);  // "ok", "info", "warning", "error"
std::optional<Severity> SeverityFromString(std::string_view s);

}  // namespace gpudoctor
