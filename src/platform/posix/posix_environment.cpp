// POSIX: the process environment from `environ`.
#include "platform/environment.h"

extern char** environ;

namespace gpudoctor {

Environment CaptureProcessEnvironment() {
  std::map<std::string, std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string entry(*e);
    size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    vars.emplace(entry.substr(0, eq), entry.substr(eq + 1));
  }
  return Environment(std::move(vars));
}

}  // namespace gpudoctor
