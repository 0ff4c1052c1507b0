// What a rule returns: a Finding with a stable id, a severity, the facts that fired it and a fix as
// shell-neutral actions (set or unset a variable, run a command, do something by hand) that
// rules/shell.h renders for bash, PowerShell or cmd. Plain data; renderers live in report/.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/severity.h"
#include "core/shell_commands.h"

namespace gpudoctor {

// The doctor's four layers, in the order `check` shows them.
enum class Layer { kHardware, kRuntime, kFramework, kEnvironment };
const char* ToString(Layer l);  // "hardware", "runtime", "framework", "environment"
std::optional<Layer> LayerFromString(std::string_view s);
const char* LayerTitle(Layer l);  // "Hardware", "Driver/runtime", "Framework", "Environment"

struct FixAction {
  enum class Kind {
    kSetEnv,    // name = value, for this shell session
    kUnsetEnv,  // name
    kCommand,   // commands per shell
    kManual,    // text: a step no command does ("log out and back in")
  };
  Kind kind = Kind::kManual;
  std::string name;
  std::string value;
  ShellCommands commands;
  std::string text;
  bool operator==(const FixAction&) const = default;

  static FixAction SetEnv(std::string name, std::string value);
  static FixAction UnsetEnv(std::string name);
  // The same command in every shell (a pip line, `sudo ...` only makes sense in bash: see Bash()).
  static FixAction Everywhere(std::string command);
  static FixAction Bash(std::string command);
  static FixAction PerShell(ShellCommands commands);
  static FixAction Manual(std::string text);
};

// A way to fix a finding that ranks after the first one (Finding::fix): a fallback with its caveat, e.g.
// the HSA_OVERRIDE_GFX_VERSION that serves while a build lacks the GPU's own code.
struct FixOption {
  std::string summary;  // what it does and when to take it, caveat included
  std::vector<FixAction> fix;
  std::string link;  // its source, "" when the finding's own
  bool operator==(const FixOption&) const = default;
};

struct Finding {
  std::string id;  // stable: "runtime.override_not_needed"; `check --explain ID` describes it
  Layer layer = Layer::kHardware;
  Severity severity = Severity::kOk;
  std::string subject;                // what it is about: "0000:03:00.0 Radeon RX 6700 XT", a path, ""
  std::string title;                  // one line
  std::vector<std::string> evidence;  // "required X, found Y" lines
  std::string fix_summary;            // one line on what the fix does ("" when there is nothing to do)
  std::vector<FixAction> fix;
  std::vector<FixOption> alternatives;  // other fixes, best first, each worse than `fix` (ranked by data)
  std::string link;  // the source: a URL from the knowledge base entry or the rule's own reference
  // Knowledge-base entries the finding rests on that nobody has compared with their source yet
  // (confirmed = false): "overrides.toml:45". Reports say so beside the finding.
  std::vector<std::string> unconfirmed;
  bool operator==(const Finding&) const = default;
};

// Worst first; within one severity, by layer, then as the rules produced them (stable).
void SortWorstFirst(std::vector<Finding>& findings);
// The worst severity in `findings`, kOk when empty.
Severity WorstSeverity(const std::vector<Finding>& findings);

}  // namespace gpudoctor
