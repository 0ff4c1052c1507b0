// Carrying out a setup plan (see setup_apply.h).
#include "setup/setup_apply.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "rules/rule_context.h"
#include "setup/activation_snippet.h"
#include "setup/conda_commands.h"
#include "setup/pip_line.h"
#include "setup/setup_render.h"

namespace gpudoctor {
namespace fs = std::filesystem;
namespace {

struct Step {
  std::string key;    // what the state file records: the step's command, so a changed plan runs it again
  std::string title;  // "install torch==2.7.1 torchvision==0.22.* torchaudio==2.7.*"
  std::vector<std::string> argv;
  enum class Undo { kNone, kRemoveFolder, kUninstall, kReinstall } undo = Undo::kNone;
  std::vector<std::string> packages;  // what an undo names
};

std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string Joined(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) out += (out.empty() ? "" : " ") + QuoteBash(a);
  return out;
}

std::string Tail(const std::string& text, size_t lines) {
  size_t pos = text.size();
  while (pos > 0 && (text[pos - 1] == '\n' || text[pos - 1] == '\r')) --pos;
  size_t end = pos;
  for (size_t n = 0; pos > 0 && n < lines; --pos)
    if (text[pos - 1] == '\n') ++n;
  return text.substr(pos == 0 ? 0 : pos + 1, end - (pos == 0 ? 0 : pos + 1));
}

// The environment's interpreter: bin/python (POSIX), Scripts\python.exe (a venv on Windows), python.exe
// (a conda environment on Windows).
std::string InterpreterOf(const fs::path& dir) {
  for (const fs::path& windows : {dir / "Scripts" / "python.exe", dir / "python.exe"})
    if (fs::exists(windows)) return windows.string();
  return (dir / "bin" / "python").string();
}

// Why an existing folder may not be adopted ("" when it may), and the way in that suits it besides a new
// environment. A conda environment is refused unless conda is the installer asked for.
struct ForeignFolder {
  std::string why;
  std::string other_way;  // "" or a clause ending in ", "
};

ForeignFolder ForeignReason(const fs::path& dir, Installer installer) {
  if (fs::exists(dir / "conda-meta")) {
    if (installer == Installer::kConda) return {};
    return {"it is a conda environment: conda's own tools keep it",
            "use --installer conda to install into it with its own pip, "};
  }
  if (!fs::exists(dir / "pyvenv.cfg"))
    return {
        "it is not a virtual environment (no pyvenv.cfg): a system Python's packages belong to the "
        "distribution or its installer",
        ""};
  if (fs::exists(dir.parent_path() / "uv.lock") || fs::exists(dir.parent_path() / "poetry.lock"))
    return {
        "its project's lock file (uv.lock or poetry.lock) beside it puts its own versions back at the next "
        "sync",
        ""};
  return {};
}

Result<fs::path> CheckFolder(const SetupPlan& plan, const ApplyOptions& o) {
  std::error_code ec;
  fs::path dir = fs::absolute(plan.environment, ec);
  if (ec)
    return UserError("cannot resolve the environment folder '" + plan.environment + "': " + ec.message());
  const bool ours = fs::exists(dir / kSetupStateFile);
  if (!o.existing) {
    if (fs::exists(dir) && !ours && !fs::is_empty(dir, ec))
      return UserError("the folder " + dir.string() + " exists and setup did not create it",
                       "name a new folder (gpudoctor setup --apply NEWDIR), or install into it with --env " +
                           dir.string());
    return dir;
  }
  if (!fs::is_directory(dir)) return UserError("--env " + dir.string() + " is not a folder");
  if (ForeignFolder foreign = ForeignReason(dir, o.installer); !foreign.why.empty() && !o.allow_foreign)
    return UserError("setup will not install into " + dir.string() + ": " + foreign.why,
                     "create a new environment with `gpudoctor setup --apply DIR`, " + foreign.other_way +
                         "or pass --allow-foreign-env to install into it anyway");
  return dir;
}

std::vector<std::string> IndexArguments(const PackageStep& p, const ApplyOptions& o) {
  if (!o.local_index.empty()) return {"--no-index", "--find-links", o.local_index};
  std::vector<std::string> out;
  if (!p.index_url.empty()) out = {"--index-url", p.index_url};
  if (!p.find_links.empty()) out.insert(out.end(), {"--find-links", p.find_links});
  return out;
}

std::vector<std::string> Names(const std::vector<std::string>& requirements) {
  std::vector<std::string> out;
  for (const std::string& r : requirements) out.push_back(RequirementName(r));
  return out;
}

Step VenvStep(const SetupPlan& plan, const ApplyOptions& o, const fs::path& dir) {
  Step s;
  s.title = "create the environment " + dir.string() + " (" + ToString(o.installer) + ")";
  if (o.installer == Installer::kConda) {
    s.argv = CondaCreateArgv(o.conda, dir.string(), plan.python);
  } else if (o.installer == Installer::kUv) {
    std::string python = plan.python.starts_with("py -") ? plan.python.substr(4) : plan.python;
    s.argv = {o.uv, "venv", "--python", python, dir.string()};
  } else {
    s.argv = Words(plan.python);
    s.argv.insert(s.argv.end(), {"-m", "venv", dir.string()});
  }
  s.key = "venv " + Joined(s.argv);
  s.undo = Step::Undo::kRemoveFolder;
  return s;
}

std::vector<std::string> PipPrefix(const ApplyOptions& o, const std::string& python, const char* verb) {
  if (o.installer == Installer::kUv) return {o.uv, "pip", verb, "--python", python};
  return {python, "-m", "pip", verb, "--disable-pip-version-check"};
}

std::vector<Step> PackageSteps(const SetupPlan& plan, const ApplyOptions& o, const std::string& python) {
  std::vector<Step> out;
  for (const PackageStep& p : plan.packages) {
    if (!p.uninstall.empty()) {
      Step s;
      s.argv = PipPrefix(o, python, "uninstall");
      if (o.installer == Installer::kPip) s.argv.push_back("-y");
      for (const std::string& n : Names(p.uninstall)) s.argv.push_back(n);
      s.title = "uninstall " + JoinList(p.uninstall, " ");
      s.key = "uninstall " + Joined(s.argv);
      s.undo = Step::Undo::kReinstall;
      s.packages = Names(p.uninstall);
      out.push_back(std::move(s));
    }
    Step s;
    s.argv = PipPrefix(o, python, "install");
    s.argv.insert(s.argv.end(), p.options.begin(), p.options.end());
    s.argv.insert(s.argv.end(), p.requirements.begin(), p.requirements.end());
    for (const std::string& a : IndexArguments(p, o)) s.argv.push_back(a);
    s.title = "install " + JoinList(p.requirements, " ") +
              (o.local_index.empty() ? (p.index_url.empty() ? "" : " from " + p.index_url)
                                     : " from the local folder " + o.local_index);
    s.key = "install " + Joined(s.argv);
    s.undo = Step::Undo::kUninstall;
    s.packages = Names(p.requirements);
    out.push_back(std::move(s));
  }
  return out;
}

std::set<std::string> ReadState(const fs::path& file) {
  std::set<std::string> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.insert(line);
  return out;
}

Status Record(const fs::path& file, const std::string& key) {
  std::ofstream out(file, std::ios::app);
  out << key << "\n";
  out.flush();
  if (!out) return EnvError("cannot write " + file.string(), "check that the folder is writable");
  return Ok{};
}

// A conda environment is entered with `conda activate DIR` (it has no activate script of its own).
Status WriteSnippets(const SetupPlan& plan, const fs::path& dir, const std::string& python,
                     Installer installer, std::vector<std::string>& written) {
  const std::string bin_dir = fs::path(python).parent_path().string();
  for (SnippetShell shell : {SnippetShell::kPosix, SnippetShell::kFish, SnippetShell::kPowerShell}) {
    const fs::path file = dir / SnippetFileName(shell);
    std::ofstream out(file, std::ios::trunc);
    out << (installer == Installer::kConda ? CondaActivationSnippet(shell, dir.string(), plan.variables)
                                           : ActivationSnippet(shell, bin_dir, plan.variables));
    out.flush();
    if (!out) return EnvError("cannot write " + file.string(), "check that the folder is writable");
    written.push_back(file.string());
  }
  return Ok{};
}

std::vector<std::string> UndoLines(const std::vector<const Step*>& done, const fs::path& dir,
                                   const std::string& python) {
  std::vector<std::string> out;
  for (auto it = done.rbegin(); it != done.rend(); ++it) {
    const Step& s = **it;
    switch (s.undo) {
      case Step::Undo::kRemoveFolder:
        return {"remove the folder setup created: rm -rf " + QuoteBash(dir.string()) +
                " (PowerShell: Remove-Item -Recurse " + QuotePowerShell(dir.string()) + ")"};
      case Step::Undo::kUninstall:
        out.push_back(QuoteBash(python) + " -m pip uninstall -y " + JoinList(s.packages, " "));
        break;
      case Step::Undo::kReinstall:
        out.push_back("reinstall what was removed (" + JoinList(s.packages, " ") +
                      ") at the versions `gpudoctor check` listed before");
        break;
      case Step::Undo::kNone:
        break;
    }
  }
  return out;
}

// Runs one step; "" on success, else what went wrong.
std::string RunStep(const Step& s, const ApplyOptions& o, const ProcessRunner& run) {
  ProcessRequest request;
  request.argv = s.argv;
  request.timeout = o.step_timeout;
  auto r = run(request);
  if (!r.ok()) return "could not start " + s.argv.front() + ": " + r.error().message;
  if (r->timed_out) return "`" + Joined(s.argv) + "` ran past its time limit and was stopped";
  if (r->exit_code == 0) return "";
  std::string why =
      "`" + Joined(s.argv) + "` " +
      (r->exit_code ? "exited with " + std::to_string(*r->exit_code) : std::string("was killed"));
  const std::string tail = Tail(r->stderr_text.empty() ? r->stdout_text : r->stderr_text, 12);
  return tail.empty() ? why : why + ":\n" + tail;
}

}  // namespace

const char* ToString(Installer i) {
  switch (i) {
    case Installer::kUv:
      return "uv";
    case Installer::kConda:
      return "conda";
    case Installer::kPip:
      break;
  }
  return "pip";
}

Result<ApplyOutcome> ApplyPlan(const SetupPlan& plan, const ApplyOptions& o, const ProcessRunner& run) {
  ApplyOutcome outcome;
  if (plan.packages.empty() && plan.variables.empty()) return outcome;
  auto dir = CheckFolder(plan, o);
  if (!dir.ok()) return dir.error();
  const fs::path state = *dir / kSetupStateFile;
  std::vector<Step> steps;
  if (!o.existing) steps.push_back(VenvStep(plan, o, *dir));
  std::set<std::string> recorded = ReadState(state);
  std::vector<const Step*> done;    // run now or before: what an undo takes back
  size_t total = steps.size() + 1;  // and the snippets
  for (const PackageStep& p : plan.packages) total += p.uninstall.empty() ? 1 : 2;
  size_t index = 0;
  auto run_steps = [&](const std::vector<Step>& list) -> bool {
    for (const Step& s : list) {
      ++index;
      if (recorded.count(s.key)) {
        outcome.resumed.push_back(s.title);
        done.push_back(&s);
        continue;
      }
      if (o.progress) o.progress("[" + std::to_string(index) + "/" + std::to_string(total) + "] " + s.title);
      if (std::string why = RunStep(s, o, run); !why.empty()) {
        outcome.failed_step = s.title;
        outcome.error = why;
        // A venv that failed half-way leaves a folder: its undo is the folder's removal too.
        if (s.undo == Step::Undo::kRemoveFolder && fs::exists(*dir)) done.push_back(&s);
        return false;
      }
      done.push_back(&s);
      outcome.done.push_back(s.title);
      if (Status st = Record(state, s.key); !st.ok()) {
        outcome.failed_step = s.title;
        outcome.error = st.error().message;
        return false;
      }
    }
    return true;
  };
  outcome.python = o.existing ? InterpreterOf(*dir) : "";
  std::vector<Step> packages;
  if (run_steps(steps)) {
    outcome.python = InterpreterOf(*dir);
    packages = PackageSteps(plan, o, outcome.python);
    if (run_steps(packages)) {
      if (o.progress)
        o.progress("[" + std::to_string(total) + "/" + std::to_string(total) +
                   "] write the activation snippets");
      if (Status st = WriteSnippets(plan, *dir, outcome.python, o.installer, outcome.snippets); !st.ok()) {
        outcome.failed_step = "write the activation snippets";
        outcome.error = st.error().message;
      }
    }
  }
  if (!outcome.ok()) outcome.undo = UndoLines(done, *dir, outcome.python);
  return outcome;
}

}  // namespace gpudoctor
