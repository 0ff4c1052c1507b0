// Finds the knowledge base's as-of date by reading its files line by line; no TOML parse, so `--version`
// stays instant. ISO dates compare correctly as strings.
#include "knowledge/knowledge_as_of.h"

#include <vector>

#include "knowledge/embedded_files.h"

namespace gpudoctor {
namespace {

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

// "2026-12-03" at the start of `s` (after an optional quote), or nullopt.
std::optional<std::string> LeadingDate(std::string_view s) {
  if (!s.empty() && (s.front() == '"' || s.front() == '\'')) s.remove_prefix(1);
  if (s.size() < 10) return std::nullopt;
  for (size_t i = 0; i < 10; ++i) {
    bool dash = i == 4 || i == 7;
    if (dash ? s[i] != '-' : !IsDigit(s[i])) return std::nullopt;
  }
  return std::string(s.substr(0, 10));
}

// Keeps in `newest` the newest date of `key = DATE` anywhere in `text`, inline tables included
// (`{ ..., checked = 2026-01-02 }`); `key` must start a word.
void NewestDateOf(std::string_view text, std::string_view key, std::optional<std::string>& newest) {
  for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    if (at > 0) {
      char before = text[at - 1];
      if (before == '_' || IsDigit(before) || (before >= 'a' && before <= 'z') ||
          (before >= 'A' && before <= 'Z'))
        continue;
    }
    std::string_view rest = text.substr(at + key.size());
    size_t i = 0;
    while (i < rest.size() && rest[i] == ' ') ++i;
    if (i >= rest.size() || rest[i] != '=') continue;
    ++i;
    while (i < rest.size() && rest[i] == ' ') ++i;
    if (auto date = LeadingDate(rest.substr(i)); date && (!newest || *date > *newest)) newest = date;
  }
}

}  // namespace

std::optional<std::string> KnowledgeAsOf(std::span<const std::string_view> toml_texts) {
  std::optional<std::string> as_of, checked;
  for (std::string_view text : toml_texts) {
    NewestDateOf(text, "as_of", as_of);
    NewestDateOf(text, "checked", checked);
  }
  return as_of ? as_of : checked;
}

std::optional<std::string> EmbeddedKnowledgeAsOf() {
  std::vector<std::string_view> texts;
  for (const EmbeddedFile* file : EmbeddedKnowledgeFiles()) texts.push_back(file->Text());
  return KnowledgeAsOf(texts);
}

}  // namespace gpudoctor
