// Reading a pip command line of a fix back into its parts (see pip_line.h).
#include "setup/pip_line.h"

#include <cctype>

namespace gpudoctor {
namespace {

// Words split at blanks outside double quotes, the quotes removed; nullopt when a quote is left open.
std::optional<std::vector<std::string>> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false;
  bool in_word = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && (c == ' ' || c == '\t')) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quoted) return std::nullopt;
  if (in_word) words.push_back(word);
  return words;
}

bool TakesValue(const std::string& option) {
  return option == "--index-url" || option == "-i" || option == "--extra-index-url" ||
         option == "--find-links" || option == "-f";
}

}  // namespace

std::optional<PipLine> ParsePipLine(std::string_view line) {
  if (line.find("&&") != std::string_view::npos || line.find(';') != std::string_view::npos ||
      line.find('|') != std::string_view::npos)
    return std::nullopt;
  auto words = SplitWords(line);
  if (!words || words->empty() || words->front().starts_with("#")) return std::nullopt;
  size_t pip = 0;
  while (pip + 2 < words->size() && !((*words)[pip] == "-m" && (*words)[pip + 1] == "pip")) ++pip;
  if (pip + 2 >= words->size() || pip == 0) return std::nullopt;
  PipLine out;
  for (size_t i = 0; i < pip; ++i) {
    if (i == 0 && (*words)[i] == "&") continue;  // PowerShell's call operator
    out.python += (out.python.empty() ? "" : " ") + (*words)[i];
  }
  const std::string& verb = (*words)[pip + 2];
  if (verb != "install" && verb != "uninstall") return std::nullopt;
  out.uninstall = verb == "uninstall";
  for (size_t i = pip + 3; i < words->size(); ++i) {
    const std::string& w = (*words)[i];
    if (TakesValue(w)) {
      if (i + 1 >= words->size()) return std::nullopt;
      const std::string& value = (*words)[++i];
      if (w == "--find-links" || w == "-f") {
        out.find_links = value;
      } else if (out.index_url.empty() || w == "--index-url" || w == "-i") {
        out.index_url = value;
      }
    } else if (w.starts_with("-")) {
      out.options.push_back(w);
    } else {
      out.requirements.push_back(w);
    }
  }
  if (out.requirements.empty()) return std::nullopt;
  return out;
}

std::string RequirementName(std::string_view requirement) {
  std::string name;
  for (char c : requirement) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (c == '-' || c == '_' || c == '.') {
      if (!name.empty() && name.back() != '-') name += '-';
    } else {
      break;
    }
  }
  while (!name.empty() && name.back() == '-') name.pop_back();
  return name;
}

}  // namespace gpudoctor
