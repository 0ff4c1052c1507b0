// Turning a catalog regular expression into what the matcher runs: named captures rewritten for
// std::regex, top-level alternatives split apart, and the literal every match must contain (the
// key of the prefilter, so the regex runs only on lines that can match).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "explain/explain_catalog.h"

namespace gpudoctor {

// The shortest literal the prefilter accepts: shorter ones would hit on too many ordinary lines.
inline constexpr size_t kMinLiteralLength = 6;

// "a|b(c|d)" -> {"a", "b(c|d)"}: splits only at depth 0, outside [...] and after escapes.
std::vector<std::string> SplitTopLevelAlternatives(std::string_view regex);

struct NamedGroups {
  std::string regex;                     // with (?<name> replaced by (
  std::vector<std::string> group_names;  // per capturing group, "" when unnamed
};
// Fails on a malformed name, a duplicate name, or a lookbehind (ECMAScript has none).
Result<NamedGroups> RewriteNamedGroups(std::string_view regex);

// The longest run of literal characters at depth 0 (not inside a group or a class, not followed by a
// quantifier), lower-cased; "" when there is none. Escaped punctuation (\. \( \[) counts as literal.
std::string DeriveLiteral(std::string_view regex);

// The shortest extra literal worth checking before a regex runs: shorter ones are in most lines anyway.
inline constexpr size_t kMinRequiredLength = 3;

// Every other run of literal characters at depth 0 (lower-cased, ASCII only, at least kMinRequiredLength
// long, not part of `prefilter_literal`): text each match contains besides the prefilter's literal. A
// window lacking one of them cannot match, so the regex need not run (a common literal such as "nccl info"
// then costs a substring search instead of a std::regex run). Empty when a top-level | splits `regex`.
std::vector<std::string> AlsoRequiredLiterals(std::string_view regex, std::string_view prefilter_literal);

// Whether `text`, ASCII letters lower-cased, contains every one of `needles` (lower-case).
bool ContainsAllFolded(std::string_view text, const std::vector<std::string>& needles);

// Compiles one alternative. `declared_literal` (may be empty) replaces the derived one; the literal
// must be at least kMinLiteralLength characters.
Result<ExplainPattern> CompileExplainPattern(std::string_view regex, std::string_view declared_literal,
                                             bool icase);

}  // namespace gpudoctor
