// POSIX: positioned reads with pread(2) on a descriptor opened once (O_CLOEXEC, so a child process
// started meanwhile does not inherit it).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/random_access_file.h"

namespace gpudoctor {
namespace {

class PosixRandomAccessFile final : public RandomAccessFile {
 public:
  PosixRandomAccessFile(int fd, uint64_t size, std::string path)
      : fd_(fd), size_(size), path_(std::move(path)) {}
  ~PosixRandomAccessFile() override { ::close(fd_); }
  PosixRandomAccessFile(const PosixRandomAccessFile&) = delete;
  PosixRandomAccessFile& operator=(const PosixRandomAccessFile&) = delete;

  uint64_t Size() const override { return size_; }
  const std::string& Path() const override { return path_; }

  Status ReadAt(uint64_t offset, std::span<uint8_t> out) const override {
    size_t done = 0;
    while (done < out.size()) {
      ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        return EnvError(path_ + ": reading " + std::to_string(out.size()) + " bytes at offset " +
                        std::to_string(offset) + " failed: " + std::strerror(errno));
      if (n == 0)
        return EnvError(path_ + ": the file ends before offset " + std::to_string(offset + out.size()) +
                        " (did it change while it was read?)");
      done += static_cast<size_t>(n);
    }
    return Ok{};
  }

 private:
  int fd_;
  uint64_t size_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<RandomAccessFile>> OpenRandomAccessFile(const std::string& host_path) {
  // O_NONBLOCK: a FIFO with no writer would block the open for ever; it is refused below.
  int fd = ::open(host_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return EnvError("cannot open " + host_path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return EnvError("cannot examine " + host_path + ": " + std::strerror(err));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return UserError(host_path + " is a folder, not a file");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return UserError(host_path + " is " +
                     (S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)" : "a device or socket") +
                     ", not a regular file; nothing was read");
  }
  return std::unique_ptr<RandomAccessFile>(
      std::make_unique<PosixRandomAccessFile>(fd, static_cast<uint64_t>(st.st_size), host_path));
}

}  // namespace gpudoctor
