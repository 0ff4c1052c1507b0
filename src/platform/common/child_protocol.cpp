// The child protocol's lines and the one reading of how a child ended (see child_protocol.h).
#include "platform/child_protocol.h"

#include <nlohmann/json.hpp>

#include "core/json_depth.h"
#include "core/strings.h"

namespace gpudoctor {

std::string ChildLineText(std::string_view type, std::string_view id) {
  nlohmann::json j = {{"type", type}, {"id", id}};
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<ChildLine> ReadChildLines(std::string_view stdout_text) {
  std::vector<ChildLine> out;
  for (auto line : SplitLines(stdout_text)) {
    auto t = Trim(line);
    if (t.empty() || t.front() != '{') continue;
    auto j = ParseJsonWithinDepth<nlohmann::json>(t);
    if (j.is_discarded() || !j.is_object() || !j.contains("type") || !j["type"].is_string()) continue;
    if (j.contains("id") && !j["id"].is_string()) continue;
    out.push_back({j["type"].get<std::string>(), j.value("id", ""), std::string(t)});
  }
  return out;
}

std::string LastBegun(const std::vector<ChildLine>& lines) {
  for (auto it = lines.rbegin(); it != lines.rend(); ++it)
    if (it->type == "begin") return it->id;
  return "";
}

ChildEnd ReadChildEnd(bool timed_out, std::optional<int> exit_code, std::optional<int> term_signal,
                      std::chrono::milliseconds limit) {
  if (timed_out) {
    const auto seconds =
        std::chrono::duration_cast<std::chrono::seconds>(limit + std::chrono::milliseconds(999));
    return {ChildEndKind::kTimedOut, "timed out after " + std::to_string(seconds.count()) + " s"};
  }
  if (term_signal) {
    const std::string name = SignalName(*term_signal);
    return {ChildEndKind::kCrashed,
            "was killed by signal " + std::to_string(*term_signal) + (name.empty() ? "" : " (" + name + ")")};
  }
  const int code = exit_code.value_or(-1);
  if (code == 0) return {ChildEndKind::kExited, ""};
  // Windows ends a process that raised an exception with the exception's code, an NTSTATUS whose two top
  // bits say "error" (0xC0000005 access violation), seen here as a negative int.
  const auto status = static_cast<uint32_t>(code);
  if (status >= 0xC0000000u) {
    const std::string name = WindowsExceptionName(status);
    return {ChildEndKind::kCrashed,
            "crashed with exception 0x" + Hex(status, 8) + (name.empty() ? "" : " (" + name + ")")};
  }
  return {ChildEndKind::kFailed, "exited with code " + std::to_string(code)};
}

ChildEnd ReadChildEnd(const ProcessResult& process, std::chrono::milliseconds limit) {
  return ReadChildEnd(process.timed_out, process.exit_code, process.term_signal, limit);
}

// Linux's signal numbers (signal(7)).
std::string SignalName(int signal) {
  switch (signal) {
    case 1:
      return "hangup";
    case 2:
      return "interrupt";
    case 3:
      return "quit";
    case 4:
      return "illegal instruction";
    case 5:
      return "trace trap";
    case 6:
      return "aborted";
    case 7:
      return "bus error";
    case 8:
      return "floating-point exception";
    case 9:
      return "killed";
    case 11:
      return "segmentation fault";
    case 13:
      return "broken pipe";
    case 15:
      return "terminated";
    default:
      return "";
  }
}

// The NTSTATUS values of the Windows SDK's ntstatus.h (mingw-w64 ships the same header) that end processes
// GPU software starts; the loader's own (a DLL or an entry point not found) are the common ones on Windows.
std::string WindowsExceptionName(uint32_t code) {
  switch (code) {
    case 0xC0000005u:
      return "access violation";
    case 0xC0000006u:
      return "in-page error: a mapped file or the page file could not be read";
    case 0xC0000017u:
      return "out of memory";
    case 0xC000001Du:
      return "illegal instruction: code built for a newer CPU (AVX2, AVX-512)";
    case 0xC000007Bu:
      return "invalid image format: a 32-bit DLL in a 64-bit process, or a damaged file";
    case 0xC0000094u:
      return "integer division by zero";
    case 0xC0000096u:
      return "privileged instruction";
    case 0xC00000FDu:
      return "stack overflow";
    case 0xC0000135u:
      return "a DLL it needs was not found";
    case 0xC0000138u:
      return "a DLL lacks an ordinal it imports";
    case 0xC0000139u:
      return "a DLL lacks a function it imports (another version of the DLL was loaded)";
    case 0xC000013Au:
      return "interrupted by Ctrl-C";
    case 0xC0000142u:
      return "a DLL failed to initialize";
    case 0xC0000374u:
      return "heap corruption";
    case 0xC0000409u:
      return "fail-fast: a stack buffer overrun or an abort the program raised itself";
    default:
      return "";
  }
}

}  // namespace gpudoctor
