// Shell syntax for fixes. Each shell has one quoting function; rules never build shell text
// themselves beyond a whole command, so quoting mistakes live (and are tested) in one place.
#include "rules/shell.h"

#include "core/strings.h"

namespace gpudoctor {
namespace {

bool IsPlainBashChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  switch (c) {
    case '_':
    case '-':
    case '.':
    case '/':
    case ':':
    case ',':
    case '+':
    case '=':
    case '@':
    case '%':
      return true;
    default:
      return false;
  }
}

// Characters cmd.exe treats specially outside quotes.
bool NeedsCmdQuotes(std::string_view value) {
  for (char c : value) {
    switch (c) {
      case ' ':
      case '&':
      case '|':
      case '<':
      case '>':
      case '^':
      case '(':
      case ')':
      case '"':
        return true;
      default:
        break;
    }
  }
  return false;
}

}  // namespace

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

const char* ToString(Shell s) {
  switch (s) {
    case Shell::kBash:
      return "bash";
    case Shell::kPowerShell:
      return "powershell";
    case Shell::kCmd:
      return "cmd";
  }
  return "bash";
}

std::optional<Shell> ShellFromString(std::string_view s) {
  if (s == "bash" || s == "sh" || s == "zsh") return Shell::kBash;
  if (s == "powershell" || s == "pwsh") return Shell::kPowerShell;
  if (s == "cmd") return Shell::kCmd;
  return std::nullopt;
}

Shell DetectShell(OsFamily os_family, const Environment& env) {
  if (os_family != OsFamily::kWindows) return Shell::kBash;
  std::string modules = ToLower(env.Get("PSModulePath").value_or(""));
  if (modules.find("\\documents\\") != std::string::npos) return Shell::kPowerShell;
  if (env.Has("PROMPT") && env.Has("ComSpec")) return Shell::kCmd;
  return Shell::kPowerShell;
}

std::string QuoteBash(std::string_view word) {
  if (word.empty()) return "''";
  bool plain = true;
  for (char c : word) plain = plain && IsPlainBashChar(c);
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string QuotePowerShell(std::string_view word) {
  std::string out = "\"";
  for (char c : word) {
    if (c == '`' || c == '"' || c == '$') out += '`';
    out += c;
  }
  return out + "\"";
}

std::string QuoteCmdSetValue(std::string_view name, std::string_view value) {
  std::string assignment = std::string(name) + "=" + std::string(value);
  if (!NeedsCmdQuotes(value)) return "set " + assignment;
  // In `set "X=Y"` everything up to the last quote is taken literally, & and | included.
  std::string escaped;
  for (char c : assignment) {
    if (c != '"') escaped += c;
  }
  return "set \"" + escaped + "\"";
}

FixLine RenderAction(const FixAction& a, Shell shell) {
  switch (a.kind) {
    case FixAction::Kind::kSetEnv:
      switch (shell) {
        case Shell::kBash:
          return {true, "export " + a.name + "=" + QuoteBash(a.value)};
        case Shell::kPowerShell:
          return {true, "$env:" + a.name + " = " + QuotePowerShell(a.value)};
        case Shell::kCmd:
          return {true, QuoteCmdSetValue(a.name, a.value)};
      }
      break;
    case FixAction::Kind::kUnsetEnv:
      switch (shell) {
        case Shell::kBash:
          return {true, "unset " + a.name};
        case Shell::kPowerShell:
          return {true, "Remove-Item Env:" + a.name};
        case Shell::kCmd:
          return {true, "set " + a.name + "="};
      }
      break;
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
