// pip command lines and pytorch.org's indexes (pip_commands.h).
#include "rules/pip_commands.h"

#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "knowledge/version.h"

namespace gpudoctor {

ShellCommands PipCommand(const std::string& args) {
  return {"python3 -m pip " + args, "py -m pip " + args, "py -m pip " + args};
}

bool IsPytorchIndexVariant(const std::string& v) {
  if (v == "cpu") return true;
  if (StartsWith(v, "cu") && v.size() >= 4)
    return std::all_of(v.begin() + 2, v.end(),
                       [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  if (StartsWith(v, "rocm")) return Version::Parse(v.substr(4)).has_value();
  return false;
}

std::string PytorchIndexUrl(const std::string& variant) {
  return "https://download.pytorch.org/whl/" + variant;
}

}  // namespace gpudoctor
