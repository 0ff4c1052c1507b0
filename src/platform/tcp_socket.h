// TCP sockets for the exporter's small HTTP server (`gpudoctor serve`) and its tests: a listener bound to
// one address, connections with timeouts on every read and write. POSIX sockets in platform/posix/,
// winsock in platform/windows/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"

namespace gpudoctor {

class TcpConnection {
 public:
  virtual ~TcpConnection() = default;
  // Waits at most timeout_ms for bytes: the count read (at most `size`), 0 when the peer closed its side;
  // an error on a timeout (its message says so) or a failure.
  virtual Result<size_t> Read(char* buffer, size_t size, int timeout_ms) = 0;
  // Writes all of `data`, each wait for room at most timeout_ms.
  virtual Status WriteAll(std::string_view data, int timeout_ms) = 0;
  // The peer's address, "127.0.0.1:53122", for messages.
  virtual std::string PeerText() const = 0;
};

class TcpListener {
 public:
  // Binds `host` (a numeric IPv4/IPv6 address or a name such as "localhost") and `port` (0: a free port,
  // see port()) and listens. An error names the address and the system's reason (in use, no permission).
  static Result<std::unique_ptr<TcpListener>> Listen(const std::string& host, uint16_t port);
  virtual ~TcpListener() = default;
  // Waits at most timeout_ms for a connection; nullptr when none came in that time.
  virtual Result<std::unique_ptr<TcpConnection>> Accept(int timeout_ms) = 0;
  virtual uint16_t port() const = 0;
};

// Whether `host` names the unspecified address, which listens on every interface: 0.0.0.0 and :: in any
// spelling the system's resolver takes ("0", "0.0", "0x0", "000.000.000.000", "::0", "0:0:0:0:0:0:0:0"),
// and ::ffff:0.0.0.0. The host is resolved as the listener would (numeric first, then as a name, every
// address it gives looked at); an error, naming the host, when it does not resolve.
Result<bool> IsEveryInterfaceHost(const std::string& host);

// Whether the raw bytes of an address (4: IPv4, 16: IPv6, network order) are an unspecified address:
// 0.0.0.0, :: or the IPv4-mapped ::ffff:0.0.0.0. Shared by both platforms' IsEveryInterfaceHost.
bool IsUnspecifiedAddressBytes(const unsigned char* bytes, size_t size);

// A client connection (tests and bench/ scripts' helpers).
Result<std::unique_ptr<TcpConnection>> TcpConnect(const std::string& host, uint16_t port, int timeout_ms);

}  // namespace gpudoctor
