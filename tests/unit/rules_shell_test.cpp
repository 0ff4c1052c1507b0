// Fix rendering per shell: export / $env: / set, the unset forms, quoting of awkward values, and the
// shell picked automatically from the OS and the environment.
#include <gtest/gtest.h>

#include "rules/shell.h"

namespace gpudoctor {
namespace {

struct ShellCase {
  const char* name;
  FixAction action;
  const char* bash;
  const char* powershell;
  const char* cmd;
};

class ShellRender : public ::testing::TestWithParam<ShellCase> {};

TEST_P(ShellRender, EachShellGetsItsSyntax) {
  const ShellCase& c = GetParam();
  EXPECT_EQ(RenderAction(c.action, Shell::kBash).text, c.bash);
  EXPECT_EQ(RenderAction(c.action, Shell::kPowerShell).text, c.powershell);
  EXPECT_EQ(RenderAction(c.action, Shell::kCmd).text, c.cmd);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ShellRender,
    ::testing::Values(
        ShellCase{"SetPlain", FixAction::SetEnv("HSA_OVERRIDE_GFX_VERSION", "10.3.0"),
                  "export HSA_OVERRIDE_GFX_VERSION=10.3.0", "$env:HSA_OVERRIDE_GFX_VERSION = \"10.3.0\"",
                  "set HSA_OVERRIDE_GFX_VERSION=10.3.0"},
        ShellCase{"SetWithSpaceAndQuote", FixAction::SetEnv("X", "a b'c"), "export X='a b'\\''c'",
                  "$env:X = \"a b'c\"", "set \"X=a b'c\""},
        ShellCase{"SetWithDollar", FixAction::SetEnv("X", "$HOME&1"), "export X='$HOME&1'",
                  "$env:X = \"`$HOME&1\"", "set \"X=$HOME&1\""},
        ShellCase{"SetEmpty", FixAction::SetEnv("X", ""), "export X=''", "$env:X = \"\"", "set X="},
        ShellCase{"Unset", FixAction::UnsetEnv("HIP_VISIBLE_DEVICES"), "unset HIP_VISIBLE_DEVICES",
                  "Remove-Item Env:HIP_VISIBLE_DEVICES", "set HIP_VISIBLE_DEVICES="},
        ShellCase{"CommandEverywhere", FixAction::Everywhere("pip list"), "pip list", "pip list", "pip list"},
        ShellCase{"BashOnlyCommand", FixAction::Bash("sudo usermod -aG render,video $USER"),
                  "sudo usermod -aG render,video $USER",
                  "(in a Linux or WSL shell) sudo usermod -aG render,video $USER",
                  "(in a Linux or WSL shell) sudo usermod -aG render,video $USER"}),
    [](const ::testing::TestParamInfo<ShellCase>& p) { return std::string(p.param.name); });

TEST(Shell, BashOnlyCommandIsNotACommandElsewhere) {
  EXPECT_TRUE(RenderAction(FixAction::Bash("ls"), Shell::kBash).command);
  EXPECT_FALSE(RenderAction(FixAction::Bash("ls"), Shell::kCmd).command);
  EXPECT_FALSE(RenderAction(FixAction::Manual("reboot"), Shell::kBash).command);
}

TEST(Shell, DetectsFromOsAndEnvironment) {
  EXPECT_EQ(DetectShell(OsFamily::kLinux, Environment{}), Shell::kBash);
  Environment ps(
      {{"PSModulePath", "C:\\Users\\a\\Documents\\WindowsPowerShell\\Modules;C:\\Program Files\\x"},
       {"ComSpec", "C:\\Windows\\system32\\cmd.exe"}});
  EXPECT_EQ(DetectShell(OsFamily::kWindows, ps), Shell::kPowerShell);
  Environment cmd({{"PSModulePath", "C:\\Program Files\\WindowsPowerShell\\Modules"},
                   {"ComSpec", "C:\\Windows\\system32\\cmd.exe"},
                   {"PROMPT", "$P$G"}});
  EXPECT_EQ(DetectShell(OsFamily::kWindows, cmd), Shell::kCmd);
  EXPECT_EQ(DetectShell(OsFamily::kWindows, Environment{}), Shell::kPowerShell);
}

TEST(Shell, ParsesNames) {
  EXPECT_EQ(ShellFromString("powershell"), Shell::kPowerShell);
  EXPECT_EQ(ShellFromString("pwsh"), Shell::kPowerShell);
  EXPECT_EQ(ShellFromString("cmd"), Shell::kCmd);
  EXPECT_EQ(ShellFromString("bash"), Shell::kBash);
  EXPECT_FALSE(ShellFromString("fish").has_value());
}

}  // namespace
}  // namespace gpudoctor
