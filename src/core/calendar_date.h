// Calendar dates as the knowledge base writes them ("YYYY-MM-DD", UTC): today's date from a clock
// reading, and whole days between two dates. The clock is an argument, never read here.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

// "YYYY-MM-DD" of a moment, in UTC.
std::string DateOf(std::chrono::system_clock::time_point when);
// Whole days from `from` to `to` (both "YYYY-MM-DD"); nullopt when either is not a real date.
std::optional<int> DaysBetween(std::string_view from, std::string_view to);

}  // namespace gpudoctor
