// The one protocol between a parent and its GPU workers: the request travels as arguments
// (worker_request.h), the answers as JSON lines on stdout, logs on stderr:
//   {"type":"begin","id":"memory.triad"}          an item starts (a crash from here on is its)
//   {"type":"result","id":...,<the job's fields>}  an item's answer
//   {"type":"telemetry","id":...,<the job's>}      a reading taken while an item ran
//   {"type":"timeout","id":...,"limit_s":20}      the worker's watchdog gave up on an item
//   {"type":"error","message":...,"hint":...}     the worker could not start (no backend, say)
// These are the lines of the child protocol every child of gpudoctor speaks (platform/child_protocol.h);
// lines that are not ours (a vendor library printing to stdout) are ignored. InterpretWorkerProcess reads a
// finished worker the same way for every job: the items it answered, in order, and for the first one it did
// not, how the worker ended there (in the child protocol's words). Pure functions, tested without any
// process.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "platform/child_protocol.h"
#include "platform/process.h"
#include "worker/worker_request.h"

namespace gpudoctor {

// One line of ours a worker printed: "begin", "result", "telemetry", "timeout", "error".
using WorkerLine = ChildLine;

std::string WorkerBeginLine(const std::string& id);
std::string WorkerTimeoutLine(const std::string& id, long limit_s);
std::string WorkerErrorLine(const Error& error);

// Every line of ours in a worker's stdout, in order.
std::vector<WorkerLine> ReadWorkerLines(const std::string& stdout_text);

// What a finished worker process says about the items it was given.
struct WorkerOutcome {
  std::vector<WorkerLine> results;    // the result of each item answered, in the request's order
  std::vector<WorkerLine> telemetry;  // every reading, in order
  std::optional<Error> setup_error;   // the worker said why it could not start
  // The first item without a result (when the worker stopped before answering everything), and how the
  // worker ended there: "timed out after 20 s during gate kernel (the worker stopped itself)", "worker killed
  // by signal 11 (segmentation fault) during memory.triad", ...
  std::optional<std::string> stopped_at;
  std::string why;
  bool hung = false;            // the item timed out (the watchdog's line, the parent's limit)
  bool stopped_itself = false;  // its own watchdog ended it (else the parent killed it)
  long limit_s = 0;             // the limit the item ran past, when it hung
  bool ended_badly = false;     // the process crashed, hung or failed, even after answering everything
  std::string last_log_line;    // the last non-empty line of its stderr, at most 300 characters
};

// `items` are what the request asked for, in order; `timeout_seconds` is the limit the whole process ran
// under; `item_prefix` is put before an item's name in `why` ("gate " for verify's gates).
WorkerOutcome InterpretWorkerProcess(const std::vector<std::string>& items, const ProcessResult& process,
                                     long timeout_seconds, const std::string& item_prefix = "");

// Re-executes `executable` as a worker for `request`, the whole process held to `timeout`.
Result<ProcessResult> RunWorkerProcess(const std::string& executable, const WorkerRequest& request,
                                       std::chrono::seconds timeout);

}  // namespace gpudoctor
