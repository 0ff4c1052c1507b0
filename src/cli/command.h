// A subcommand: its name, its help, its flags and what it runs. The list of
// commands is one explicit vector in commands.cpp, never static registration.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "cli/flags.h"
#include "platform/environment.h"

namespace gpudoctor {

// Exit codes shared by every command (docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitWarnings = 1,   // check: warnings; verify: a gate failed
  kExitErrors = 2,     // check: errors; verify: no usable GPU or runtime
  kExitToolFailed = 3  // the tool could not do what was asked: bad flags, unreadable input, internal error
};

// What a command may use of the outside world; everything else comes in through flags.
struct CliContext {
  Environment env;
  bool stdout_is_tty = false;
  bool stderr_is_tty = false;
  std::FILE* out = stdout;
  std::FILE* err = stderr;
};

class Command {
 public:
  virtual ~Command() = default;
  virtual std::string Name() const = 0;
  virtual std::string Summary() const = 0;      // one line, for the command list
  virtual std::string Description() const = 0;  // shown by `gpudoctor NAME --help`, with examples
  virtual void DefineFlags(FlagSet& flags) = 0;
  virtual int Run(const CliContext& ctx) = 0;
};

std::vector<std::unique_ptr<Command>> MakeCommands();

}  // namespace gpudoctor
