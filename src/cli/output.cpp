// Output helpers for the commands.
#include "cli/output.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "cli/command.h"
#include "platform/new_file.h"

namespace gpudoctor {
namespace fs = std::filesystem;
namespace {

std::string SpecialFileKind(const fs::file_status& status) {
  switch (status.type()) {
    case fs::file_type::fifo:
      return "a FIFO (named pipe)";
    case fs::file_type::character:
    case fs::file_type::block:
      return "a device";
    case fs::file_type::socket:
      return "a socket";
    default:
      return "a special file";
  }
}

}  // namespace

bool WriteAll(std::FILE* stream, const std::string& text) {
  if (text.empty()) return true;
  size_t n = std::fwrite(text.data(), 1, text.size(), stream);
  if (n != text.size()) return false;
  return std::fflush(stream) == 0;
}

Status WriteFileAtomically(const std::string& path, const std::string& text, bool overwrite) {
  std::error_code ec;
  if (!overwrite && fs::exists(path, ec))
    return UserError(path + " already exists; nothing was written",
                     "choose another file name, or remove it first");
  fs::path target(path);
  if (target.has_parent_path() && !fs::is_directory(target.parent_path(), ec))
    return UserError("cannot write " + path + ": folder " + target.parent_path().string() +
                     " does not exist");
  // The temporary is created exclusively, never opened through what has its name: a link planted there
  // would be written through to its target (issue 35). A stale one (an interrupted run, or such a link)
  // is removed first; remove() takes away the name, never what a link leads to.
  std::string tmp = path + ".tmp-gpudoctor";
  if (fs::exists(fs::symlink_status(tmp, ec))) fs::remove(tmp, ec);
  if (Status written = WriteNewFile(tmp, text); !written.ok()) return written.error();
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return EnvError("cannot move " + tmp + " to " + path + ": " + ec.message());
  }
  return Ok{};
}

Result<std::string> ReadUserFile(const std::string& path, size_t max_bytes) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (fs::is_directory(status)) return UserError(path + " is a folder, not a file");
  // A FIFO with no writer would block the open for ever, a device never end (issue 35): only files.
  if (fs::exists(status) && !fs::is_regular_file(status))
    return UserError(path + " is " + SpecialFileKind(status) + ", not a regular file; nothing was read",
                     "save it to a file first and give that file");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (!fs::exists(path, ec)) return UserError(path + ": no such file");
    return UserError("cannot read " + path + " (permission denied?)");
  }
  std::string data;
  char buf[1 << 16];
  while (in) {
    in.read(buf, sizeof buf);
    data.append(buf, static_cast<size_t>(in.gcount()));
    if (data.size() > max_bytes)
      return UserError(path + " is larger than " + std::to_string(max_bytes >> 20) + " MiB");
  }
  return data;
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
