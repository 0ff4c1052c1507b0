// Running another program (a Python interpreter, the tool's own worker mode)
// with a timeout. A crash or a hang of the child is a result, never a failure
// of the tool.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace gpudoctor {

struct ProcessRequest {
  std::vector<std::string> argv;  // argv[0] is a path or a name searched on PATH
  std::string stdin_text;
  std::chrono::milliseconds timeout{10000};
  // Variables set on top of the parent's environment.
  std::map<std::string, std::string> extra_env;
  // Called with each piece of stdout as it arrives (also kept in stdout_text), for progress while the
  // child runs; pieces are not split at lines. On Windows it runs on the reader thread.
  std::function<void(std::string_view)> on_stdout;
};

struct ProcessResult {
  bool timed_out = false;
  std::optional<int> exit_code;    // set when the child exited normally
  std::optional<int> term_signal;  // set when a signal ended it (POSIX)
  std::string stdout_text;
  std::string stderr_text;
  std::chrono::milliseconds elapsed{0};
  // Ctrl-C or SIGTERM reached this process while the child ran: it was passed on to the child's
  // group, the group was waited for (a short grace) and then killed. The signal is raised again in
  // this process once its last child has ended, so this is seen only where a handler catches it.
  bool interrupted = false;
};

// Error only when the child could not be started at all. The child, and what it started, die with this
// process: Ctrl-C and SIGTERM are passed on to it (POSIX: its process group; Windows: its Job object,
// ended when this process ends), a SIGKILL of this process ends its group (POSIX: a reaper process
// waits in the group for this one to end), and it holds its own limit a little past `timeout` should
// this process be gone.
Result<ProcessResult> RunProcess(const ProcessRequest& request);

// The path of the running executable (to re-execute it in a worker mode).
Result<std::string> CurrentExecutablePath();

// The running process's id (to tell it apart from other processes a GPU library lists).
uint32_t CurrentProcessId();

}  // namespace gpudoctor
