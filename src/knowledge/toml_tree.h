// A parsed TOML document as a small plain tree with a line number on every value. It is the only
// interface to toml++ (which compiles slowly): toml_tree.cpp is the one file that includes it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor {

struct TomlField;

struct TomlNode {
  enum class Kind { kTable, kArray, kString, kInteger, kFloat, kBoolean, kDate, kTime, kDateTime };
  Kind kind = Kind::kTable;
  uint32_t line = 0;
  std::string text;  // kString; kDate "2024-08-02"; kTime / kDateTime in ISO form
  int64_t integer = 0;
  double number = 0;
  bool boolean = false;
  std::vector<TomlNode> items;    // kArray
  std::vector<TomlField> fields;  // kTable, sorted by key

  const TomlNode* Find(std::string_view key) const;
};

struct TomlField {
  std::string key;
  TomlNode value;
};

const char* ToString(TomlNode::Kind kind);  // "string", "integer", ...

struct TomlParse {
  std::optional<TomlNode> root;  // set on success
  uint32_t error_line = 0;
  std::string error;  // toml++'s description of the syntax error
};

// Never throws. `source_name` only labels toml++'s own messages.
TomlParse ParseTomlTree(std::string_view text, std::string_view source_name);

}  // namespace gpudoctor
