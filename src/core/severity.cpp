// The words of each severity (severity.h).
#include "core/severity.h"

#include "core/enum_names.h"

namespace gpudoctor {

constexpr std::array kSeverityNames = {
    EnumName<Severity>{Severity::kOk, "ok"},
    EnumName<Severity>{Severity::kInfo, "info"},
    EnumName<Severity>{Severity::kWarning, "warning"},
    EnumName<Severity>{Severity::kError, "error"},
};

const char* ToString(Severity s) {
  return NameIn(kSeverityNames, s);
}

std::optional<Severity> SeverityFromString(std::string_view s) {
  return ValueIn(kSeverityNames, s);
}

}  // namespace gpudoctor
