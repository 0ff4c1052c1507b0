// How old the knowledge base is: the "as of" stamp every report shows (the newest `checked` date of
// the data, and where the data came from), and the knowledge.stale note `check` adds when the clock
// says the data is older than kKnowledgeStaleDays. The clock is an argument, never read here.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/calendar_date.h"  // DateOf, DaysBetween
#include "knowledge/knowledge_db.h"
#include "rules/finding.h"

namespace gpudoctor {

inline constexpr int kKnowledgeStaleDays = 180;

// What a report says about the data it judged with.
struct KnowledgeStamp {
  std::string as_of;   // "2026-12-03"; "" when no entry has a checked date
  std::string origin;  // "embedded", "DIR over embedded"
};
KnowledgeStamp StampOf(const KnowledgeDb& db);

// knowledge.stale (info) when `today` is more than kKnowledgeStaleDays after the data's as-of date.
std::optional<Finding> KnowledgeAgeFinding(const KnowledgeDb& db, std::string_view today);

}  // namespace gpudoctor
