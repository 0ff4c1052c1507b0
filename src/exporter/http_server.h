// The exporter's HTTP/1.1 server: one connection at a time (a scrape takes a millisecond; Prometheus
// scrapes every few seconds), one request per connection ("Connection: close"), a deadline on the whole
// request head and on the answer, the head's size bounded by HttpLimits, so memory stays flat whatever a
// client sends. Requests are answered by a handler; malformed ones here, with 400/413/414/431/505.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "exporter/http_request.h"
#include "platform/tcp_socket.h"

namespace gpudoctor {

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // besides Content-Type/Length, Connection
};

struct HttpServerOptions {
  HttpLimits limits;
  int head_timeout_ms = 5000;   // the whole request head must arrive within this
  int write_timeout_ms = 5000;  // each wait for room to write the answer
  int poll_ms = 200;            // how often the stop condition is looked at while idle
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

// "HTTP/1.1 404 Not Found\r\n..." with Content-Length, Connection: close; the body left out for HEAD.
std::string FormatHttpResponse(const HttpResponse& response, bool head_only);
// The reason phrase of the statuses the server uses ("Not Found"); "Unknown" for others.
const char* HttpReasonPhrase(int status);

// Serves connections from `listener` until `should_stop()` is true. A failed connection (timeout, reset) is
// one line to `log` and the server goes on; only a failing listener ends it early, with that error.
Status ServeHttp(TcpListener& listener, const HttpHandler& handler, const HttpServerOptions& options,
                 const std::function<bool()>& should_stop,
                 const std::function<void(const std::string&)>& log);

// Answers one connection: reads its head, answers it, returns. Exposed for tests.
void ServeHttpConnection(TcpConnection& connection, const HttpHandler& handler,
                         const HttpServerOptions& options,
                         const std::function<void(const std::string&)>& log);

}  // namespace gpudoctor
