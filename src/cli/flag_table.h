// Every command's flags as data: the same declarations CLI11 gets in main.cpp (Command::DefineFlags)
// recorded into a table, from which the shell completions and the man page are written. One source
// for `--help`, completions and man page, so they cannot drift.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flags.h"

namespace gpudoctor {

struct FlagSpec {
  enum class Kind { kBool, kString, kStringList, kChoice, kPositional, kPositionalList };
  Kind kind = Kind::kBool;
  std::vector<std::string> names;  // {"-o", "--output"}; a positional's one name ("DIR")
  std::string placeholder;         // "FILE", "DIR", "N"; empty for bools and choices
  std::vector<std::string> choices;
  std::string help;
  bool required = false;
  bool hidden = false;  // left out of --help (flags for gpudoctor's own tests): left out here too

  bool IsPositional() const { return kind == Kind::kPositional || kind == Kind::kPositionalList; }
  bool TakesValue() const { return kind != Kind::kBool && !IsPositional(); }
  // The value is a path: complete file names for it.
  bool TakesPath() const;
  std::string LongName() const;  // "--output"; the first name when there is no long one
};

struct CommandSpec {
  std::string name;
  std::string summary;
  std::string description;
  std::vector<FlagSpec> flags;  // in declaration order, hidden ones included
};

// Records what a command declares.
class FlagTable final : public FlagSet {
 public:
  void Bool(const std::string& names, bool* out, const std::string& help) override;
  void String(const std::string& names, std::string* out, const std::string& placeholder,
              const std::string& help) override;
  void StringList(const std::string& names, std::vector<std::string>* out, const std::string& placeholder,
                  const std::string& help) override;
  void Choice(const std::string& names, std::string* out, const std::vector<std::string>& choices,
              const std::string& help) override;
  void Positional(const std::string& name, std::string* out, const std::string& help, bool required) override;
  void PositionalList(const std::string& name, std::vector<std::string>* out,
                      const std::string& help) override;
  void Excludes(const std::string& a, const std::string& b) override;
  void Hide(const std::string& long_name) override;

  std::vector<FlagSpec> Take() { return std::move(flags_); }

 private:
  void Add(FlagSpec::Kind kind, const std::string& names, std::string placeholder,
           std::vector<std::string> choices, const std::string& help);
  std::vector<FlagSpec> flags_;
};

// Each command's name, help and flags, in `gpudoctor --help` order.
std::vector<CommandSpec> DescribeCommands(const std::vector<std::unique_ptr<Command>>& commands);

}  // namespace gpudoctor
