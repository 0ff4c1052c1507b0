// See user_file.h.
#include "platform/user_file.h"

#include <filesystem>
#include <fstream>
#include <system_error>

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

}  // namespace gpudoctor
