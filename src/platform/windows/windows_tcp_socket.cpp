// TCP sockets on Windows (see platform/tcp_socket.h): winsock 2, WSAPoll before every read, write and
// accept so that no call blocks past its timeout. WSAStartup is called once per listener or connection
// (it counts its callers) and balanced by WSACleanup.
#include <winsock2.h>
#include <ws2tcpip.h>

#include "platform/tcp_socket.h"

namespace gpudoctor {
namespace {

std::string SocketErrorText(int err) {
  return "winsock error " + std::to_string(err);
}

// WSAStartup for the lifetime of one socket object.
struct WinsockUse {
  bool ok = false;
  WinsockUse() {
    WSADATA data;
    ok = ::WSAStartup(MAKEWORD(2, 2), &data) == 0;
  }
  ~WinsockUse() {
    if (ok) ::WSACleanup();
  }
  WinsockUse(const WinsockUse&) = delete;
  WinsockUse& operator=(const WinsockUse&) = delete;
};

int WaitFor(SOCKET s, short events, int timeout_ms) {
  WSAPOLLFD p{};
  p.fd = s;
  p.events = events;
  int rc = ::WSAPoll(&p, 1, timeout_ms);
  return rc == SOCKET_ERROR ? -1 : (rc == 0 ? 0 : 1);
}

std::string AddressText(const sockaddr* sa, int len) {
  char host[NI_MAXHOST] = {}, port[NI_MAXSERV] = {};
  if (::getnameinfo(sa, len, host, sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "?";
  return sa->sa_family == AF_INET6 ? "[" + std::string(host) + "]:" + port : std::string(host) + ":" + port;
}

void SetNonBlocking(SOCKET s) {
  u_long on = 1;
  ::ioctlsocket(s, FIONBIO, &on);
}

class WindowsConnection final : public TcpConnection {
 public:
  WindowsConnection(SOCKET s, std::string peer) : s_(s), peer_(std::move(peer)) { SetNonBlocking(s_); }
  ~WindowsConnection() override { ::closesocket(s_); }

  Result<size_t> Read(char* buffer, size_t size, int timeout_ms) override {
    int ready = WaitFor(s_, POLLRDNORM, timeout_ms);
    if (ready == 0) return EnvError("timed out waiting for data from " + peer_);
    if (ready < 0) return EnvError("WSAPoll: " + SocketErrorText(::WSAGetLastError()));
    int n = ::recv(s_, buffer, static_cast<int>(size > 1u << 30 ? 1u << 30 : size), 0);
    if (n == SOCKET_ERROR)
      return EnvError("recv from " + peer_ + ": " + SocketErrorText(::WSAGetLastError()));
    return static_cast<size_t>(n);
  }

  Status WriteAll(std::string_view data, int timeout_ms) override {
    while (!data.empty()) {
      int ready = WaitFor(s_, POLLWRNORM, timeout_ms);
      if (ready == 0) return EnvError("timed out writing to " + peer_);
      if (ready < 0) return EnvError("WSAPoll: " + SocketErrorText(::WSAGetLastError()));
      int chunk = static_cast<int>(data.size() > 1u << 20 ? 1u << 20 : data.size());
      int n = ::send(s_, data.data(), chunk, 0);
      if (n == SOCKET_ERROR) {
        int err = ::WSAGetLastError();
        if (err == WSAEWOULDBLOCK) continue;
        return EnvError("send to " + peer_ + ": " + SocketErrorText(err));
      }
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Ok{};
  }

  std::string PeerText() const override { return peer_; }

 private:
  WinsockUse winsock_;
  SOCKET s_;
  std::string peer_;
};

class WindowsListener final : public TcpListener {
 public:
  WindowsListener(SOCKET s, uint16_t port) : s_(s), port_(port) {}
  ~WindowsListener() override { ::closesocket(s_); }

  Result<std::unique_ptr<TcpConnection>> Accept(int timeout_ms) override {
    int ready = WaitFor(s_, POLLRDNORM, timeout_ms);
    if (ready < 0) return EnvError("WSAPoll: " + SocketErrorText(::WSAGetLastError()));
    if (ready == 0) return std::unique_ptr<TcpConnection>();
    sockaddr_storage peer{};
    int len = sizeof peer;
    SOCKET s = ::accept(s_, reinterpret_cast<sockaddr*>(&peer), &len);
    if (s == INVALID_SOCKET) {
      int err = ::WSAGetLastError();
      if (err == WSAEWOULDBLOCK || err == WSAECONNRESET) return std::unique_ptr<TcpConnection>();
      return EnvError("accept: " + SocketErrorText(err));
    }
    return std::unique_ptr<TcpConnection>(
        std::make_unique<WindowsConnection>(s, AddressText(reinterpret_cast<sockaddr*>(&peer), len)));
  }

  uint16_t port() const override { return port_; }

 private:
  WinsockUse winsock_;
  SOCKET s_;
  uint16_t port_;
};

bool IsUnspecifiedSockaddr(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    return IsUnspecifiedAddressBytes(reinterpret_cast<const unsigned char*>(&in->sin_addr), 4);
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    return IsUnspecifiedAddressBytes(reinterpret_cast<const unsigned char*>(&in6->sin6_addr), 16);
  }
  return false;
}

}  // namespace

Result<bool> IsEveryInterfaceHost(const std::string& host) {
  WinsockUse winsock;
  if (!winsock.ok) return EnvError("WSAStartup failed");
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST;  // "0", "0x0", "::0": no lookup at all
  addrinfo* found = nullptr;
  int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0) {  // a name ("localhost"): what the listener would bind
    hints.ai_flags = 0;
    rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  }
  if (rc != 0) return UserError(host + ": unknown address", "give an address of this machine");
  bool every = false;
  for (addrinfo* a = found; a; a = a->ai_next) every = every || IsUnspecifiedSockaddr(a->ai_addr);
  ::freeaddrinfo(found);
  return every;
}

Result<std::unique_ptr<TcpListener>> TcpListener::Listen(const std::string& host, uint16_t port) {
  WinsockUse winsock;  // for the lookups below; the listener holds its own
  if (!winsock.ok) return EnvError("WSAStartup failed");
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
    return UserError("cannot listen on " + where + ": unknown address", "give an address of this machine");
  int last_error = 0;
  for (addrinfo* a = found; a; a = a->ai_next) {
    SOCKET s = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (s == INVALID_SOCKET) {
      last_error = ::WSAGetLastError();
      continue;
    }
    BOOL exclusive = TRUE;  // no other program may bind the same port beside us
    ::setsockopt(s, SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&exclusive),
                 sizeof exclusive);
    if (::bind(s, a->ai_addr, static_cast<int>(a->ai_addrlen)) != 0 || ::listen(s, SOMAXCONN) != 0) {
      last_error = ::WSAGetLastError();
      ::closesocket(s);
      continue;
    }
    SetNonBlocking(s);
    sockaddr_storage bound{};
    int len = sizeof bound;
    uint16_t actual = port;
    if (::getsockname(s, reinterpret_cast<sockaddr*>(&bound), &len) == 0) {
      actual = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                           : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    }
    ::freeaddrinfo(found);
    return std::unique_ptr<TcpListener>(std::make_unique<WindowsListener>(s, actual));
  }
  ::freeaddrinfo(found);
  return EnvError("cannot listen on " + where + ": " + SocketErrorText(last_error),
                  last_error == WSAEADDRINUSE ? "another program uses that port; give another one" : "");
}

Result<std::unique_ptr<TcpConnection>> TcpConnect(const std::string& host, uint16_t port, int timeout_ms) {
  WinsockUse winsock;
  if (!winsock.ok) return EnvError("WSAStartup failed");
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0)
    return EnvError("cannot resolve " + where);
  for (addrinfo* a = found; a; a = a->ai_next) {
    SOCKET s = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
    if (s == INVALID_SOCKET) continue;
    SetNonBlocking(s);
    int rc = ::connect(s, a->ai_addr, static_cast<int>(a->ai_addrlen));
    if (rc != 0 && ::WSAGetLastError() == WSAEWOULDBLOCK && WaitFor(s, POLLWRNORM, timeout_ms) == 1) {
      int err = 0;
      int len = sizeof err;
      ::getsockopt(s, SOL_SOCKET, SO_ERROR, reinterpret_cast<char*>(&err), &len);
      rc = err == 0 ? 0 : -1;
    }
    if (rc == 0) {
      ::freeaddrinfo(found);
      return std::unique_ptr<TcpConnection>(std::make_unique<WindowsConnection>(s, where));
    }
    ::closesocket(s);
  }
  ::freeaddrinfo(found);
  return EnvError("cannot connect to " + where);
}

}  // namespace gpudoctor
