// Aligned text tables for the terminal: columns padded to their widest cell.
#pragma once

#include <string>
#include <vector>

namespace gpudoctor {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}
  void AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Each line starts with `indent`; the last column is not padded.
  std::string Render(const std::string& indent = "  ") const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

// "key  value" lines with the keys padded to one width.
class KeyValueBlock {
 public:
  void Add(std::string key, std::string value) { items_.emplace_back(std::move(key), std::move(value)); }
  bool empty() const { return items_.empty(); }
  std::string Render(const std::string& indent = "  ") const;

 private:
  std::vector<std::pair<std::string, std::string>> items_;
};

// Display width of UTF-8 text (counts code points; good enough for names and units).
size_t DisplayWidth(const std::string& s);

}  // namespace gpudoctor
