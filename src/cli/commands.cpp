// The one list of subcommands, in the order `gpudoctor --help` shows them.
#include "cli/bench_command.h"
#include "cli/check_command.h"
#include "cli/collectives_command.h"
#include "cli/command.h"
#include "cli/completions_command.h"
#include "cli/db_command.h"
#include "cli/explain_command.h"
#include "cli/fleet_command.h"
#include "cli/gather_command.h"
#include "cli/info_command.h"
#include "cli/man_command.h"
#include "cli/monitor_command.h"
#include "cli/port_command.h"
#include "cli/report_command.h"
#include "cli/serve_command.h"
#include "cli/setup_command.h"
#include "cli/targets_command.h"
#include "cli/topo_command.h"
#include "cli/tune_command.h"
#include "cli/verify_command.h"

namespace gpudoctor {

std::vector<std::unique_ptr<Command>> MakeCommands() {
  std::vector<std::unique_ptr<Command>> list;
  list.push_back(std::make_unique<CheckCommand>());
  list.push_back(std::make_unique<InfoCommand>());
  list.push_back(std::make_unique<VerifyCommand>());
  list.push_back(std::make_unique<BenchCommand>());
  list.push_back(std::make_unique<TuneCommand>());
  list.push_back(std::make_unique<SetupCommand>());
  list.push_back(std::make_unique<ReportCommand>());
  list.push_back(std::make_unique<ExplainCommand>());
  list.push_back(std::make_unique<GatherCommand>());
  list.push_back(std::make_unique<TargetsCommand>());
  list.push_back(std::make_unique<PortCommand>());
  list.push_back(std::make_unique<TopoCommand>());
  list.push_back(std::make_unique<MonitorCommand>());
  list.push_back(std::make_unique<ServeCommand>());
  list.push_back(std::make_unique<CollectivesCommand>());
  list.push_back(std::make_unique<FleetCommand>());
  list.push_back(std::make_unique<DbCommand>());
  list.push_back(std::make_unique<CompletionsCommand>());
  list.push_back(std::make_unique<ManCommand>());
  return list;
}

}  // namespace gpudoctor
