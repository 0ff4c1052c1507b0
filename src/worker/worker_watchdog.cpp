// The worker watchdog (see worker_watchdog.h).
#include "worker/worker_watchdog.h"

#include <cstdlib>

namespace gpudoctor {

WorkerWatchdog::WorkerWatchdog(std::FILE* out) : out_(out), thread_([this] { Watch(); }) {}

WorkerWatchdog::~WorkerWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void WorkerWatchdog::Start(std::chrono::seconds limit, std::string timeout_line) {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_ = std::move(timeout_line);
  deadline_ = std::chrono::steady_clock::now() + limit;
  wake_.notify_all();
}

void WorkerWatchdog::Report(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  armed_.reset();
  WriteLine(line);
}

void WorkerWatchdog::Print(const std::string& line) {
  std::lock_guard<std::mutex> lock(mutex_);
  WriteLine(line);
}

void WorkerWatchdog::WriteLine(const std::string& line) {
  std::string text = line + "\n";
  std::fwrite(text.data(), 1, text.size(), out_);
  std::fflush(out_);
}

void WorkerWatchdog::Watch() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    if (!armed_) {
      wake_.wait(lock);
      continue;
    }
    if (std::chrono::steady_clock::now() < deadline_) {
      wake_.wait_until(lock, deadline_);
      continue;
    }
    WriteLine(*armed_);
    std::fflush(stderr);
    // The task's thread is stuck in the GPU runtime: end the process without running destructors there.
    std::_Exit(kWatchdogExitCode);
  }
}

}  // namespace gpudoctor
