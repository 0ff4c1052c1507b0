// The activation snippets of a set-up environment (see activation_snippet.h).
#include "setup/activation_snippet.h"

#include <array>

#include "rules/shell.h"

namespace gpudoctor {
namespace {

const char kHeader[] = "gpudoctor setup: enter this environment with its GPU variables";

std::string SetPosix(const VariableStep& v) {
  return v.unset ? "unset " + v.name : "export " + v.name + "=" + QuoteBash(v.value);
}
std::string SetFish(const VariableStep& v) {
  return v.unset ? "set -e " + v.name : "set -gx " + v.name + " " + QuoteFish(v.value);
}
std::string SetPowerShell(const VariableStep& v) {
  return v.unset ? "Remove-Item Env:" + v.name + " -ErrorAction SilentlyContinue"
                 : "$env:" + v.name + " = " + QuotePowerShell(v.value);
}

// What differs between the shells; one row each, in SnippetShell's order.
struct ShellSyntax {
  const char* file;         // the snippet's own name
  const char* shells;       // the shells it is for, as its comment names them
  const char* source;       // the command that runs a script in the current shell
  const char* venv_script;  // a venv's own activate script for this shell
  std::string (*quote)(std::string_view);
  std::string (*set)(const VariableStep&);
};

const ShellSyntax& SyntaxOf(SnippetShell shell) {
  static const std::array<ShellSyntax, 3> kShells = {{
      {"gpudoctor-activate.sh", "bash, zsh", ". ", "activate", QuoteBash, SetPosix},
      {"gpudoctor-activate.fish", "fish", "source ", "activate.fish", QuoteFish, SetFish},
      {"gpudoctor-activate.ps1", "PowerShell", ". ", "Activate.ps1", QuotePowerShell, SetPowerShell},
  }};
  return kShells.at(static_cast<size_t>(shell));
}

char Separator(const std::string& dir) {
  return dir.find('\\') != std::string::npos ? '\\' : '/';
}

std::string Join(const std::string& dir, const std::string& name) {
  return dir + Separator(dir) + name;
}

// The environment's folder: the one above its scripts.
std::string Parent(const std::string& dir) {
  const size_t pos = dir.find_last_of(Separator(dir));
  return pos == std::string::npos ? "." : dir.substr(0, pos);
}

// A comment that says how to source the snippet (from `env_dir`), the line that enters the environment,
// then the variables.
std::string Snippet(SnippetShell shell, const std::string& env_dir, const std::string& enter,
                    const std::vector<VariableStep>& variables) {
  const ShellSyntax& s = SyntaxOf(shell);
  std::string out = std::string("# ") + kHeader + " (" + s.shells + "): " + s.source +
                    s.quote(Join(env_dir, s.file)) + "\n" + enter + "\n";
  for (const VariableStep& v : variables) out += s.set(v) + "\n";
  return out;
}

}  // namespace

const char* SnippetFileName(SnippetShell shell) {
  return SyntaxOf(shell).file;
}

std::string ActivationSnippet(SnippetShell shell, const std::string& bin_dir,
                              const std::vector<VariableStep>& variables) {
  const ShellSyntax& s = SyntaxOf(shell);
  return Snippet(shell, Parent(bin_dir), s.source + s.quote(Join(bin_dir, s.venv_script)), variables);
}

std::string CondaActivationSnippet(SnippetShell shell, const std::string& prefix,
                                   const std::vector<VariableStep>& variables) {
  return Snippet(shell, prefix, "conda activate " + SyntaxOf(shell).quote(prefix), variables);
}

std::string QuoteFish(std::string_view word) {
  std::string out = "'";
  for (char c : word) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace gpudoctor
