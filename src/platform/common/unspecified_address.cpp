// The unspecified addresses (see platform/tcp_socket.h): pure byte comparisons, the same on every platform.
#include <algorithm>

#include "platform/tcp_socket.h"

namespace gpudoctor {

bool IsUnspecifiedAddressBytes(const unsigned char* bytes, size_t size) {
  auto all_zero = [](const unsigned char* begin, const unsigned char* end) {
    return std::all_of(begin, end, [](unsigned char b) { return b == 0; });
  };
  if (size == 4) return all_zero(bytes, bytes + 4);
  if (size != 16) return false;
  if (all_zero(bytes, bytes + 16)) return true;  // ::
  // ::ffff:0.0.0.0, the IPv4-mapped form of 0.0.0.0: a dual-stack socket bound to it takes every IPv4
  // address.
  return all_zero(bytes, bytes + 10) && bytes[10] == 0xff && bytes[11] == 0xff &&
         all_zero(bytes + 12, bytes + 16);
}

}  // namespace gpudoctor
