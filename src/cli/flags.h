// Commands declare their flags through this small interface; only main.cpp
// knows the parser library (CLI11) behind it. Flags are declared once, and the
// help text comes from these declarations.
#pragma once

#include <string>
#include <vector>

namespace gpudoctor {

class FlagSet {
 public:
  virtual ~FlagSet() = default;
  // `names` like "--json" or "-o,--output".
  virtual void Bool(const std::string& names, bool* out, const std::string& help) = 0;
  virtual void String(const std::string& names, std::string* out, const std::string& placeholder,
                      const std::string& help) = 0;
  virtual void StringList(const std::string& names, std::vector<std::string>* out,
                          const std::string& placeholder, const std::string& help) = 0;
  // One of a fixed set of values.
  virtual void Choice(const std::string& names, std::string* out, const std::vector<std::string>& choices,
                      const std::string& help) = 0;
  virtual void Positional(const std::string& name, std::string* out, const std::string& help,
                          bool required) = 0;
  virtual void PositionalList(const std::string& name, std::vector<std::string>* out,
                              const std::string& help) = 0;
  // Options that cannot go together, by their long names ("--from", "--sysroot").
  virtual void Excludes(const std::string& a, const std::string& b) = 0;
  // Leaves an option, by its long name, out of the help: flags that exist for tests (verify --inject).
  virtual void Hide(const std::string& long_name) { (void)long_name; }
};

}  // namespace gpudoctor
