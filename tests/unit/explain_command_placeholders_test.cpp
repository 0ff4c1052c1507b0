// An entry's commands are written for the log at hand: `{capture}` becomes what the log said, a capture the
// match lacks becomes its name in capitals, and every other brace is left as it is.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

#include "explain/command_placeholders.h"
#include "explain_test_util.h"

namespace gpudoctor {
namespace {

ExplainEntry EntryWithGroups(std::vector<std::string> groups, ShellCommands commands) {
  ExplainEntry e;
  e.id = "test.entry";
  ExplainPattern p;
  p.group_names = std::move(groups);
  e.patterns.push_back(p);
  e.commands = std::move(commands);
  return e;
}

TEST(ExplainCommandPlaceholders, CapturesAreFilledAndMissingOnesNamed) {
  const ExplainEntry e = EntryWithGroups(
      {"lib", "", "dll"}, {"ldconfig -p | grep -F {lib}; ls {dll}", "Get-Item {dll}", "dir {dll} {lib}"});
  ExplainMatch m;
  m.entry = &e;
  m.captures = {{"lib", "libcudnn.so.8"}};
  const ShellCommands c = FillCommandPlaceholders(e, m);
  EXPECT_EQ(c.bash, "ldconfig -p | grep -F libcudnn.so.8; ls DLL");
  EXPECT_EQ(c.powershell, "Get-Item DLL");
  EXPECT_EQ(c.cmd, "dir DLL libcudnn.so.8");
}

TEST(ExplainCommandPlaceholders, OtherBracesAreLeftAlone) {
  const ExplainEntry e =
      EntryWithGroups({"lib", "home"}, {"awk '{print $5}' f; echo ${home} ${lib:-x} {unknown} {lib", "", ""});
  ExplainMatch m;
  m.entry = &e;
  m.captures = {{"lib", "libx.so"}, {"home", "/h"}};
  EXPECT_EQ(FillCommandPlaceholders(e, m).bash, "awk '{print $5}' f; echo ${home} ${lib:-x} {unknown} {lib");
}

// In the built-in catalog, a command's `{name}` (not bash's ${name}) is always a capture of its entry: one
// that is not would be printed as it stands.
TEST(ExplainCommandPlaceholders, EveryPlaceholderOfTheCatalogIsACaptureOfItsEntry) {
  const std::regex placeholder(R"((^|[^$])\{([a-z][a-z0-9_]*)\})");
  size_t used = 0;
  for (const ExplainEntry& e : EmbeddedCatalog().entries) {
    const std::vector<std::string> names = CommandPlaceholdersOf(e);
    for (const std::string* text : {&e.commands.bash, &e.commands.powershell, &e.commands.cmd}) {
      for (std::sregex_iterator it(text->begin(), text->end(), placeholder), end; it != end; ++it) {
        const std::string name = (*it)[2];
        EXPECT_NE(std::find(names.begin(), names.end(), name), names.end())
            << e.id << ": {" << name << "} in a command is no capture of the entry";
        ++used;
      }
    }
  }
  EXPECT_GE(used, 4u);  // loader.missing_library's two, wrong_architecture's, the PCI reset's
}

// The report gives the filled commands, in text and in JSON.
TEST(ExplainCommandPlaceholders, TheReportPrintsTheLibraryTheLogNamed) {
  const ExplainReport r = ReportOnLinux(
      "ImportError: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory\n");
  ASSERT_EQ(FirstId(r), "loader.missing_library");
  EXPECT_NE(r.matches.front().commands.bash.find("ldconfig -p | grep -F libcudnn_ops_infer.so.8"),
            std::string::npos)
      << r.matches.front().commands.bash;
  EXPECT_NE(RenderExplainText(r, false).find("$ ldconfig -p | grep -F libcudnn_ops_infer.so.8"),
            std::string::npos);
  EXPECT_NE(RenderExplainJson(r).find("grep -F libcudnn_ops_infer.so.8"), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
