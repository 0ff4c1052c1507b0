// `gpudoctor man`: every command's flag table and help through cli/man_page.cpp, to stdout.
#include "cli/man_command.h"

#include "cli/flag_table.h"
#include "cli/man_page.h"
#include "cli/output.h"
#include "core/build_version.h"
#include "knowledge/knowledge_as_of.h"

namespace gpudoctor {

std::string ManCommand::Description() const {
  return "The same text as each command's --help, as one manual page.\n"
         "\n"
         "Examples:\n"
         "  gpudoctor man | man -l -\n"
         "  gpudoctor man > ~/.local/share/man/man1/gpudoctor.1";
}

void ManCommand::DefineFlags(FlagSet&) {}

int ManCommand::Run(const CliContext& ctx) {
  WriteAll(ctx.out,
           ManPage(DescribeCommands(MakeCommands()), BuildVersion(), EmbeddedKnowledgeAsOf().value_or("")));
  return kExitOk;
}

}  // namespace gpudoctor
