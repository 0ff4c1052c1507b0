// The environment variables a run sees, captured once in main and passed down
// as plain data: nothing after main reads the process environment directly.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace gpudoctor {

class Environment {
 public:
  Environment() = default;
  explicit Environment(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {}

  std::optional<std::string> Get(std::string_view name) const;
  bool Has(std::string_view name) const { return Get(name).has_value(); }
  const std::map<std::string, std::string>& All() const { return vars_; }

 private:
  std::map<std::string, std::string> vars_;
};

// The current process's environment (platform code: environ / GetEnvironmentStringsW).
Environment CaptureProcessEnvironment();

// "KEY=value" lines, as `gather` records them; lines without '=' are ignored.
Environment ParseEnvironmentFile(std::string_view text);

}  // namespace gpudoctor
