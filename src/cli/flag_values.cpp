// Reading one flag's text as a typed value (see flag_values.h).
#include "cli/flag_values.h"

#include <cstdio>

#include "collectives/collective_request.h"
#include "core/calendar_date.h"
#include "core/strings.h"

namespace gpudoctor {
namespace {

std::string Shown(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

Error Refused(const std::string& flag, const std::string& text, const std::string& accepts) {
  return UserError(flag + " " + text + ": " + accepts);
}

}  // namespace

Result<std::optional<uint64_t>> SizeFlag(const std::string& flag, const std::string& text) {
  if (text.empty()) return std::optional<uint64_t>();
  auto v = ParseByteSize(text);
  if (!v || *v == 0)
    return Refused(flag, text, "not a size; give bytes with an optional K, M or G (8, 64K, 256M, 1G)");
  return std::optional<uint64_t>(*v);
}

Result<std::optional<uint64_t>> WholeFlag(const std::string& flag, const std::string& text, uint64_t min,
                                          uint64_t max) {
  if (text.empty()) return std::optional<uint64_t>();
  auto v = ParseU64(text);
  if (!v || *v < min || *v > max)
    return Refused(flag, text,
                   "not a whole number from " + std::to_string(min) + " to " + std::to_string(max));
  return std::optional<uint64_t>(*v);
}

Result<std::optional<double>> NumberFlag(const std::string& flag, const std::string& text, double above,
                                         double max) {
  if (text.empty()) return std::optional<double>();
  auto v = ParseDouble(text);
  if (!v || !(*v > above) || *v > max)
    return Refused(flag, text, "not a number above " + Shown(above) + " and at most " + Shown(max));
  return std::optional<double>(*v);
}

Result<std::optional<std::chrono::seconds>> SecondsFlag(const std::string& flag, const std::string& text) {
  auto v = WholeFlag(flag, text, 1, 86400);
  if (!v) return Refused(flag, text, "not a whole number of seconds from 1 to 86400");
  if (!*v) return std::optional<std::chrono::seconds>();
  return std::optional<std::chrono::seconds>(std::chrono::seconds(static_cast<long>(**v)));
}

Result<std::optional<std::string>> DateFlag(const std::string& flag, const std::string& text) {
  if (text.empty()) return std::optional<std::string>();
  if (!DaysBetween(text, text)) return Refused(flag, text, "not a date; give YYYY-MM-DD (2026-12-05)");
  return std::optional<std::string>(text);
}

Result<std::optional<std::string>> ChoiceFlag(const std::string& flag, const std::string& text,
                                              const std::vector<std::string>& choices) {
  if (text.empty()) return std::optional<std::string>();
  for (const std::string& c : choices)
    if (c == text) return std::optional<std::string>(c);
  return Refused(flag, text, "not one of " + JoinList(choices));
}

}  // namespace gpudoctor
