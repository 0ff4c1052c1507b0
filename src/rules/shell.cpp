// A fix rendered for one shell; the shell syntax itself is platform/shell_syntax.h's. Rules never build
// shell text themselves beyond a whole command.
#include "rules/shell.h"

#include "core/strings.h"

namespace gpudoctor {

FixAction FixAction::SetEnv(std::string name, std::string value) {
  FixAction a;
  a.kind = Kind::kSetEnv;
  a.name = std::move(name);
  a.value = std::move(value);
  return a;
}

FixAction FixAction::UnsetEnv(std::string name) {
  FixAction a;
  a.kind = Kind::kUnsetEnv;
  a.name = std::move(name);
  return a;
}

FixAction FixAction::Everywhere(std::string command) {
  FixAction a;
  a.kind = Kind::kCommand;
  a.commands = ShellCommands{command, command, command};
  return a;
}

FixAction FixAction::Bash(std::string command) {
  FixAction a;
  a.kind = Kind::kCommand;
  a.commands.bash = std::move(command);
  return a;
}

FixAction FixAction::PerShell(ShellCommands commands) {
  FixAction a;
  a.kind = Kind::kCommand;
  a.commands = std::move(commands);
  return a;
}

FixAction FixAction::Manual(std::string text) {
  FixAction a;
  a.kind = Kind::kManual;
  a.text = std::move(text);
  return a;
}

FixLine RenderAction(const FixAction& a, Shell shell) {
  switch (a.kind) {
    case FixAction::Kind::kSetEnv:
      return {true, SetEnvLine(a.name, a.value, shell)};
    case FixAction::Kind::kUnsetEnv:
      return {true, UnsetEnvLine(a.name, shell)};
    case FixAction::Kind::kCommand: {
      const std::string& text = shell == Shell::kBash         ? a.commands.bash
                                : shell == Shell::kPowerShell ? a.commands.powershell
                                                              : a.commands.cmd;
      if (!text.empty()) return {true, text};
      if (!a.commands.bash.empty()) return {false, "(in a Linux or WSL shell) " + a.commands.bash};
      if (!a.commands.powershell.empty()) return {false, "(in PowerShell) " + a.commands.powershell};
      return {false, "(in cmd) " + a.commands.cmd};
    }
    case FixAction::Kind::kManual:
      return {false, a.text};
  }
  return {false, a.text};
}

std::vector<FixLine> RenderFix(const std::vector<FixAction>& fix, Shell shell) {
  std::vector<FixLine> out;
  out.reserve(fix.size());
  for (const auto& a : fix) out.push_back(RenderAction(a, shell));
  return out;
}

}  // namespace gpudoctor
