#include "explain/command_placeholders.h"

#include <algorithm>
#include <cctype>

namespace gpudoctor {

namespace {

bool IsPlaceholderName(std::string_view s) {
  if (s.empty() || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
           c == '_';
  });
}

std::string FillLine(const std::string& text, const std::vector<std::string>& names,
                     const ExplainMatch& match) {
  std::string out;
  size_t at = 0;
  while (at < text.size()) {
    const size_t open = text.find('{', at);
    const size_t close = open == std::string::npos ? std::string::npos : text.find('}', open);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 1, close - open - 1);
    const bool bash_variable = open > 0 && text[open - 1] == '$';
    out += text.substr(at, open - at);
    if (bash_variable || !IsPlaceholderName(name) ||
        std::find(names.begin(), names.end(), name) == names.end()) {
      out += '{';
      at = open + 1;
      continue;
    }
    std::string value = match.Capture(name);
    if (value.empty())
      std::transform(name.begin(), name.end(), std::back_inserter(value),
                     [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
    out += value;
    at = close + 1;
  }
  return out + text.substr(std::min(at, text.size()));
}

}  // namespace

std::vector<std::string> CommandPlaceholdersOf(const ExplainEntry& entry) {
  std::vector<std::string> names;
  for (const ExplainPattern& p : entry.patterns)
    for (const std::string& g : p.group_names)
      if (std::find(names.begin(), names.end(), g) == names.end()) names.push_back(g);
  return names;
}

ShellCommands FillCommandPlaceholders(const ExplainEntry& entry, const ExplainMatch& match) {
  const std::vector<std::string> names = CommandPlaceholdersOf(entry);
  return ShellCommands{FillLine(entry.commands.bash, names, match),
                       FillLine(entry.commands.powershell, names, match),
                       FillLine(entry.commands.cmd, names, match)};
}

}  // namespace gpudoctor
