// `gpudoctor check`: acquires the snapshot (probe, --sysroot or --from), loads the knowledge base
// (built in, or --db DIR), runs the rules and renders the findings. The exit code is the verdict.
#include "cli/check_command.h"

#include <chrono>

#include "cli/flag_values.h"
#include "cli/output.h"
#include "core/calendar_date.h"
#include "knowledge/knowledge_loader.h"
#include "probe/common/python_live.h"
#include "report/check_json.h"
#include "report/check_text.h"
#include "rules/knowledge_age.h"
#include "rules/rules.h"
#include "rules/shell.h"

namespace gpudoctor {

std::string CheckCommand::Description() const {
  return "Check this machine for deep learning on its GPU, like a doctor: hardware (is the GPU known, which "
         "install route fits it, VRAM, RAM, disk), driver/runtime (kernel driver, /dev/kfd access, ROCm, "
         "HSA_OVERRIDE_GFX_VERSION, NVIDIA driver vs CUDA), framework (the installed PyTorch against the "
         "GPU) "
         "and environment variables. Each problem comes with the evidence and the commands that fix it.\n\n"
         "Nothing is executed unless --live is given: PyTorch's version and the GPU code compiled into it "
         "are "
         "read from its files, and so are the project files that pin its packages (requirements*.txt and "
         "their -r includes, pyproject.toml, uv.lock, poetry.lock, environment.yml) in the current folder, "
         "its parents up to the home folder and the folder holding a .venv: a fix that reinstalls a pinned "
         "package first names the line to change. --live also runs each environment's python (60 s limit) to "
         "import torch, list "
         "the GPUs and compare a 1024x1024 matmul on the GPU with the CPU.\n\n"
         "Exit codes: 0 no problem, 1 warnings, 2 errors, 3 gpudoctor itself failed.\n\n"
         "Examples:\n"
         "  gpudoctor check                        this machine (plain `gpudoctor` does the same)\n"
         "  gpudoctor check --shell powershell     fixes as PowerShell commands\n"
         "  gpudoctor check --json                 findings as JSON (schema: docs/check-json.md)\n"
         "  gpudoctor check --from snap.json       a snapshot saved with `gpudoctor info --save`\n"
         "  gpudoctor check --sysroot ./machine    a machine recorded with `gpudoctor gather`\n"
         "  gpudoctor check --db ./data            use knowledge-base files from a folder\n"
         "  gpudoctor check --live                 also run each environment's PyTorch on the GPU\n"
         "  gpudoctor check --python-env ~/sd/venv judge the PyTorch in that environment too\n"
         "  gpudoctor check --explain runtime.override_needed";
}

void CheckCommand::DefineFlags(FlagSet& flags) {
  flags.Bool("--json", &json_, "Print the findings as JSON instead of text.");
  flags.Choice(
      "--shell", &shell_, {"auto", "bash", "powershell", "cmd"},
      "Shell to write fixes for (default auto: bash on Linux and WSL, PowerShell or cmd on Windows).");
  flags.String(
      "--db", &db_, "DIR",
      "Lay the *.toml files of DIR over the built-in knowledge base (a file replaces the built-in "
      "one of the same name), e.g. a newer data/ folder; check it first with `gpudoctor db lint DIR`.");
  flags.String("--explain", &explain_, "ID",
               "Describe a finding id (what it checks, why, its source) and exit.");
  flags.String("--today", &today_, "YYYY-MM-DD",
               "Judge the knowledge base's age (knowledge.stale) against this day instead of the clock's "
               "(reproducible runs).");
  flags.Bool(
      "--live", &live_,
      "Also run each Python environment's interpreter (60 s limit each): import torch, "
      "torch.cuda.is_available(), the devices, a matmul on the GPU against the CPU. This machine only.");
  source_.Define(flags);
  source_.DefinePythonEnvs(flags);
  flags.Excludes("--live", "--from");
  flags.Excludes("--live", "--sysroot");
}

int CheckCommand::Run(const CliContext& ctx) {
  if (!explain_.empty()) {
    const RuleInfo* info = FindRuleInfo(explain_);
    if (!info) {
      std::string ids;
      for (const auto& r : AllRuleInfo()) ids += "\n  " + std::string(r.id);
      return ReportError(ctx.err, UserError("no finding has the id '" + explain_ + "'", "known ids:" + ids));
    }
    WriteAll(ctx.out, RenderRuleExplanation(*info));
    return kExitOk;
  }
  if (auto today = DateFlag("--today", today_); !today) return ReportError(ctx.err, today.error());
  auto db = db_.empty() ? LoadEmbeddedKnowledge() : LoadKnowledgeFromDir(db_);
  if (!db.ok()) return ReportError(ctx.err, db.error().With("loading the knowledge base"));
  auto snap = source_.Acquire(ctx);
  if (!snap.ok()) return ReportError(ctx.err, snap.error());

  if (live_) RunLivePythonChecks(*snap, LiveOptions{});
  Shell shell = shell_ == "auto" ? DetectShell(snap->os.family, ctx.env) : *ShellFromString(shell_);
  RuleOptions options;
  options.today = today_.empty() ? DateOf(std::chrono::system_clock::now()) : today_;
  std::vector<Finding> findings = RunAllRules(*snap, *db, options);
  const KnowledgeStamp knowledge = StampOf(*db);
  Severity worst = WorstSeverity(findings);
  int code = worst == Severity::kError ? kExitErrors : worst == Severity::kWarning ? kExitWarnings : kExitOk;
  if (json_) {
    WriteAll(ctx.out, RenderCheckJson(*snap, std::move(findings), shell, code, knowledge));
  } else {
    TextStyle style;
    style.color = ctx.stdout_is_tty && !ctx.env.Has("NO_COLOR");
    WriteAll(ctx.out, RenderCheckText(*snap, std::move(findings), shell, style, knowledge));
  }
  return code;
}

}  // namespace gpudoctor
