// Turning a fix into lines a user can paste in one shell (the syntax and quoting: platform/shell_syntax.h).
// Which shell to show is chosen once, from a flag or the OS.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/shell_syntax.h"
#include "rules/finding.h"

namespace gpudoctor {

struct FixLine {
  bool command = true;  // false: a step to do by hand (shown as text, not as a command)
  std::string text;
};

// One action in one shell. A command missing for that shell becomes a manual line saying so.
FixLine RenderAction(const FixAction& action, Shell shell);
std::vector<FixLine> RenderFix(const std::vector<FixAction>& fix, Shell shell);

}  // namespace gpudoctor
