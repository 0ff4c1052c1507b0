// gpudoctor's entry point: captures the environment once, declares every
// command's flags to CLI11 (the only file that knows the parser), runs the
// chosen command and turns anything unexpected into exit code 3.
#include <CLI/CLI.hpp>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/flag_values.h"
#include "cli/output.h"
#include "cli/version_text.h"
#include "cli/worker_jobs.h"
#include "core/strings.h"
#include "platform/terminal.h"
#include "worker/worker_request.h"

namespace gpudoctor {
namespace {

// A flag with a fixed set of words, checked by ChoiceFlag once its command is parsed and before it runs, so
// its error reads like every other flag's ("--level fast: not one of quick, standard, long").
struct ChoiceCheck {
  std::string flag;
  CLI::Option* option;
  const std::string* value;
  std::vector<std::string> choices;
};

// FlagSet over one CLI11 (sub)command.
class Cli11FlagSet final : public FlagSet {
 public:
  Cli11FlagSet(CLI::App& app, std::vector<ChoiceCheck>& choice_checks)
      : app_(app), choice_checks_(choice_checks) {}

  void Bool(const std::string& names, bool* out, const std::string& help) override {
    Remember(names, app_.add_flag(names, *out, help));
  }
  void String(const std::string& names, std::string* out, const std::string& placeholder,
              const std::string& help) override {
    Remember(names, app_.add_option(names, *out, help)->type_name(placeholder));
  }
  void StringList(const std::string& names, std::vector<std::string>* out, const std::string& placeholder,
                  const std::string& help) override {
    Remember(names, app_.add_option(names, *out, help)->type_name(placeholder)->take_all());
  }
  void Choice(const std::string& names, std::string* out, const std::vector<std::string>& choices,
              const std::string& help) override {
    CLI::Option* opt = app_.add_option(names, *out, help);
    opt->type_name(JoinList(choices, "|"));  // --help lists the accepted words
    Remember(names, opt);
    choice_checks_.push_back({LongName(names), opt, out, choices});
  }
  void Positional(const std::string& name, std::string* out, const std::string& help,
                  bool required) override {
    auto* opt = app_.add_option(name, *out, help);
    if (required) opt->required();
  }
  void PositionalList(const std::string& name, std::vector<std::string>* out,
                      const std::string& help) override {
    app_.add_option(name, *out, help);
  }
  void Excludes(const std::string& a, const std::string& b) override {
    auto ia = options_.find(a), ib = options_.find(b);
    if (ia != options_.end() && ib != options_.end()) ia->second->excludes(ib->second);
  }
  void Hide(const std::string& long_name) override {
    if (auto it = options_.find(long_name); it != options_.end()) it->second->group("");
  }

 private:
  // The long name ("--from" out of "-f,--from").
  static std::string LongName(const std::string& names) {
    size_t pos = names.find("--");
    return pos == std::string::npos ? names : names.substr(pos, names.find(',', pos) - pos);
  }
  void Remember(const std::string& names, CLI::Option* opt) { options_[LongName(names)] = opt; }
  CLI::App& app_;
  std::vector<ChoiceCheck>& choice_checks_;
  std::map<std::string, CLI::Option*> options_;
};

// The first choice flag given with a word outside its set; only the parsed command's flags have a count.
std::optional<Error> RefusedChoice(const std::vector<ChoiceCheck>& checks) {
  for (const ChoiceCheck& c : checks) {
    if (c.option->count() == 0) continue;
    // An empty word (`--shell ''`) is refused too: ChoiceFlag reads empty as "not given".
    auto word = ChoiceFlag(c.flag, c.value->empty() ? "''" : *c.value, c.choices);
    if (!word) return word.error();
  }
  return std::nullopt;
}

const char* kFooter =
    "Exit codes: 0 no problem, 1 warnings (check) or a failed gate (verify), 2 errors or no usable GPU,\n"
    "3 gpudoctor itself could not do what was asked (bad flags, unreadable input).\n"
    "Run `gpudoctor COMMAND --help` for a command's options and examples. Docs: docs/ in the source tree.";

int Main(int argc, char** argv) {
  IgnoreBrokenPipe();
  CliContext ctx;
  ctx.env = CaptureProcessEnvironment();
  ctx.stdout_is_tty = IsTerminal(stdout);
  ctx.stderr_is_tty = IsTerminal(stderr);
  // A GPU worker process (worker/worker_job.h) takes its own arguments, before any flag parsing.
  if (argc > 1 && std::string(argv[1]) == kWorkerModeArg)
    return RunWorker(MakeWorkerJobs(), std::vector<std::string>(argv + 1, argv + argc), ctx.env, stdout,
                     stderr);

  auto commands = MakeCommands();
  CLI::App app{"gpudoctor " GPUDOCTOR_VERSION
               ": what your GPUs can do for deep learning, and how to fix what stops them.\n"
               "Reads the hardware first, so it works before any GPU software is installed.",
               "gpudoctor"};
  app.set_version_flag(
      "--version", [] { return VersionText(); },
      "Print the version (git describe of the build) and the knowledge base's as-of date");
  app.footer(kFooter);
  // CLI11 reads `/x` as an option on Windows by default: a path given as an argument (`db lint /c/data` from
  // Git Bash, a Unix path under wine) would be refused. gpudoctor's options are `--x` and `-x` everywhere.
  // Set before the subcommands are added: they inherit it.
  app.allow_windows_style_options(false);
  app.require_subcommand(0, 1);
  std::vector<std::pair<CLI::App*, Command*>> subs;
  std::vector<ChoiceCheck> choice_checks;
  for (auto& c : commands) {
    CLI::App* sub = app.add_subcommand(c->Name(), c->Summary());
    sub->footer(c->Description());
    Cli11FlagSet flags(*sub, choice_checks);
    c->DefineFlags(flags);
    subs.emplace_back(sub, c.get());
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitToolFailed;
  }
  if (auto refused = RefusedChoice(choice_checks)) return ReportError(ctx.err, *refused);
  for (auto& [sub, cmd] : subs)
    if (sub->parsed()) return cmd->Run(ctx);
  // No command: plain `gpudoctor` checks this machine.
  for (auto& [sub, cmd] : subs)
    if (cmd->Name() == "check") return cmd->Run(ctx);
  return kExitOk;
}

}  // namespace
}  // namespace gpudoctor

int main(int argc, char** argv) {
  try {
    return gpudoctor::Main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "internal error (please report it): %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "internal error (please report it): unknown exception\n");
  }
  return gpudoctor::kExitToolFailed;
}
