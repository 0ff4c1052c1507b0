// How current the knowledge base is, for `gpudoctor --version`: the date its facts were last checked.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace gpudoctor {

// The knowledge base's as-of date ("2026-12-03"), read from the text of its TOML files: a top-level
// `as_of = YYYY-MM-DD` in any file wins (the newest one, if several say it); otherwise the newest
// `checked = YYYY-MM-DD` of any entry. Dates may be quoted or TOML date literals. nullopt when no file
// carries a date.
std::optional<std::string> KnowledgeAsOf(std::span<const std::string_view> toml_texts);

// The same over the data files compiled into this binary.
std::optional<std::string> EmbeddedKnowledgeAsOf();

}  // namespace gpudoctor
