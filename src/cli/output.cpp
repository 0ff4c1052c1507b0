// Output helpers for the commands.
#include "cli/output.h"

#include <filesystem>
#include <random>
#include <system_error>

#include "cli/command.h"
#include "platform/new_file.h"
#include "platform/process.h"

namespace gpudoctor {
namespace fs = std::filesystem;
bool WriteAll(std::FILE* stream, const std::string& text) {
  if (text.empty()) return true;
  size_t n = std::fwrite(text.data(), 1, text.size(), stream);
  if (n != text.size()) return false;
  return std::fflush(stream) == 0;
}

namespace {

constexpr const char* kTemporarySuffix = ".tmp-gpudoctor";

Status CheckFolderExists(const std::string& path) {
  std::error_code ec;
  const fs::path target(path);
  if (target.has_parent_path() && !fs::is_directory(target.parent_path(), ec))
    return UserError("cannot write " + path + ": folder " + target.parent_path().string() +
                     " does not exist");
  return Ok{};
}

}  // namespace

Status CheckCanCreate(const std::string& path) {
  if (Status folder = CheckFolderExists(path); !folder.ok()) return folder;
  std::random_device random;
  const std::string probe = path + kTemporarySuffix + "-probe-" + std::to_string(CurrentProcessId()) + "-" +
                            std::to_string(random()) + std::to_string(random());
  Status created = WriteNewFile(probe, "");
  std::error_code ec;
  if (created.ok()) {
    fs::remove(probe, ec);
    return Ok{};
  }
  // "cannot write PROBE: REASON" in the words of the late failure, which names the usual temporary.
  std::string message = created.error().message;
  if (const std::string head = "cannot write " + probe; message.rfind(head, 0) == 0)
    message = "cannot write " + path + kTemporarySuffix + message.substr(head.size());
  return Error{created.error().kind, message, created.error().hint};
}

Status WriteFileAtomically(const std::string& path, const std::string& text, bool overwrite) {
  std::error_code ec;
  if (!overwrite && fs::exists(path, ec))
    return UserError(path + " already exists; nothing was written",
                     "choose another file name, or remove it first");
  if (Status folder = CheckFolderExists(path); !folder.ok()) return folder;
  fs::path target(path);
  // The temporary is created exclusively, never opened through what has its name: a link planted there
  // would be written through to its target (issue 35). A stale one (an interrupted run, or such a link)
  // is removed first; remove() takes away the name, never what a link leads to.
  std::string tmp = path + kTemporarySuffix;
  if (fs::exists(fs::symlink_status(tmp, ec))) fs::remove(tmp, ec);
  if (Status written = WriteNewFile(tmp, text); !written.ok()) return written.error();
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return EnvError("cannot move " + tmp + " to " + path + ": " + ec.message());
  }
  return Ok{};
}

int ReportError(std::FILE* err, const Error& error) {
  std::string text =
      (error.kind == ErrorKind::kInternal ? "internal error (please report it): " : "error: ") +
      error.message + "\n";
  if (!error.hint.empty()) text += "hint: " + error.hint + "\n";
  WriteAll(err, text);
  return kExitToolFailed;
}

}  // namespace gpudoctor
