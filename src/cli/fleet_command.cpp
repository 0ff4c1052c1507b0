// `gpudoctor fleet merge`: reads the files, hands them to fleet/ and prints the summary.
#include "cli/fleet_command.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "cli/flag_values.h"
#include "cli/output.h"
#include "core/strings.h"
#include "fleet/fleet_analysis.h"
#include "fleet/fleet_report.h"
#include "platform/user_file.h"

namespace gpudoctor {

std::string FleetCommand::Description() const {
  return "Read the JSON reports of many nodes (check, info, verify, bench, collectives --json; a folder "
         "stands "
         "for the .json files in it), group them by host, and show the nodes that stand out: figures below "
         "the "
         "fleet's median by more than the threshold, driver / ROCm / runtime / framework versions other than "
         "the "
         "majority's, failed gates and benchmarks, check errors. The host is the report's own host name, "
         "else "
         "the file name (node017.verify.json -> node017). Details and the JSON schema: docs/fleet.md.\n\n"
         "Exit codes: 0 nothing stands out, 1 some nodes stand out, 3 no report could be read.\n\n"
         "Examples:\n"
         "  srun --output=out/%N.check.json gpudoctor check --json\n"
         "  srun --output=out/%N.bench.json gpudoctor bench --json\n"
         "  gpudoctor fleet merge out/*.json\n"
         "  gpudoctor fleet merge out/ --threshold 5 --json";
}

void FleetCommand::DefineFlags(FlagSet& flags) {
  flags.Positional("ACTION", &action_, "merge (the one action so far)", true);
  flags.PositionalList("FILES", &files_, "Report files, or folders holding them");
  flags.Bool("--json", &json_, "Print the fleet summary as JSON (schema: docs/fleet.md).");
  flags.String("--threshold", &threshold_, "PERCENT",
               "How far below the median a figure may be (default 10).");
}

int FleetCommand::Run(const CliContext& ctx) {
  auto action = ChoiceFlag("ACTION", action_.empty() ? "''" : action_, {"merge"});
  if (!action)
    return ReportError(ctx.err, UserError(action.error().message, "use `gpudoctor fleet merge FILES...`"));
  // From 0 up to, not including, 100: NumberFlag's bounds run the other way (above a floor, at most a cap).
  auto threshold = ParseDouble(threshold_);
  if (!threshold || *threshold < 0 || *threshold >= 100)
    return ReportError(ctx.err, UserError("--threshold " + threshold_ +
                                          ": not a percentage from 0 up to, not including, 100"));
  std::vector<std::string> paths;
  for (const auto& f : files_) {
    std::error_code ec;
    if (std::filesystem::is_directory(f, ec)) {
      std::vector<std::string> inside;
      for (const auto& e : std::filesystem::directory_iterator(f, ec))
        if (e.is_regular_file() && e.path().extension() == ".json") inside.push_back(e.path().string());
      std::sort(inside.begin(), inside.end());
      paths.insert(paths.end(), inside.begin(), inside.end());
    } else {
      paths.push_back(f);
    }
  }
  if (paths.empty())
    return ReportError(ctx.err, UserError("no report files given", "gpudoctor fleet merge out/*.json"));
  std::vector<NodeFacts> parsed;
  std::vector<SkippedFile> skipped;
  for (const auto& path : paths) {
    auto text = ReadUserFile(path, 64u << 20);
    auto facts = text ? ParseNodeReport(*text, path) : Result<NodeFacts>(text.error());
    if (facts)
      parsed.push_back(std::move(facts).value());
    else
      skipped.push_back({path, facts.error().message});
  }
  if (parsed.empty()) {
    for (const auto& s : skipped) WriteAll(ctx.err, "error: " + s.reason + "\n");
    return ReportError(
        ctx.err, UserError("none of the " + std::to_string(paths.size()) + " files is a gpudoctor report"));
  }
  FleetOptions options;
  options.threshold = *threshold / 100;
  FleetSummary summary = AnalyzeFleet(parsed, options);
  summary.skipped = skipped;
  WriteAll(ctx.out, json_ ? RenderFleetJson(summary) : RenderFleetText(summary));
  return summary.exit_code;
}

}  // namespace gpudoctor
