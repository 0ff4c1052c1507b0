// Keeps the portable Linux binary at its glibc floor (2.34, docs/packaging.md). The static libstdc++ of
// GCC 12 on Debian 12 was built against glibc 2.36 and calls arc4random (new in glibc 2.36) from
// std::random_device, whose object file every std::mt19937 use links in. This definition, linked
// into the executable itself (src/CMakeLists.txt), satisfies that reference, so the binary asks no
// glibc for arc4random@GLIBC_2.36. Same contract as glibc's: random bytes from the kernel (getrandom,
// glibc 2.25), /dev/urandom when the call is missing.
#include <fcntl.h>
#include <sys/random.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>

extern "C" uint32_t arc4random(void) {
  uint32_t value = 0;
  auto* bytes = reinterpret_cast<unsigned char*>(&value);
  size_t have = 0;
  while (have < sizeof value) {
    ssize_t n = getrandom(bytes + have, sizeof value - have, 0);
    if (n > 0) {
      have += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
      if (fd >= 0) {
        while (have < sizeof value) {
          ssize_t m = read(fd, bytes + have, sizeof value - have);
          if (m <= 0 && errno != EINTR) break;
          if (m > 0) have += static_cast<size_t>(m);
        }
        close(fd);
      }
      break;
    }
  }
  return value;
}
