// Holds a worker process's current task to its time limit. The worker arms it with the line that reports
// the timeout; when the deadline passes first, that line is printed and the process ends at once
// (std::_Exit(4)): the task's thread is stuck inside the GPU runtime, and the parent goes on with the next
// tasks in a fresh worker. Every line goes through the watchdog's lock, so a result and a timeout never
// interleave. Every job of the worker layer that runs GPU work uses it (verify's gates, bench's benchmarks).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace gpudoctor {

// The exit code of a worker the watchdog ended.
inline constexpr int kWatchdogExitCode = 4;

class WorkerWatchdog {
 public:
  explicit WorkerWatchdog(std::FILE* out);
  ~WorkerWatchdog();
  WorkerWatchdog(const WorkerWatchdog&) = delete;
  WorkerWatchdog& operator=(const WorkerWatchdog&) = delete;

  // Arms the deadline `limit` from now; `timeout_line` (no newline) is printed if it passes.
  void Start(std::chrono::seconds limit, std::string timeout_line);
  // Prints `line` and disarms the watchdog, unless it already fired.
  void Report(const std::string& line);
  // Prints `line` and leaves the deadline as it is.
  void Print(const std::string& line);

 private:
  void Watch();
  void WriteLine(const std::string& line);

  std::FILE* out_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::optional<std::string> armed_;  // the timeout line while a task runs
  std::chrono::steady_clock::time_point deadline_;
  std::thread thread_;  // last: starts after the members it reads
};

}  // namespace gpudoctor
