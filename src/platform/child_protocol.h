// The one protocol between gpudoctor and every child process it starts: the C++ GPU workers (verify, bench,
// collectives), `tune`'s framework child and `check --live`'s Python child. A child answers on stdout with
// one JSON object per line, each with a string "type" and, where the line concerns one item, a string "id":
//   {"type":"begin","id":"matmul"}            an item starts (a crash or a hang from here on is its)
//   {"type":"result","id":"matmul",...}       an item's answer
// and the types of its own (the workers' "telemetry", "timeout", "error"; tune's "hello", "search", ...).
// Lines that are not such objects (a vendor library printing to stdout) are skipped. How a finished child
// ended is read once, here, in one wording for all of them ("was killed by signal 11 (segmentation fault)",
// "crashed with exception 0xc0000135 (a DLL it needs was not found)", "timed out after 60 s").
// Pure functions, tested without any process.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/process.h"

namespace gpudoctor {

// One line of the protocol a child printed.
struct ChildLine {
  std::string type;  // "begin", "result", ...
  std::string id;    // the item it is about; "" when the line names none
  std::string json;  // the whole object, for the reader of that child to take its own fields
};

// {"type":TYPE,"id":ID}: a line with nothing else (a "begin" line).
std::string ChildLineText(std::string_view type, std::string_view id);

// Every protocol line of `stdout_text`, in order. A line whose "type" is not a string, or whose "id" is there
// but not a string, is not one.
std::vector<ChildLine> ReadChildLines(std::string_view stdout_text);

// The id of the last "begin" line: what the child was doing when it stopped; "" when it began nothing.
std::string LastBegun(const std::vector<ChildLine>& lines);

enum class ChildEndKind {
  kExited,    // exit code 0
  kFailed,    // another exit code
  kCrashed,   // ended by a signal (POSIX) or a Windows exception code (0xC0000005, ...)
  kTimedOut,  // still running at the limit: killed by the parent
};

struct ChildEnd {
  ChildEndKind kind = ChildEndKind::kExited;
  // "" for an exit code 0; else "exited with code 3", "was killed by signal 11 (segmentation fault)",
  // "crashed with exception 0xc0000005 (access violation)", "timed out after 60 s".
  std::string how;
};

// How a child ended, from the parts a finished process leaves (also those a snapshot keeps of one).
// `limit` is the time it was allowed (said when it timed out).
ChildEnd ReadChildEnd(bool timed_out, std::optional<int> exit_code, std::optional<int> term_signal,
                      std::chrono::milliseconds limit);
ChildEnd ReadChildEnd(const ProcessResult& process, std::chrono::milliseconds limit);

// "segmentation fault" for 11, "" when unknown.
std::string SignalName(int signal);
// What a Windows exception code that ended a process means ("access violation" for 0xC0000005, "a DLL it
// needs was not found" for 0xC0000135), "" when unknown.
std::string WindowsExceptionName(uint32_t code);

}  // namespace gpudoctor
