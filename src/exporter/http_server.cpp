// The exporter's HTTP server loop (see http_server.h).
#include "exporter/http_server.h"

#include <chrono>

namespace gpudoctor {
namespace {

constexpr size_t kMaxDrainBytes = 64 * 1024;
constexpr int kDrainWaitMs = 100;

HttpResponse ErrorResponse(int status, const std::string& reason) {
  HttpResponse r;
  r.status = status;
  r.body = std::to_string(status) + " " + HttpReasonPhrase(status) + ": " + reason + "\n";
  return r;
}

}  // namespace

const char* HttpReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 413:
      return "Content Too Large";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

std::string FormatHttpResponse(const HttpResponse& response, bool head_only) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " + HttpReasonPhrase(response.status) +
                    "\r\nContent-Type: " + response.content_type +
                    "\r\nContent-Length: " + std::to_string(response.body.size()) +
                    "\r\nConnection: close\r\n";
  for (const auto& [name, value] : response.headers) out += name + ": " + value + "\r\n";
  out += "\r\n";
  if (!head_only) out += response.body;
  return out;
}

void ServeHttpConnection(TcpConnection& connection, const HttpHandler& handler,
                         const HttpServerOptions& options,
                         const std::function<void(const std::string&)>& log) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::milliseconds(options.head_timeout_ms);
  const size_t cap = options.limits.max_head_bytes + 1;  // one byte past the limit tells "too large"
  std::string received;
  received.reserve(1024);
  char buffer[4096];
  size_t head_end = std::string::npos;
  int overflow = 0;
  while (head_end == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      // The client is slow or gone: a best effort at telling it, the log says what happened either way.
      (void)connection.WriteAll(
          FormatHttpResponse(ErrorResponse(408, "the request head did not arrive in time"), false),
          options.write_timeout_ms);
      log(connection.PeerText() + ": request head timed out");
      return;
    }
    size_t room = cap - received.size();
    auto n = connection.Read(buffer, room < sizeof buffer ? room : sizeof buffer, static_cast<int>(left));
    // The head timed out (a poll may wake a little early): the loop answers 408.
    if (!n.ok() && Clock::now() + std::chrono::milliseconds(10) >= deadline) continue;
    if (!n.ok()) {
      log(connection.PeerText() + ": " + n.error().message);
      return;
    }
    if (*n == 0) return;  // the client closed before a whole request: nothing to answer
    received.append(buffer, *n);
    head_end = FindHttpHeadEnd(received);
    if (head_end == std::string::npos && (overflow = HttpOverflowStatus(received, options.limits)) != 0)
      break;
    if (head_end == std::string::npos && received.size() >= cap) {
      overflow = 431;
      break;
    }
  }
  HttpResponse response;
  bool head_only = false;
  if (overflow != 0) {
    response = ErrorResponse(overflow, overflow == 414 ? "request line too long" : "request head too large");
  } else {
    HttpParseResult parsed =
        ParseHttpRequestHead(std::string_view(received).substr(0, head_end), options.limits);
    if (!parsed.request) {
      response = ErrorResponse(parsed.status, parsed.reason);
    } else {
      head_only = parsed.request->method == "HEAD";
      response = handler(*parsed.request);
    }
  }
  if (auto st = connection.WriteAll(FormatHttpResponse(response, head_only), options.write_timeout_ms);
      !st.ok()) {
    log(connection.PeerText() + ": " + st.error().message);
    return;
  }
  // A refused request may still be arriving (an oversized head, a body): closing with unread bytes makes the
  // system reset the connection, and the client may lose the answer. Read a bounded rest first.
  if (response.status == 413 || response.status == 414 || response.status == 431) {
    size_t drained = 0;
    while (drained < kMaxDrainBytes) {
      auto n = connection.Read(buffer, sizeof buffer, kDrainWaitMs);
      if (!n.ok() || *n == 0) break;
      drained += *n;
    }
  }
}

Status ServeHttp(TcpListener& listener, const HttpHandler& handler, const HttpServerOptions& options,
                 const std::function<bool()>& should_stop,
                 const std::function<void(const std::string&)>& log) {
  while (!should_stop()) {
    auto connection = listener.Accept(options.poll_ms);
    if (!connection.ok()) return connection.error();
    if (!*connection) continue;
    ServeHttpConnection(**connection, handler, options, log);
  }
  return Ok{};
}

}  // namespace gpudoctor
