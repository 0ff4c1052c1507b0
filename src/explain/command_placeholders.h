// An entry's commands written for the log at hand: `{name}` in a command stands for the capture `name` of
// the entry's patterns ("ldconfig -p | grep -F {lib}" -> "ldconfig -p | grep -F libcudnn.so.8"), so the
// user can paste it as it is. A capture the match lacks is written as its name in capitals (LIB), the
// reader's cue to put their own value there. Other braces (awk's, bash's ${VAR}) are left alone.
#pragma once

#include <string>
#include <vector>

#include "core/shell_commands.h"
#include "explain/explain_catalog.h"
#include "explain/log_scanner.h"

namespace gpudoctor {

// The names `{name}` stands for in `entry`'s commands: every capture group of its patterns.
std::vector<std::string> CommandPlaceholdersOf(const ExplainEntry& entry);

ShellCommands FillCommandPlaceholders(const ExplainEntry& entry, const ExplainMatch& match);

}  // namespace gpudoctor
