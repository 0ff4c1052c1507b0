// Shell syntax (see shell_syntax.h): one quoting function per shell.
#include "platform/shell_syntax.h"

#include "core/enum_names.h"
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

// The first name of each is the one written; the others are read as the same shell.
constexpr std::array kShellNames = {
    EnumName<Shell>{Shell::kBash, "bash"},       EnumName<Shell>{Shell::kBash, "sh"},
    EnumName<Shell>{Shell::kBash, "zsh"},        EnumName<Shell>{Shell::kPowerShell, "powershell"},
    EnumName<Shell>{Shell::kPowerShell, "pwsh"}, EnumName<Shell>{Shell::kCmd, "cmd"},
};

const char* ToString(Shell s) {
  return NameIn(kShellNames, s);
}

std::optional<Shell> ShellFromString(std::string_view s) {
  return ValueIn(kShellNames, s);
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

std::string SetEnvLine(std::string_view name, std::string_view value, Shell shell) {
  switch (shell) {
    case Shell::kBash:
      return "export " + std::string(name) + "=" + QuoteBash(value);
    case Shell::kPowerShell:
      return "$env:" + std::string(name) + " = " + QuotePowerShell(value);
    case Shell::kCmd:
      return QuoteCmdSetValue(name, value);
  }
  return "export " + std::string(name) + "=" + QuoteBash(value);
}

std::string UnsetEnvLine(std::string_view name, Shell shell) {
  switch (shell) {
    case Shell::kBash:
      return "unset " + std::string(name);
    case Shell::kPowerShell:
      return "Remove-Item Env:" + std::string(name);
    case Shell::kCmd:
      return "set " + std::string(name) + "=";
  }
  return "unset " + std::string(name);
}

}  // namespace gpudoctor
