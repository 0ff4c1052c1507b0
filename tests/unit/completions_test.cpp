// Completions and man page (issue 19) come from the same flag declarations as --help: every command and
// visible flag is in each, hidden test flags in none, and the bash, zsh and fish scripts really complete in
// those shells.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>

#include "cli/completions.h"
#include "cli/flag_table.h"
#include "cli/man_page.h"
#include "cli_test_util.h"
#include "platform/process.h"

namespace gpudoctor {
namespace {

const std::vector<CommandSpec>& Specs() {
  static const std::vector<CommandSpec> specs = DescribeCommands(MakeCommands());
  return specs;
}

// By value: GCC 13's -Wdangling-reference takes a temporary bound to a reference parameter of a function that
// returns a reference for a dangling result, although the result lives in Specs()'s static vector.
const CommandSpec& Spec(std::string_view name) {
  for (const auto& c : Specs())
    if (c.name == name) return c;
  throw std::runtime_error("no command " + std::string(name));
}

TEST(FlagTable, RecordsWhatTheCommandsDeclare) {
  const CommandSpec& check = Spec("check");
  bool json = false, shell = false;
  for (const auto& f : check.flags) {
    if (f.LongName() == "--json") json = f.kind == FlagSpec::Kind::kBool;
    if (f.LongName() == "--shell")
      shell = f.kind == FlagSpec::Kind::kChoice &&
              f.choices == std::vector<std::string>{"auto", "bash", "powershell", "cmd"};
  }
  EXPECT_TRUE(json);
  EXPECT_TRUE(shell);
  bool inject_hidden = false;
  for (const auto& f : Spec("verify").flags)
    if (f.LongName() == "--inject") inject_hidden = f.hidden;
  EXPECT_TRUE(inject_hidden);
}

TEST(Completions, EveryShellNamesEveryCommandAndVisibleFlagAndNoHiddenOne) {
  for (const auto& shell_name : CompletionShellNames()) {
    std::string script = CompletionScript(*CompletionShellFromName(shell_name), Specs());
    for (const auto& c : Specs()) {
      EXPECT_NE(script.find(c.name), std::string::npos) << shell_name << " lacks " << c.name;
      for (const auto& f : c.flags) {
        if (f.IsPositional()) continue;
        // fish names long flags without their dashes (-l json).
        std::string name = shell_name == "fish" ? "-l " + f.LongName().substr(2) : f.LongName();
        if (f.hidden)
          EXPECT_EQ(script.find(name + (shell_name == "fish" ? " " : "")), std::string::npos)
              << shell_name << " offers the hidden " << c.name << " " << f.LongName();
        else
          EXPECT_NE(script.find(name), std::string::npos) << shell_name << " lacks " << c.name << " " << name;
      }
    }
  }
}

#ifndef _WIN32
// Runs a shell's command line; the test fails when it cannot start or exits non-zero. Its stdout, without the
// trailing line breaks. The timeout only bounds a hang.
std::string ShellOutput(std::vector<std::string> argv, std::chrono::milliseconds timeout) {
  ProcessRequest req;
  req.argv = std::move(argv);
  req.timeout = timeout;
  auto r = RunProcess(req);
  EXPECT_TRUE(r.ok());
  if (!r.ok()) return {};
  EXPECT_EQ(r->exit_code, 0) << r->stderr_text;
  std::string out = r->stdout_text;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// What bash completes for the words of a command line (the last one being completed), with the
// script `gpudoctor completions bash` prints loaded.
std::string BashCompletes(const std::string& words) {
  return ShellOutput({"bash", "--norc", "--noprofile", "-c",
                      "source <(\"$0\" completions bash) || exit 9; COMP_WORDS=(" + words +
                          "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gpudoctor; echo \"${COMPREPLY[*]}\"",
                      GPUDOCTOR_BINARY_PATH},
                     std::chrono::milliseconds(20000));
}

// The path of a shell found in PATH, or "" (the test command installs zsh and fish: dev.sh's TEST_PACKAGES).
std::string ShellPath(const std::string& name) {
  ProcessRequest req;
  req.argv = {"sh", "-c", "command -v \"$0\"", name};
  auto r = RunProcess(req);
  if (!r.ok() || r->exit_code != 0) return {};
  std::string path = r->stdout_text;
  while (!path.empty() && (path.back() == '\n' || path.back() == '\r')) path.pop_back();
  return path;
}

// Candidates, sorted and joined by spaces, from a shell's own completion engine: zsh through compinit in a
// pseudo-terminal (tests/fixtures/completions/zsh_complete.zsh), fish through `complete -C`.
std::string ZshCompletes(const std::string& line) {
  std::filesystem::path folder = testing::FreshTempDir("completions_zsh");
  ShellOutput(
      {"sh", "-c", "\"$0\" completions zsh > \"$1/_gpudoctor\"", GPUDOCTOR_BINARY_PATH, folder.string()},
      std::chrono::milliseconds(30000));
  return ShellOutput(
      {"zsh", "-f", std::string(GPUDOCTOR_SOURCE_DIR) + "/tests/fixtures/completions/zsh_complete.zsh",
       folder.string(), line},
      std::chrono::milliseconds(30000));
}

std::string FishCompletes(const std::string& line) {
  const std::string out =
      ShellOutput({"fish", "--no-config", "-c",
                   "source (\"$argv[1]\" completions fish | psub); or exit 9; complete -C $argv[2]",
                   GPUDOCTOR_BINARY_PATH, line},
                  std::chrono::milliseconds(30000));
  std::vector<std::string> names;  // each line: candidate TAB description
  std::istringstream lines(out);
  for (std::string l; std::getline(lines, l);) names.push_back(l.substr(0, l.find('\t')));
  std::sort(names.begin(), names.end());
  std::string joined;
  for (const auto& n : names) joined += (joined.empty() ? "" : " ") + n;
  return joined;
}

TEST(Completions, BashCompletesACommandAFlagAndAChoice) {
  EXPECT_EQ(BashCompletes("gpudoctor ch"), "check");
  EXPECT_EQ(BashCompletes("gpudoctor check --js"), "--json");
  EXPECT_EQ(BashCompletes("gpudoctor check --shell power"), "powershell");
  EXPECT_EQ(BashCompletes("gpudoctor verify --level ''"), "quick standard long");
  // After a flag that takes a path bash offers nothing itself: `complete -o default` lists file names.
  EXPECT_EQ(BashCompletes("gpudoctor info --sysroot ''"), "");
  EXPECT_EQ(BashCompletes("gpudoctor verify --inj"), "");  // hidden: for gpudoctor's own tests
}

TEST(Completions, ZshCompletesACommandAFlagAndAChoice) {
  if (ShellPath("zsh").empty()) GTEST_SKIP() << "zsh is not installed (./dev.sh test installs it)";
  EXPECT_EQ(ZshCompletes("gpudoctor ch"), "check");
  EXPECT_EQ(ZshCompletes("gpudoctor check --js"), "--json");
  EXPECT_EQ(ZshCompletes("gpudoctor check --shell power"), "powershell");
  EXPECT_EQ(ZshCompletes("gpudoctor verify --level "), "long quick standard");
  EXPECT_EQ(ZshCompletes("gpudoctor verify --inj"), "");  // hidden: for gpudoctor's own tests
}

TEST(Completions, FishCompletesACommandAFlagAndAChoice) {
  if (ShellPath("fish").empty()) GTEST_SKIP() << "fish is not installed (./dev.sh test installs it)";
  EXPECT_EQ(FishCompletes("gpudoctor ch"), "check");
  EXPECT_EQ(FishCompletes("gpudoctor check --js"), "--json");
  EXPECT_EQ(FishCompletes("gpudoctor check --shell power"), "powershell");
  EXPECT_EQ(FishCompletes("gpudoctor verify --level "), "long quick standard");
  EXPECT_EQ(FishCompletes("gpudoctor verify --inj"), "");
}
#endif

TEST(ManPage, HoldsEveryCommandAndVisibleFlagInRoff) {
  std::string page = ManPage(Specs(), "0.1.0-gabc1234", "2026-12-03");
  EXPECT_EQ(page.find(".TH GPUDOCTOR 1 \"2026-12-03\" \"gpudoctor 0.1.0\\-gabc1234\""), page.find('\n') + 1);
  for (const auto& c : Specs()) {
    EXPECT_NE(page.find(".SS \"gpudoctor " + c.name + "\""), std::string::npos) << c.name;
    for (const auto& f : c.flags) {
      if (f.IsPositional()) continue;
      std::string roff_name = "\\fB";
      for (char ch : f.LongName()) roff_name += ch == '-' ? std::string("\\-") : std::string(1, ch);
      roff_name += "\\fR";
      EXPECT_EQ(page.find(roff_name) != std::string::npos, !f.hidden) << c.name << " " << f.LongName();
    }
  }
  // No text line can be taken for a roff request.
  for (size_t at = page.find("\n."); at != std::string::npos; at = page.find("\n.", at + 1)) {
    std::string request = page.substr(at + 2, 2);
    EXPECT_TRUE(request == "TH" || request == "SH" || request == "SS" || request == "PP" || request == "TP" ||
                request == "nf" || request == "fi" || request == "br")
        << page.substr(at + 1, 60);
  }
}

}  // namespace
}  // namespace gpudoctor
