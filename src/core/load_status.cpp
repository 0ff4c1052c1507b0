// The words of LoadStatus: the JSON form of snapshots, verify and bench reports and the worker protocol.
#include "core/load_status.h"

namespace gpudoctor {

std::string_view LoadStatusName(LoadStatus status) {
  switch (status) {
    case LoadStatus::kLoaded:
      return "loaded";
    case LoadStatus::kAbsent:
      return "absent";
    case LoadStatus::kBroken:
      return "broken";
    case LoadStatus::kNotTried:
      return "not-tried";
    case LoadStatus::kNotProbed:
      return "not-probed";
  }
  return "broken";
}

std::optional<LoadStatus> LoadStatusFromName(std::string_view name) {
  for (LoadStatus s : {LoadStatus::kLoaded, LoadStatus::kAbsent, LoadStatus::kBroken, LoadStatus::kNotTried,
                       LoadStatus::kNotProbed})
    if (LoadStatusName(s) == name) return s;
  return std::nullopt;
}

std::string_view LoadStatusNames() {
  return "loaded, absent, broken, not-tried or not-probed";
}

}  // namespace gpudoctor
