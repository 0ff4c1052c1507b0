// Small pieces of markup the report's sections share: an escaped element, a status badge, a table
// built row by row, a definition list. Each escapes what it is given, so section code never writes
// unescaped text by accident; `Raw` marks the few places that pass markup on.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

// Markup that is already safe (built by these helpers or svg_chart), as opposed to text.
struct Raw {
  std::string html;
};

// <tag class="cls">escaped text</tag>; `cls` may be empty.
std::string Element(std::string_view tag, std::string_view cls, std::string_view text);
std::string Element(std::string_view tag, std::string_view cls, const Raw& inner);

// The look of a badge: pass/ok (green), fail/error (red), warn (amber), info (blue), skip (grey).
enum class BadgeKind { kGood, kBad, kWarn, kInfo, kMuted };
std::string Badge(BadgeKind kind, std::string_view text);

// A table with a header row; cells are text unless given as Raw.
class HtmlTable {
 public:
  HtmlTable(std::string cls, std::vector<std::string> headers);
  struct Cell {
    Cell(std::string_view text);    // NOLINT: implicit on purpose, text is the common case
    Cell(const char* text);         // NOLINT
    Cell(const std::string& text);  // NOLINT
    Cell(Raw raw);                  // NOLINT
    std::string html;
  };
  // `row_class` marks a row ("failed").
  void AddRow(std::vector<Cell> cells, std::string_view row_class = {});
  size_t rows() const { return rows_.size(); }
  std::string Render() const;

 private:
  std::string cls_;
  std::vector<std::string> headers_;
  std::vector<std::string> rows_;
};

// <dl class="facts"> of (label, value) pairs, values as text.
std::string FactList(const std::vector<std::pair<std::string, std::string>>& facts);

// A link when `url` is a safe http(s) address, the escaped text otherwise.
std::string LinkOrText(std::string_view url, std::string_view text);

}  // namespace gpudoctor
