// Column alignment for text reports.
#include "core/text_table.h"

#include <algorithm>

#include "core/printable.h"

namespace gpudoctor {

size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

namespace {
// A row with every cell made printable: the cells hold machine strings (host and GPU names, versions,
// environment values) that could carry escape sequences or line breaks (issue 35).
std::vector<std::string> PrintableRow(const std::vector<std::string>& row) {
  std::vector<std::string> out;
  out.reserve(row.size());
  for (const auto& cell : row) out.push_back(Printable(cell));
  return out;
}

void AppendPadded(std::string& out, const std::string& cell, size_t width) {
  out += cell;
  for (size_t w = DisplayWidth(cell); w < width; ++w) out += ' ';
}
}  // namespace

std::string TextTable::Render(const std::string& indent) const {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(rows_.size());
  for (const auto& r : rows_) rows.push_back(PrintableRow(r));
  std::vector<size_t> widths(header_.size(), 0);
  auto measure = [&](const std::vector<std::string>& row) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], DisplayWidth(row[i]));
  };
  measure(header_);
  for (const auto& r : rows) measure(r);
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string& cell = i < row.size() ? row[i] : std::string();
      if (i + 1 == widths.size()) {
        line += cell;
      } else {
        AppendPadded(line, cell, widths[i]);
        line += "  ";
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  };
  emit(header_);
  for (const auto& r : rows) emit(r);
  return out;
}

std::string KeyValueBlock::Render(const std::string& indent) const {
  size_t width = 0;
  for (const auto& [k, v] : items_) width = std::max(width, DisplayWidth(k));
  std::string out;
  for (const auto& [k, v] : items_) {
    std::string line = indent;
    AppendPadded(line, k, width);
    line += "  " + Printable(v);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace gpudoctor
