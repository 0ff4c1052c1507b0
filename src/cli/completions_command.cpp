// `gpudoctor completions SHELL`: the flag table of every command, through cli/completions.cpp, to stdout.
#include "cli/completions_command.h"

#include "cli/completions.h"
#include "cli/flag_table.h"
#include "cli/flag_values.h"
#include "cli/output.h"

namespace gpudoctor {

std::string CompletionsCommand::Description() const {
  return "Completes the commands, their flags and the values of flags with fixed choices; file names\n"
         "where a flag or argument takes a path. The .deb installs them for bash, zsh and fish.\n"
         "\n"
         "Examples:\n"
         "  source <(gpudoctor completions bash)                       # this bash session\n"
         "  gpudoctor completions bash > ~/.local/share/bash-completion/completions/gpudoctor\n"
         "  gpudoctor completions zsh > \"${fpath[1]}/_gpudoctor\"\n"
         "  gpudoctor completions fish > ~/.config/fish/completions/gpudoctor.fish\n"
         "  gpudoctor completions powershell | Out-String | Invoke-Expression   # add to $PROFILE to keep";
}

void CompletionsCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("SHELL", &shell_, "bash, zsh, fish or powershell", true);
}

int CompletionsCommand::Run(const CliContext& ctx) {
  // An empty SHELL ('') is refused as a word outside the set, not read as "not given".
  auto word = ChoiceFlag("SHELL", shell_.empty() ? "''" : shell_, CompletionShellNames());
  if (!word) return ReportError(ctx.err, word.error());
  auto shell = CompletionShellFromName(**word);
  if (!shell) return ReportError(ctx.err, InternalError("no completion script for the shell " + **word));
  WriteAll(ctx.out, CompletionScript(*shell, DescribeCommands(MakeCommands())));
  return kExitOk;
}

}  // namespace gpudoctor
