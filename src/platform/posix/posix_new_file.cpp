// POSIX: the exclusive create of platform/new_file.h with open(2). On Linux the text is written into an
// unnamed file (O_TMPFILE) that gets its name only once it is whole, so a run killed in the middle of
// the write (Ctrl-C, SIGTERM, SIGKILL) leaves nothing behind (issue 35, attempt 118).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "platform/new_file.h"

namespace gpudoctor {
namespace {

// Writes all of `text` to `fd`; 0, or the errno of the failed write.
int WriteAllTo(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<size_t>(n);
  }
  return 0;
}

// The unnamed-file path: its outcome, or nullopt (nothing created) when this system or file system has
// no O_TMPFILE or no /proc to name the file through, and the named path must be taken.
std::optional<Status> WriteUnnamedThenLink(const std::string& path, std::string_view text) {
#ifdef O_TMPFILE
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  const std::string dir = parent.empty() ? "." : parent.string();
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0) return std::nullopt;
  if (const int err = WriteAllTo(fd, text); err != 0) {
    ::close(fd);
    return EnvError("error while writing " + path + ": " + std::strerror(err));
  }
  // linkat never replaces what has the name and never follows a link there: the same exclusive create.
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  const int linked = ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW);
  const int err = linked == 0 ? 0 : errno;
  const int close_err = ::close(fd) == 0 ? 0 : errno;
  if (err == ENOENT) return std::nullopt;  // no /proc to name it through: nothing was named
  if (err != 0) return EnvError("cannot write " + path + ": " + std::strerror(err));
  if (close_err != 0) {
    ::unlink(path.c_str());
    return EnvError("error while writing " + path + ": " + std::strerror(close_err));
  }
  return Status(Ok{});
#else
  (void)path, (void)text;
  return std::nullopt;
#endif
}

}  // namespace

Status WriteNewFile(const std::string& path, std::string_view text) {
  if (std::optional<Status> unnamed = WriteUnnamedThenLink(path, text)) return *std::move(unnamed);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return EnvError("cannot write " + path + ": " + std::strerror(errno));
  if (const int err = WriteAllTo(fd, text); err != 0) {
    ::close(fd);
    ::unlink(path.c_str());
    return EnvError("error while writing " + path + ": " + std::strerror(err));
  }
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(path.c_str());
    return EnvError("error while writing " + path + ": " + std::strerror(err));
  }
  return Ok{};
}

}  // namespace gpudoctor
