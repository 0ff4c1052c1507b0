// Date arithmetic on "YYYY-MM-DD" through std::chrono's calendar types (see calendar_date.h).
#include "core/calendar_date.h"

#include <cstdio>

#include "core/strings.h"

namespace gpudoctor {
namespace {

std::optional<std::chrono::sys_days> ParseDay(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  auto y = ParseU64(text.substr(0, 4)), m = ParseU64(text.substr(5, 2)), d = ParseU64(text.substr(8, 2));
  if (!y || !m || !d) return std::nullopt;
  std::chrono::year_month_day ymd{std::chrono::year(static_cast<int>(*y)),
                                  std::chrono::month(static_cast<unsigned>(*m)),
                                  std::chrono::day(static_cast<unsigned>(*d))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days(ymd);
}

}  // namespace

std::string DateOf(std::chrono::system_clock::time_point when) {
  std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(when)};
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

std::optional<int> DaysBetween(std::string_view from, std::string_view to) {
  auto a = ParseDay(from), b = ParseDay(to);
  if (!a || !b) return std::nullopt;
  return static_cast<int>((*b - *a).count());
}

}  // namespace gpudoctor
