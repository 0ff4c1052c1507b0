// What the knowledge-base tests share: a version written as text, and a day `days` after another.
#pragma once

#include <chrono>
#include <string>

#include "core/calendar_date.h"
#include "knowledge/version.h"

namespace gpudoctor::testing {

// A version that must parse: V("2.7.1").
inline Version V(const char* text) {
  return Version::Parse(text).value();
}

// "YYYY-MM-DD" `days` after `date`.
inline std::string DaysAfter(const std::string& date, int days) {
  std::chrono::year_month_day ymd{std::chrono::year(std::stoi(date.substr(0, 4))),
                                  std::chrono::month(static_cast<unsigned>(std::stoi(date.substr(5, 2)))),
                                  std::chrono::day(static_cast<unsigned>(std::stoi(date.substr(8, 2))))};
  return DateOf(std::chrono::sys_days(ymd) + std::chrono::days(days));
}

}  // namespace gpudoctor::testing
