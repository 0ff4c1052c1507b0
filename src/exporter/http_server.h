// The exporter's HTTP/1.1 server: connections served at once by a bounded pool of workers
// (http_worker_pool.h), so a slow client holds one worker, never the others; one request per connection
// ("Connection: close"); a deadline on the whole request head (not on each read: a client sending a byte a
// second is cut when it passes) and on the answer; the head's size bounded by HttpLimits. Memory stays
// bounded whatever clients send: at most max_open_connections open, each with at most one head. While every
// worker is busy and connections wait, a head still incomplete after busy_head_timeout_ms is cut (408), so
// slow clients cannot starve a scrape; past max_open_connections a new connection is answered 503 at once.
// Requests are answered by a handler, called from several workers at once; malformed ones here, with
// 400/413/414/431/505.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "exporter/http_request.h"
#include "exporter/http_worker_pool.h"
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
  int head_timeout_ms = 5000;          // the whole request head must arrive within this
  int busy_head_timeout_ms = 500;      // ... or within this while connections wait for a busy pool
  int write_timeout_ms = 5000;         // each wait for room to write the answer
  int poll_ms = 100;                   // how often stop and waiting connections are looked at
  size_t max_workers = 128;            // connections served at once, each by its own thread
  size_t max_open_connections = 1024;  // served and waiting; a connection past it is answered 503
};

// Called from several workers at once: it must be safe to call so (the exporter serialises its GPU reads).
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

// Answers one connection: reads its head, answers it, returns. `signals` (from the pool) cut a slow head
// short when the server stops or others wait. Exposed for tests.
void ServeHttpConnection(TcpConnection& connection, const HttpHandler& handler,
                         const HttpServerOptions& options, const std::function<void(const std::string&)>& log,
                         const HttpConnectionSignals& signals = {});

}  // namespace gpudoctor
