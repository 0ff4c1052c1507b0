// Catalog regex preparation: named groups, alternatives, the required literal. Small hand-written
// scanners over the ECMAScript syntax that std::regex accepts; they only need to know escapes,
// character classes and groups.
#include "explain/explain_pattern.h"

#include <algorithm>
#include <cctype>
#include <exception>

#include "core/strings.h"

namespace gpudoctor {
namespace {

bool IsNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

// Index just past the character class that starts at `i` ('['); s.size() when unterminated.
size_t SkipClass(std::string_view s, size_t i) {
  size_t j = i + 1;
  if (j < s.size() && s[j] == '^') ++j;
  if (j < s.size() && s[j] == ']') ++j;  // a leading ] is literal
  while (j < s.size() && s[j] != ']') j += (s[j] == '\\') ? 2 : 1;
  return std::min(j + 1, s.size());
}

bool IsQuantifier(char c) {
  return c == '?' || c == '*' || c == '+' || c == '{';
}

// Characters that stand for themselves when escaped (\. \( ...); letters and digits after a
// backslash are classes (\d \w \s), anchors (\b) or back-references, never literal.
bool IsEscapedLiteral(char c) {
  return std::ispunct(static_cast<unsigned char>(c)) != 0 || c == ' ';
}

}  // namespace

std::vector<std::string> SplitTopLevelAlternatives(std::string_view regex) {
  std::vector<std::string> out;
  size_t depth = 0, start = 0, i = 0;
  while (i < regex.size()) {
    char c = regex[i];
    if (c == '\\') {
      i += 2;
    } else if (c == '[') {
      i = SkipClass(regex, i);
    } else {
      if (c == '(') ++depth;
      if (c == ')' && depth > 0) --depth;
      if (c == '|' && depth == 0) {
        out.emplace_back(regex.substr(start, i - start));
        start = i + 1;
      }
      ++i;
    }
  }
  out.emplace_back(regex.substr(std::min(start, regex.size())));
  return out;
}

Result<NamedGroups> RewriteNamedGroups(std::string_view regex) {
  NamedGroups out;
  size_t i = 0;
  while (i < regex.size()) {
    char c = regex[i];
    if (c == '\\') {
      out.regex.append(regex.substr(i, 2));
      i += 2;
      continue;
    }
    if (c == '[') {
      size_t end = SkipClass(regex, i);
      out.regex.append(regex.substr(i, end - i));
      i = end;
      continue;
    }
    if (c != '(') {
      out.regex.push_back(c);
      ++i;
      continue;
    }
    if (i + 1 < regex.size() && regex[i + 1] == '?') {
      if (i + 2 < regex.size() && regex[i + 2] == '<') {
        if (i + 3 < regex.size() && (regex[i + 3] == '=' || regex[i + 3] == '!'))
          return UserError("lookbehind (?<= / (?<! is not supported by std::regex");
        size_t j = i + 3;
        while (j < regex.size() && IsNameChar(regex[j])) ++j;
        if (j == i + 3 || j >= regex.size() || regex[j] != '>')
          return UserError("a named group must look like (?<name>...) with name in [a-z0-9_]");
        std::string name(regex.substr(i + 3, j - i - 3));
        if (std::find(out.group_names.begin(), out.group_names.end(), name) != out.group_names.end())
          return UserError("the group name '" + name + "' is used twice");
        out.group_names.push_back(std::move(name));
        out.regex.push_back('(');
        i = j + 1;
        continue;
      }
      out.regex.push_back('(');  // (?: (?= (?! : not capturing
      ++i;
      continue;
    }
    out.group_names.emplace_back();
    out.regex.push_back('(');
    ++i;
  }
  return out;
}

namespace {

// The runs of literal characters at depth 0 (each one lower-cased), in order; `alternatives` tells whether a
// top-level | splits the expression (then no run is required of every match).
struct LiteralRunScan {
  std::vector<std::string> runs;
  bool alternatives = false;
};

LiteralRunScan ScanLiteralRuns(std::string_view regex) {
  LiteralRunScan scan;
  std::vector<std::string>& runs = scan.runs;
  std::string run;
  auto end_run = [&] {
    if (!run.empty()) runs.push_back(ToLower(run));
    run.clear();
  };
  size_t depth = 0, i = 0;
  while (i < regex.size()) {
    char c = regex[i];
    size_t next = i + 1;
    bool literal = false;
    char value = c;
    if (c == '\\') {
      next = i + 2;
      char e = i + 1 < regex.size() ? regex[i + 1] : '\0';
      if (e == 'x') next = i + 4;  // \xHH
      if (e == 'u') next = i + 6;  // \uHHHH
      if (e == 'c') next = i + 3;  // \cX
      next = std::min(next, regex.size());
      if (i + 1 < regex.size() && IsEscapedLiteral(regex[i + 1])) {
        literal = true;
        value = regex[i + 1];
      }
    } else if (c == '[') {
      next = SkipClass(regex, i);
    } else if (c == '(') {
      ++depth;
    } else if (c == ')') {
      if (depth > 0) --depth;
    } else if (c == '|' && depth == 0) {
      scan.alternatives = true;
    } else if (std::string_view(".^$|?*+{}").find(c) == std::string_view::npos) {
      literal = true;
    }
    bool quantified = next < regex.size() && IsQuantifier(regex[next]);
    if (literal && depth == 0 && !quantified) {
      run.push_back(value);
    } else {
      end_run();
      // Skip a {m,n} quantifier whole so its digits are not read as literal text.
      if (next < regex.size() && regex[next] == '{') {
        size_t close = regex.find('}', next);
        next = close == std::string_view::npos ? regex.size() : close + 1;
      }
    }
    i = next;
  }
  end_run();
  return scan;
}

char LowerAsciiByte(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

}  // namespace

std::string DeriveLiteral(std::string_view regex) {
  std::string best;
  for (std::string& run : ScanLiteralRuns(regex).runs)
    if (run.size() > best.size()) best = std::move(run);
  return best;
}

std::vector<std::string> AlsoRequiredLiterals(std::string_view regex, std::string_view prefilter_literal) {
  std::vector<std::string> out;
  LiteralRunScan scan = ScanLiteralRuns(regex);
  if (scan.alternatives) return out;  // one alternative needs none of the other's text
  for (std::string& run : scan.runs) {
    const bool ascii = std::all_of(run.begin(), run.end(), [](char c) { return (c & 0x80) == 0; });
    if (run.size() < kMinRequiredLength || !ascii || prefilter_literal.find(run) != std::string_view::npos)
      continue;
    if (std::find(out.begin(), out.end(), run) == out.end()) out.push_back(std::move(run));
  }
  return out;
}

bool ContainsAllFolded(std::string_view text, const std::vector<std::string>& needles) {
  for (const std::string& needle : needles) {
    auto same = [](char a, char b) { return LowerAsciiByte(a) == b; };
    if (std::search(text.begin(), text.end(), needle.begin(), needle.end(), same) == text.end()) return false;
  }
  return true;
}

Result<ExplainPattern> CompileExplainPattern(std::string_view regex, std::string_view declared_literal,
                                             bool icase) {
  auto named = RewriteNamedGroups(regex);
  if (!named.ok()) return named.error();
  ExplainPattern p;
  p.text = std::string(regex);
  p.group_names = named->group_names;
  p.literal = declared_literal.empty() ? DeriveLiteral(regex) : ToLower(declared_literal);
  p.also_required = AlsoRequiredLiterals(regex, p.literal);
  if (p.literal.size() < kMinLiteralLength)
    return UserError(
        "no literal of " + std::to_string(kMinLiteralLength) + "+ characters in '" + std::string(regex) + "'",
        "add `literal = \"...\"` naming text every match contains");
  auto flags = std::regex::ECMAScript | std::regex::optimize;
  if (icase) flags |= std::regex::icase;
  try {
    p.regex = std::make_shared<const std::regex>(named->regex, flags);
  } catch (const std::exception& e) {
    return UserError("the regular expression '" + std::string(regex) + "' does not compile: " + e.what());
  }
  if (p.regex->mark_count() != p.group_names.size())
    return InternalError("group count mismatch in '" + std::string(regex) + "'");
  return p;
}

}  // namespace gpudoctor
