// Records Command::DefineFlags into FlagSpecs (flag_table.h).
#include "cli/flag_table.h"

#include "core/strings.h"

namespace gpudoctor {

bool FlagSpec::TakesPath() const {
  if (kind == Kind::kBool || kind == Kind::kChoice) return false;
  for (const char* word : {"FILE", "DIR", "PATH", "path", "FILES"})
    if (placeholder.find(word) != std::string::npos || (IsPositional() && names.at(0) == word)) return true;
  return false;
}

std::string FlagSpec::LongName() const {
  for (const auto& n : names)
    if (n.rfind("--", 0) == 0) return n;
  return names.empty() ? std::string() : names.front();
}

void FlagTable::Add(FlagSpec::Kind kind, const std::string& names, std::string placeholder,
                    std::vector<std::string> choices, const std::string& help) {
  FlagSpec f;
  f.kind = kind;
  for (const auto& n : Split(names, ',')) f.names.push_back(std::string(Trim(n)));
  f.placeholder = std::move(placeholder);
  f.choices = std::move(choices);
  f.help = help;
  flags_.push_back(std::move(f));
}

void FlagTable::Bool(const std::string& names, bool*, const std::string& help) {
  Add(FlagSpec::Kind::kBool, names, "", {}, help);
}
void FlagTable::String(const std::string& names, std::string*, const std::string& placeholder,
                       const std::string& help) {
  Add(FlagSpec::Kind::kString, names, placeholder, {}, help);
}
void FlagTable::StringList(const std::string& names, std::vector<std::string>*,
                           const std::string& placeholder, const std::string& help) {
  Add(FlagSpec::Kind::kStringList, names, placeholder, {}, help);
}
void FlagTable::Choice(const std::string& names, std::string*, const std::vector<std::string>& choices,
                       const std::string& help) {
  Add(FlagSpec::Kind::kChoice, names, "", choices, help);
}
void FlagTable::Positional(const std::string& name, std::string*, const std::string& help, bool required) {
  Add(FlagSpec::Kind::kPositional, name, "", {}, help);
  flags_.back().required = required;
}
void FlagTable::PositionalList(const std::string& name, std::vector<std::string>*, const std::string& help) {
  Add(FlagSpec::Kind::kPositionalList, name, "", {}, help);
}
void FlagTable::Excludes(const std::string&, const std::string&) {}
void FlagTable::Hide(const std::string& long_name) {
  for (auto& f : flags_)
    if (f.LongName() == long_name) f.hidden = true;
}

std::vector<CommandSpec> DescribeCommands(const std::vector<std::unique_ptr<Command>>& commands) {
  std::vector<CommandSpec> out;
  for (const auto& c : commands) {
    FlagTable table;
    c->DefineFlags(table);
    out.push_back({c->Name(), c->Summary(), c->Description(), table.Take()});
  }
  return out;
}

}  // namespace gpudoctor
