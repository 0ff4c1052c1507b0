// Markup helpers for the HTML report's sections (see html_parts.h).
#include "report/html_parts.h"

#include "report/html_escape.h"

namespace gpudoctor {

std::string Element(std::string_view tag, std::string_view cls, std::string_view text) {
  return Element(tag, cls, Raw{EscapeHtml(text)});
}

std::string Element(std::string_view tag, std::string_view cls, const Raw& inner) {
  std::string out = "<" + std::string(tag);
  if (!cls.empty()) out += " class=\"" + EscapeHtmlAttribute(cls) + "\"";
  return out + ">" + inner.html + "</" + std::string(tag) + ">";
}

std::string Badge(BadgeKind kind, std::string_view text) {
  const char* cls = "badge muted";
  switch (kind) {
    case BadgeKind::kGood:
      cls = "badge good";
      break;
    case BadgeKind::kBad:
      cls = "badge bad";
      break;
    case BadgeKind::kWarn:
      cls = "badge warn";
      break;
    case BadgeKind::kInfo:
      cls = "badge info";
      break;
    case BadgeKind::kMuted:
      break;
  }
  return Element("span", cls, text);
}

HtmlTable::Cell::Cell(std::string_view text) : html(EscapeHtml(text)) {}
HtmlTable::Cell::Cell(const char* text) : html(EscapeHtml(text)) {}
HtmlTable::Cell::Cell(const std::string& text) : html(EscapeHtml(text)) {}
HtmlTable::Cell::Cell(Raw raw) : html(std::move(raw.html)) {}

HtmlTable::HtmlTable(std::string cls, std::vector<std::string> headers)
    : cls_(std::move(cls)), headers_(std::move(headers)) {}

void HtmlTable::AddRow(std::vector<Cell> cells, std::string_view row_class) {
  std::string row = row_class.empty() ? "<tr>" : "<tr class=\"" + EscapeHtmlAttribute(row_class) + "\">";
  for (const auto& c : cells) row += "<td>" + c.html + "</td>";
  rows_.push_back(row + "</tr>\n");
}

std::string HtmlTable::Render() const {
  std::string out =
      "<div class=\"table-wrap\"><table class=\"" + EscapeHtmlAttribute(cls_) + "\">\n<thead><tr>";
  for (const auto& h : headers_) out += "<th scope=\"col\">" + EscapeHtml(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& r : rows_) out += r;
  return out + "</tbody></table></div>\n";
}

std::string FactList(const std::vector<std::pair<std::string, std::string>>& facts) {
  std::string out = "<dl class=\"facts\">\n";
  for (const auto& [k, v] : facts) out += "<dt>" + EscapeHtml(k) + "</dt><dd>" + EscapeHtml(v) + "</dd>\n";
  return out + "</dl>\n";
}

std::string LinkOrText(std::string_view url, std::string_view text) {
  if (auto href = SafeLinkHref(url))
    return "<a href=\"" + *href + "\" rel=\"noreferrer noopener\">" + EscapeHtml(text) + "</a>";
  return EscapeHtml(text);
}

}  // namespace gpudoctor
