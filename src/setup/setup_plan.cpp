// Planning `gpudoctor setup` from check's findings (see setup_plan.h).
#include "setup/setup_plan.h"

#include <algorithm>

#include "rules/rule_context.h"
#include "rules/rules.h"
#include "setup/conda_commands.h"
#include "setup/driver_floor.h"
#include "setup/pip_line.h"
#include "setup/wheel_pins.h"

namespace gpudoctor {
namespace {

// A problem the plan acts on: a warning or an error of the machine (the knowledge base's own age is not).
bool IsProblem(const Finding& f) {
  return f.severity >= Severity::kWarning && !f.id.starts_with("knowledge.");
}

bool InstallsTorch(const PipLine& pip) {
  return !pip.uninstall && std::any_of(pip.requirements.begin(), pip.requirements.end(),
                                       [](const std::string& r) { return RequirementName(r) == "torch"; });
}

// The command of `action` in `shell`, else in any shell that has one.
std::string CommandIn(const ShellCommands& c, Shell shell) {
  const std::string& own = shell == Shell::kBash         ? c.bash
                           : shell == Shell::kPowerShell ? c.powershell
                                                         : c.cmd;
  if (!own.empty()) return own;
  for (const std::string* s : {&c.bash, &c.powershell, &c.cmd})
    if (!s->empty()) return *s;
  return "";
}

class Planner {
 public:
  Planner(const RuleContext& ctx, const PlanRequest& request) : ctx_(ctx), request_(request) {
    plan_.mode = request.mode;
    plan_.shell = request.shell;
    plan_.installer = request.installer;
    if (!ctx.gpus.empty()) plan_.gpu = ctx.gpus.front().label;
  }

  void Take(const Finding& f) {
    const bool problem = IsProblem(f);
    ManualStep manual{f.id, f.title, f.fix_summary, {}};
    std::vector<std::string> uninstall;
    for (const FixAction& a : f.fix) {
      switch (a.kind) {
        case FixAction::Kind::kSetEnv:
        case FixAction::Kind::kUnsetEnv:
          if (problem) AddVariable(f, a);
          break;
        case FixAction::Kind::kManual:
          if (problem) manual.lines.push_back(a.text);
          break;
        case FixAction::Kind::kCommand: {
          const std::string line = CommandIn(a.commands, request_.shell);
          auto pip = ParsePipLine(line);
          if (pip && pip->uninstall) {
            uninstall.insert(uninstall.end(), pip->requirements.begin(), pip->requirements.end());
          } else if (pip && (InstallsTorch(*pip) || (problem && request_.mode == PlanMode::kRepair))) {
            // One install of a package: a second finding with the same fix, or one reinstalling what an
            // earlier step installs (a torchvision beside the torch being replaced), adds nothing.
            if (!Installed(*pip)) AddPackages(f, *pip, line, std::move(uninstall));
            uninstall.clear();
          } else if (problem) {
            // A driver, a group, a project file, or an add-on of the environment check judged (the new
            // environment has none; --repair installs it).
            manual.lines.push_back(line);
          }
          break;
        }
      }
    }
    if (problem) AddManual(std::move(manual));
  }

  SetupPlan Finish() {
    if (!plan_.packages.empty()) {
      plan_.environment = request_.environment;
      if (plan_.environment.empty() && request_.mode == PlanMode::kRepair && ctx_.torch)
        plan_.environment = ctx_.torch->env->path;
      const bool conda = request_.installer == "conda";
      if (plan_.environment.empty()) plan_.environment = conda ? ".conda" : ".venv";
      if (conda) {
        // conda installs the Python itself: the version the Windows launcher named, else one the wheels
        // are built for.
        plan_.python =
            plan_.python.starts_with("py -") ? plan_.python.substr(4) : CondaPython(plan_.python_versions);
      } else if (plan_.python.empty()) {
        plan_.python = ctx_.platform == Platform::kWindows ? "py" : "python3";
      }
    }
    return std::move(plan_);
  }

 private:
  // Whether every package `pip` installs is installed by an earlier step of the plan.
  bool Installed(const PipLine& pip) const {
    return std::all_of(pip.requirements.begin(), pip.requirements.end(), [&](const std::string& r) {
      return std::any_of(plan_.packages.begin(), plan_.packages.end(), [&](const PackageStep& p) {
        return std::any_of(p.requirements.begin(), p.requirements.end(),
                           [&](const std::string& q) { return RequirementName(q) == RequirementName(r); });
      });
    });
  }

  // A manual step without the lines an earlier one already gives (two findings citing the same project
  // pin, or the same driver install): each line appears once in the plan.
  void AddManual(ManualStep manual) {
    std::erase_if(manual.lines, [&](const std::string& line) {
      return std::any_of(plan_.manual.begin(), plan_.manual.end(), [&](const ManualStep& m) {
        return std::find(m.lines.begin(), m.lines.end(), line) != m.lines.end();
      });
    });
    if (!manual.lines.empty()) plan_.manual.push_back(std::move(manual));
  }

  void AddVariable(const Finding& f, const FixAction& a) {
    for (const VariableStep& v : plan_.variables)
      if (v.name == a.name) return;
    plan_.variables.push_back({f.id, a.name, a.value, a.kind == FixAction::Kind::kUnsetEnv});
  }

  void AddPackages(const Finding& f, const PipLine& pip, const std::string& line,
                   std::vector<std::string> uninstall) {
    PackageStep step;
    step.finding = f.id;
    if (request_.mode == PlanMode::kRepair) step.uninstall = std::move(uninstall);
    step.requirements = pip.requirements;
    step.index_url = pip.index_url;
    step.find_links = pip.find_links;
    step.variant = PytorchIndexVariant(pip.index_url);
    step.options = pip.options;
    step.check_command = line;
    if (InstallsTorch(pip)) {
      plan_.python_versions = PinTorchRelease(ctx_, step);
      CheckDriver(step);
      // The Windows launcher with a version ("py -3.12") says which Python the wheels need.
      if (pip.python.starts_with("py ") && request_.mode == PlanMode::kNewEnvironment)
        plan_.python = pip.python;
    }
    plan_.packages.push_back(std::move(step));
  }

  // A CUDA wheel on an NVIDIA GPU: the driver's verdict on the step, and its upgrade where one is due (a
  // driver too old for the wheel first of all manual steps; a recommended one after check's own).
  void CheckDriver(PackageStep& step) {
    const TorchWheel* pinned = step.variant.empty() ? nullptr : PinnedWheel(ctx_, step.variant);
    DriverFloorOutcome outcome = CheckDriverFloor(ctx_, step, pinned);
    step.driver = std::move(outcome.check);
    step.note = std::move(outcome.step_note);
    if (!outcome.upgrade) return;
    const bool first = step.driver && step.driver->verdict == DriverFloorCheck::Verdict::kTooOld;
    plan_.manual.insert(first ? plan_.manual.begin() : plan_.manual.end(), std::move(*outcome.upgrade));
  }

  const RuleContext& ctx_;
  const PlanRequest& request_;
  SetupPlan plan_;
};

}  // namespace

const char* ToString(PlanMode m) {
  return m == PlanMode::kRepair ? "repair" : "new";
}

const char* ToString(DriverFloorCheck::Verdict v) {
  switch (v) {
    case DriverFloorCheck::Verdict::kRuns:
      return "runs";
    case DriverFloorCheck::Verdict::kTooOld:
      return "too_old";
    case DriverFloorCheck::Verdict::kUnknown:
      break;
  }
  return "unknown";
}

SetupPlan PlanFromFindings(const Snapshot& snap, const KnowledgeDb& db, std::vector<Finding> findings,
                           const PlanRequest& request) {
  SortWorstFirst(findings);
  RuleOptions options;
  const RuleContext ctx(snap, db, options);
  Planner planner(ctx, request);
  for (const Finding& f : findings) planner.Take(f);
  return planner.Finish();
}

SetupPlan PlanSetup(const Snapshot& snap, const KnowledgeDb& db, const PlanRequest& request) {
  RuleOptions options;
  options.include_ok = false;
  return PlanFromFindings(snap, db, RunAllRules(snap, db, options), request);
}

}  // namespace gpudoctor
