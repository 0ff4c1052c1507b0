// Windows: the exclusive create of platform/new_file.h with _wopen(_O_CREAT | _O_EXCL), which fails when
// anything, a reparse point included, already has the name.
#include <fcntl.h>
#include <io.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "platform/new_file.h"

namespace gpudoctor {

Status WriteNewFile(const std::string& path, std::string_view text) {
  const std::filesystem::path p(path);
  const int fd =
      ::_wopen(p.c_str(), _O_WRONLY | _O_CREAT | _O_EXCL | _O_BINARY | _O_NOINHERIT, _S_IREAD | _S_IWRITE);
  if (fd < 0) return EnvError("cannot write " + path + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < text.size()) {
    const unsigned chunk = static_cast<unsigned>(std::min<size_t>(text.size() - done, INT_MAX));
    const int n = ::_write(fd, text.data() + done, chunk);
    if (n <= 0) {
      const int err = errno;
      ::_close(fd);
      ::_wunlink(p.c_str());
      return EnvError("error while writing " + path + ": " + std::strerror(err));
    }
    done += static_cast<size_t>(n);
  }
  if (::_close(fd) != 0) {
    const int err = errno;
    ::_wunlink(p.c_str());
    return EnvError("error while writing " + path + ": " + std::strerror(err));
  }
  return Ok{};
}

}  // namespace gpudoctor
