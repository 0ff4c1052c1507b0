// Typed field access with errors that name file, line and entry (see entry_reader.h).
#include "knowledge/entry_reader.h"

#include <cmath>
#include <cstdio>

namespace gpudoctor {
namespace {

bool IsDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// "2024-08-02" or "2024-08", with a plausible month and day.
bool IsDateText(std::string_view s) {
  if (s.size() != 7 && s.size() != 10) return false;
  if (!IsDigits(s.substr(0, 4)) || s[4] != '-' || !IsDigits(s.substr(5, 2))) return false;
  int month = (s[5] - '0') * 10 + (s[6] - '0');
  if (month < 1 || month > 12) return false;
  if (s.size() == 7) return true;
  if (s[7] != '-' || !IsDigits(s.substr(8, 2))) return false;
  int day = (s[8] - '0') * 10 + (s[9] - '0');
  return day >= 1 && day <= 31;
}

bool IsUrl(std::string_view s) {
  for (std::string_view scheme : {"https://", "http://"}) {
    if (s.size() > scheme.size() && s.substr(0, scheme.size()) == scheme) return true;
  }
  return false;
}

}  // namespace

void ParseSink::Add(uint32_t line, std::string message) const {
  if (errors != nullptr) errors->push_back(KnowledgeError{display_file, line, std::move(message)});
}

std::string HexId(uint32_t id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", id);
  return buf;
}

EntryReader::EntryReader(const TomlNode& table, const ParseSink& sink, std::string label)
    : table_(table), sink_(sink), label_(std::move(label)), used_(table.fields.size(), false) {}

void EntryReader::Error(uint32_t line, std::string_view message) const {
  sink_.Add(line != 0 ? line : table_.line, "entry '" + label_ + "': " + std::string(message));
}

void EntryReader::WrongType(const TomlNode& node, std::string_view key, std::string_view expected) const {
  Error(node.line,
        "'" + std::string(key) + "' must be " + std::string(expected) + ", found " + ToString(node.kind));
}

const TomlNode* EntryReader::Get(std::string_view key, Need need) {
  for (size_t i = 0; i < table_.fields.size(); ++i) {
    if (table_.fields[i].key == key) {
      used_[i] = true;
      return &table_.fields[i].value;
    }
  }
  if (need == Need::kRequired) sink_.Add(table_.line, "entry '" + label_ + "' has no " + std::string(key));
  return nullptr;
}

std::optional<std::string> EntryReader::Text(std::string_view key, Need need) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  if (node->kind != TomlNode::Kind::kString) {
    WrongType(*node, key, "a string");
    return std::nullopt;
  }
  if (node->text.empty()) {
    Error(node->line, "'" + std::string(key) + "' is empty");
    return std::nullopt;
  }
  return node->text;
}

std::optional<int64_t> EntryReader::Integer(std::string_view key, Need need, int64_t min, int64_t max) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  if (node->kind != TomlNode::Kind::kInteger) {
    WrongType(*node, key, "an integer");
    return std::nullopt;
  }
  if (node->integer < min || node->integer > max) {
    Error(node->line, "'" + std::string(key) + "' = " + std::to_string(node->integer) + " is out of range [" +
                          std::to_string(min) + ", " + std::to_string(max) + "]");
    return std::nullopt;
  }
  return node->integer;
}

std::optional<double> EntryReader::Number(std::string_view key, Need need) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  double value = 0;
  if (node->kind == TomlNode::Kind::kInteger) {
    value = static_cast<double>(node->integer);
  } else if (node->kind == TomlNode::Kind::kFloat) {
    value = node->number;
  } else {
    WrongType(*node, key, "a number");
    return std::nullopt;
  }
  if (!std::isfinite(value) || value < 0) {
    Error(node->line, "'" + std::string(key) + "' must be a finite number >= 0");
    return std::nullopt;
  }
  return value;
}

std::optional<bool> EntryReader::Boolean(std::string_view key, Need need) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  if (node->kind != TomlNode::Kind::kBoolean) {
    WrongType(*node, key, "true or false");
    return std::nullopt;
  }
  return node->boolean;
}

std::optional<Version> EntryReader::VersionText(std::string_view key, Need need) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  if (node->kind != TomlNode::Kind::kString) {
    WrongType(*node, key, "a version string such as \"6.2.4\"");
    return std::nullopt;
  }
  auto v = Version::Parse(node->text);
  if (!v)
    Error(node->line,
          "'" + std::string(key) + "' = \"" + node->text + "\" is not a version such as \"6.2.4\"");
  return v;
}

std::optional<std::string> EntryReader::Date(std::string_view key, Need need) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  if (node->kind == TomlNode::Kind::kDate) return node->text;
  if (node->kind == TomlNode::Kind::kString && IsDateText(node->text)) return node->text;
  Error(node->line, "'" + std::string(key) + "' must be a date \"YYYY-MM-DD\" or \"YYYY-MM\"");
  return std::nullopt;
}

std::vector<std::string> EntryReader::TextList(std::string_view key, Need need) {
  std::vector<std::string> out;
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return out;
  if (node->kind == TomlNode::Kind::kString) {
    if (node->text.empty())
      Error(node->line, "'" + std::string(key) + "' is empty");
    else
      out.push_back(node->text);
    return out;
  }
  if (node->kind != TomlNode::Kind::kArray) {
    WrongType(*node, key, "a string or an array of strings");
    return out;
  }
  for (const TomlNode& item : node->items) {
    if (item.kind != TomlNode::Kind::kString || item.text.empty()) {
      Error(item.line, "'" + std::string(key) + "' must hold non-empty strings only");
      return {};
    }
    out.push_back(item.text);
  }
  return out;
}

std::vector<int64_t> EntryReader::IntegerList(std::string_view key, Need need, int64_t min, int64_t max) {
  std::vector<int64_t> out;
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return out;
  std::vector<const TomlNode*> items;
  if (node->kind == TomlNode::Kind::kArray) {
    for (const TomlNode& item : node->items) items.push_back(&item);
  } else {
    items.push_back(node);
  }
  for (const TomlNode* item : items) {
    if (item->kind != TomlNode::Kind::kInteger || item->integer < min || item->integer > max) {
      Error(item->line, "'" + std::string(key) + "' must be integers in [" + std::to_string(min) + ", " +
                            std::to_string(max) + "]");
      return {};
    }
    out.push_back(item->integer);
  }
  return out;
}

const TomlNode* EntryReader::Node(std::string_view key, TomlNode::Kind kind, Need need) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return nullptr;
  if (node->kind != kind) {
    WrongType(*node, key, kind == TomlNode::Kind::kTable ? "a table" : "an array");
    return nullptr;
  }
  return node;
}

std::optional<size_t> EntryReader::Choice(std::string_view key, Need need,
                                          const std::vector<std::string_view>& names) {
  const TomlNode* node = Get(key, need);
  if (node == nullptr) return std::nullopt;
  if (node->kind == TomlNode::Kind::kString) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == node->text) return i;
    }
  }
  std::string allowed;
  for (std::string_view n : names) allowed += (allowed.empty() ? "" : ", ") + std::string(n);
  Error(node->line, "'" + std::string(key) + "' must be one of: " + allowed);
  return std::nullopt;
}

Provenance EntryReader::ReadProvenance() {
  Provenance p;
  p.origin = origin();
  p.sources = TextList("source", Need::kRequired);
  if (p.sources.empty() && Peek("source") != nullptr)
    sink_.Add(Peek("source")->line, "entry '" + label_ + "' has no source");
  for (const std::string& s : p.sources) {
    if (!IsUrl(s)) Error(0, "source '" + s + "' is not a URL (http:// or https://)");
  }
  p.confirmed = Boolean("confirmed", Need::kOptional).value_or(true);
  p.note = Text("note", Need::kOptional).value_or("");
  if (!p.confirmed && p.note.empty()) Error(0, "confirmed = false needs a note saying what is not verified");
  if (auto checked = Date("checked", Need::kOptional)) {
    if (checked->size() == 10) {
      p.checked = *checked;
    } else {
      Error(Peek("checked")->line, "'checked' must be a full date \"YYYY-MM-DD\" (the day it was verified)");
    }
  }
  return p;
}

void EntryReader::Finish() {
  for (size_t i = 0; i < table_.fields.size(); ++i) {
    const TomlField& f = table_.fields[i];
    if (!used_[i]) Error(f.value.line, "unknown field '" + f.key + "'");
  }
}

}  // namespace gpudoctor
