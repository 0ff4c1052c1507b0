// What the tests of the exporter's HTTP server share: a server on a free loopback port in a thread, and a
// client exchange that sends a request and reads the answer to its end.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "exporter/exporter_routes.h"
#include "exporter/http_server.h"
#include "platform/tcp_socket.h"

namespace gpudoctor::testing {

// A server on a free loopback port in a thread, for the life of the test.
class LoopbackServer {
 public:
  // `metrics` renders /metrics (a one-line page when empty); it is called from the server's workers.
  explicit LoopbackServer(HttpServerOptions options = {}, std::function<std::string()> metrics = {}) {
    if (!metrics) metrics = [] { return std::string("gpudoctor_power_watts{gpu=\"0\"} 1\n"); };
    auto listener = TcpListener::Listen("127.0.0.1", 0);
    if (!listener.ok()) return;
    listener_ = std::move(listener.value());
    port_ = listener_->port();
    thread_ = std::thread([this, options, metrics] {
      auto handler = [this, &metrics](const HttpRequest& r) {
        ++requests_;
        return RouteExporterRequest(r, metrics);
      };
      status_ok_ =
          ServeHttp(
              *listener_, handler, options, [this] { return stop_.load(); }, [](const std::string&) {})
              .ok();
    });
  }
  ~LoopbackServer() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  uint16_t port() const { return port_; }
  int requests() const { return requests_.load(); }
  bool status_ok() const { return status_ok_; }

 private:
  std::unique_ptr<TcpListener> listener_;
  uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> requests_{0};
  bool status_ok_ = false;
  std::thread thread_;
};

// Sends `request` whole, then reads the answer until the server closes.
inline std::string Exchange(uint16_t port, const std::string& request) {
  auto c = TcpConnect("127.0.0.1", port, 2000);
  if (!c.ok()) return "connect failed: " + c.error().message;
  if (!(*c)->WriteAll(request, 2000).ok()) return "write failed";
  std::string out;
  char buf[4096];
  for (;;) {
    auto n = (*c)->Read(buf, sizeof buf, 3000);
    if (!n.ok() || *n == 0) break;
    out.append(buf, *n);
  }
  return out;
}

inline std::string StatusLine(const std::string& response) {
  return response.substr(0, response.find("\r\n"));
}

}  // namespace gpudoctor::testing
