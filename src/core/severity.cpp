// The words of each severity (severity.h).
#include "core/severity.h"

namespace gpudoctor {

const char* ToString(Severity s) {
  switch (s) {
    case Severity::kOk:
      return "ok";
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "ok";
}

std::optional<Severity> SeverityFromString(std::string_view s) {
  for (Severity v : {Severity::kOk, Severity::kInfo, Severity::kWarning, Severity::kError})
    if (s == ToString(v)) return v;
  return std::nullopt;
}

}  // namespace gpudoctor
