// The one list of subcommands, in the order `gpudoctor --help` shows them.
#include "cli/check_command.h"
#include "cli/command.h"
#include "cli/explain_command.h"
#include "cli/gather_command.h"
#include "cli/info_command.h"
#include "cli/targets_command.h"
#include "cli/verify_command.h"

namespace gpudoctor {

std::vector<std::unique_ptr<Command>> MakeCommands() {
  std::vector<std::unique_ptr<Command>> list;
  list.push_back(std::make_unique<CheckCommand>());
  list.push_back(std::make_unique<InfoCommand>());
  list.push_back(std::make_unique<VerifyCommand>());
  list.push_back(std::make_unique<ExplainCommand>());
  list.push_back(std::make_unique<GatherCommand>());
  list.push_back(std::make_unique<TargetsCommand>());
  return list;
}

}  // namespace gpudoctor
