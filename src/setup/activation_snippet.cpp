// The activation snippets of a set-up environment (see activation_snippet.h).
#include "setup/activation_snippet.h"

#include "rules/shell.h"

namespace gpudoctor {
namespace {

const char kHeader[] = "gpudoctor setup: enter this environment with its GPU variables";

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

// Each shell's snippet: a comment that says how to source it (from `env_dir`), the line that enters the
// environment, then the variables.
std::string Posix(const std::string& env_dir, const std::string& enter,
                  const std::vector<VariableStep>& variables) {
  std::string out = std::string("# ") + kHeader + " (bash, zsh): . " +
                    QuoteBash(Join(env_dir, "gpudoctor-activate.sh")) + "\n" + enter + "\n";
  for (const VariableStep& v : variables)
    out += v.unset ? "unset " + v.name + "\n" : "export " + v.name + "=" + QuoteBash(v.value) + "\n";
  return out;
}

std::string Fish(const std::string& env_dir, const std::string& enter,
                 const std::vector<VariableStep>& variables) {
  std::string out = std::string("# ") + kHeader + " (fish): source " +
                    QuoteFish(Join(env_dir, "gpudoctor-activate.fish")) + "\n" + enter + "\n";
  for (const VariableStep& v : variables)
    out += v.unset ? "set -e " + v.name + "\n" : "set -gx " + v.name + " " + QuoteFish(v.value) + "\n";
  return out;
}

std::string PowerShell(const std::string& env_dir, const std::string& enter,
                       const std::vector<VariableStep>& variables) {
  std::string out = std::string("# ") + kHeader + " (PowerShell): . " +
                    QuotePowerShell(Join(env_dir, "gpudoctor-activate.ps1")) + "\n" + enter + "\n";
  for (const VariableStep& v : variables) {
    out += v.unset ? "Remove-Item Env:" + v.name + " -ErrorAction SilentlyContinue\n"
                   : "$env:" + v.name + " = " + QuotePowerShell(v.value) + "\n";
  }
  return out;
}

std::string Snippet(SnippetShell shell, const std::string& env_dir, const std::string& enter,
                    const std::vector<VariableStep>& variables) {
  switch (shell) {
    case SnippetShell::kPosix:
      return Posix(env_dir, enter, variables);
    case SnippetShell::kFish:
      return Fish(env_dir, enter, variables);
    case SnippetShell::kPowerShell:
      return PowerShell(env_dir, enter, variables);
  }
  return "";
}

}  // namespace

const char* SnippetFileName(SnippetShell shell) {
  switch (shell) {
    case SnippetShell::kPosix:
      return "gpudoctor-activate.sh";
    case SnippetShell::kFish:
      return "gpudoctor-activate.fish";
    case SnippetShell::kPowerShell:
      return "gpudoctor-activate.ps1";
  }
  return "";
}

std::string ActivationSnippet(SnippetShell shell, const std::string& bin_dir,
                              const std::vector<VariableStep>& variables) {
  switch (shell) {
    case SnippetShell::kPosix:
      return Snippet(shell, Parent(bin_dir), ". " + QuoteBash(Join(bin_dir, "activate")), variables);
    case SnippetShell::kFish:
      return Snippet(shell, Parent(bin_dir), "source " + QuoteFish(Join(bin_dir, "activate.fish")),
                     variables);
    case SnippetShell::kPowerShell:
      return Snippet(shell, Parent(bin_dir), ". " + QuotePowerShell(Join(bin_dir, "Activate.ps1")),
                     variables);
  }
  return "";
}

std::string CondaActivationSnippet(SnippetShell shell, const std::string& prefix,
                                   const std::vector<VariableStep>& variables) {
  switch (shell) {
    case SnippetShell::kPosix:
      return Snippet(shell, prefix, "conda activate " + QuoteBash(prefix), variables);
    case SnippetShell::kFish:
      return Snippet(shell, prefix, "conda activate " + QuoteFish(prefix), variables);
    case SnippetShell::kPowerShell:
      return Snippet(shell, prefix, "conda activate " + QuotePowerShell(prefix), variables);
  }
  return "";
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
