// TCP sockets on POSIX (see platform/tcp_socket.h): getaddrinfo, poll() before every read, write and
// accept so that no call blocks past its timeout, MSG_NOSIGNAL so a closed peer is an error, not SIGPIPE.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "platform/tcp_socket.h"

namespace gpudoctor {
namespace {

constexpr int kOutOfDescriptorsPauseMs = 50;

std::string SystemText(int err) {
  return std::strerror(err);
}

// Waits for `events` on fd: 1 ready, 0 timed out, -1 failed (errno set).
int WaitFor(int fd, short events, int timeout_ms) {
  pollfd p{fd, events, 0};
  for (;;) {
    int rc = ::poll(&p, 1, timeout_ms);
    if (rc < 0 && errno == EINTR) return 0;  // a signal (Ctrl-C): let the caller look at its stop flag
    return rc < 0 ? -1 : (rc == 0 ? 0 : 1);
  }
}

std::string AddressText(const sockaddr* sa) {
  char host[NI_MAXHOST] = {}, port[NI_MAXSERV] = {};
  socklen_t len = sa->sa_family == AF_INET6 ? sizeof(sockaddr_in6) : sizeof(sockaddr_in);
  if (::getnameinfo(sa, len, host, sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0)
    return "?";
  return sa->sa_family == AF_INET6 ? "[" + std::string(host) + "]:" + port : std::string(host) + ":" + port;
}

class PosixConnection final : public TcpConnection {
 public:
  PosixConnection(int fd, std::string peer) : fd_(fd), peer_(std::move(peer)) {}
  ~PosixConnection() override { ::close(fd_); }

  Result<size_t> Read(char* buffer, size_t size, int timeout_ms) override {
    int ready = WaitFor(fd_, POLLIN, timeout_ms);
    if (ready == 0) return EnvError("timed out waiting for data from " + peer_);
    if (ready < 0) return EnvError("poll: " + SystemText(errno));
    ssize_t n = ::recv(fd_, buffer, size, 0);
    if (n < 0) return EnvError("recv from " + peer_ + ": " + SystemText(errno));
    return static_cast<size_t>(n);
  }

  Status WriteAll(std::string_view data, int timeout_ms) override {
    while (!data.empty()) {
      int ready = WaitFor(fd_, POLLOUT, timeout_ms);
      if (ready == 0) return EnvError("timed out writing to " + peer_);
      if (ready < 0) return EnvError("poll: " + SystemText(errno));
      ssize_t n = ::send(fd_, data.data(), data.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
      if (n < 0) return EnvError("send to " + peer_ + ": " + SystemText(errno));
      data.remove_prefix(static_cast<size_t>(n));
    }
    return Ok{};
  }

  std::string PeerText() const override { return peer_; }

 private:
  int fd_;
  std::string peer_;
};

class PosixListener final : public TcpListener {
 public:
  PosixListener(int fd, uint16_t port) : fd_(fd), port_(port) {}
  ~PosixListener() override { ::close(fd_); }

  Result<std::unique_ptr<TcpConnection>> Accept(int timeout_ms) override {
    int ready = WaitFor(fd_, POLLIN, timeout_ms);
    if (ready < 0) return EnvError("poll: " + SystemText(errno));
    if (ready == 0) return std::unique_ptr<TcpConnection>();
    sockaddr_storage peer{};
    socklen_t len = sizeof peer;
    int fd = ::accept(fd_, reinterpret_cast<sockaddr*>(&peer), &len);
    if (fd < 0) {
      // The client gave up between poll and accept, or a signal: nothing came.
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == ECONNABORTED || errno == EINTR)
        return std::unique_ptr<TcpConnection>();
      // Out of descriptors or memory for now: the connection waits in the backlog until one is closed. A
      // pause, so the listener (still readable) is not polled in a busy loop; never the end of the server.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        ::poll(nullptr, 0, timeout_ms < kOutOfDescriptorsPauseMs ? timeout_ms : kOutOfDescriptorsPauseMs);
        return std::unique_ptr<TcpConnection>();
      }
      return EnvError("accept: " + SystemText(errno));
    }
    ::fcntl(fd, F_SETFD, FD_CLOEXEC);
    return std::unique_ptr<TcpConnection>(
        std::make_unique<PosixConnection>(fd, AddressText(reinterpret_cast<sockaddr*>(&peer))));
  }

  uint16_t port() const override { return port_; }

 private:
  int fd_;
  uint16_t port_;
};

struct AddrInfoList {
  addrinfo* list = nullptr;
  ~AddrInfoList() {
    if (list) ::freeaddrinfo(list);
  }
};

bool IsUnspecifiedSockaddr(const sockaddr* sa) {
  if (sa->sa_family == AF_INET) {
    const auto* in = reinterpret_cast<const sockaddr_in*>(sa);
    return IsUnspecifiedAddressBytes(reinterpret_cast<const unsigned char*>(&in->sin_addr), 4);
  }
  if (sa->sa_family == AF_INET6) {
    const auto* in6 = reinterpret_cast<const sockaddr_in6*>(sa);
    return IsUnspecifiedAddressBytes(in6->sin6_addr.s6_addr, 16);
  }
  return false;
}

}  // namespace

Result<bool> IsEveryInterfaceHost(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST;  // "0", "0x0", "::0": no lookup at all
  AddrInfoList found;
  int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found.list);
  if (rc == EAI_NONAME) {  // a name ("localhost"): what the listener would bind
    hints.ai_flags = 0;
    rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &found.list);
  }
  if (rc != 0) return UserError(host + ": " + ::gai_strerror(rc), "give an address of this machine");
  for (addrinfo* a = found.list; a; a = a->ai_next)
    if (IsUnspecifiedSockaddr(a->ai_addr)) return true;
  return false;
}

Result<std::unique_ptr<TcpListener>> TcpListener::Listen(const std::string& host, uint16_t port) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  AddrInfoList found;
  if (int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found.list); rc != 0)
    return UserError("cannot listen on " + where + ": " + ::gai_strerror(rc),
                     "give an address of this machine");
  int last_error = 0;
  for (addrinfo* a = found.list; a; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) {
      last_error = errno;
      continue;
    }
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, SOMAXCONN) != 0) {
      last_error = errno;
      ::close(fd);
      continue;
    }
    sockaddr_storage bound{};
    socklen_t len = sizeof bound;
    uint16_t actual = port;
    if (::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len) == 0) {
      actual = bound.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port)
                                           : ntohs(reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
    }
    return std::unique_ptr<TcpListener>(std::make_unique<PosixListener>(fd, actual));
  }
  return EnvError("cannot listen on " + where + ": " + SystemText(last_error),
                  last_error == EADDRINUSE ? "another program uses that port; give another one" : "");
}

Result<std::unique_ptr<TcpConnection>> TcpConnect(const std::string& host, uint16_t port, int timeout_ms) {
  const std::string where = host + ":" + std::to_string(port);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  AddrInfoList found;
  if (int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found.list); rc != 0)
    return EnvError("cannot resolve " + where + ": " + ::gai_strerror(rc));
  for (addrinfo* a = found.list; a; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) continue;
    int rc = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (rc != 0 && errno == EINPROGRESS && WaitFor(fd, POLLOUT, timeout_ms) == 1) {
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
      rc = err == 0 ? 0 : -1;
    }
    if (rc == 0) return std::unique_ptr<TcpConnection>(std::make_unique<PosixConnection>(fd, where));
    ::close(fd);
  }
  return EnvError("cannot connect to " + where);
}

}  // namespace gpudoctor
