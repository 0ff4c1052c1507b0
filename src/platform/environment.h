// The environment variables a run sees, captured once in main and passed down
// as plain data: nothing after main reads the process environment directly.
#pragma once

#include <map>
#include <optional>
#include <set>
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

  // From now on every name asked through Get or Has, set or not, is added to `names` (null: stop), so
  // that `gather` records the variables the probes read rather than a list kept by hand. Copies made
  // later record into the same set; `names` must outlive them or be detached first.
  void RecordReadsInto(std::set<std::string>* names) { reads_ = names; }

 private:
  std::map<std::string, std::string> vars_;
  std::set<std::string>* reads_ = nullptr;
};

// The current process's environment (platform code: environ / GetEnvironmentStringsW).
Environment CaptureProcessEnvironment();

// "KEY=value" lines, as `gather` records them; lines without '=' are ignored.
Environment ParseEnvironmentFile(std::string_view text);

}  // namespace gpudoctor
