// Environment lookups and the parser for environment files recorded by `gather`.
#include "platform/environment.h"

#include "core/strings.h"

namespace gpudoctor {

std::optional<std::string> Environment::Get(std::string_view name) const {
  if (reads_ != nullptr) reads_->emplace(name);
  auto it = vars_.find(std::string(name));
  if (it == vars_.end()) return std::nullopt;
  return it->second;
}

Environment ParseEnvironmentFile(std::string_view text) {
  std::map<std::string, std::string> vars;
  for (auto line : SplitLines(text)) {
    size_t eq = line.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    vars[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
  }
  return Environment(std::move(vars));
}

}  // namespace gpudoctor
