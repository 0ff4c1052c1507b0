// The exporter's HTTP server loop (see http_server.h).
#include "exporter/http_server.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string_view>
#include <utility>

namespace gpudoctor {
namespace {

constexpr size_t kMaxDrainBytes = 64 * 1024;
constexpr int kDrainWaitMs = 100;
constexpr int kRefusalWriteMs = 10;

HttpResponse ErrorResponse(int status, const std::string& reason) {
  HttpResponse r;
  r.status = status;
  r.body = std::to_string(status) + " " + HttpReasonPhrase(status) + ": " + reason + "\n";
  return r;
}

HttpResponse BusyResponse(size_t max_open) {
  HttpResponse r =
      ErrorResponse(503, std::to_string(max_open) + " connections are open, the most served at once");
  r.headers.emplace_back("Retry-After", "1");
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

namespace {

using Clock = std::chrono::steady_clock;

// How reading a request head ended.
enum class HeadEnd { kComplete, kOverflow, kTimedOut, kCutShort, kStopping, kPeerClosed, kFailed };

struct ReceivedHead {
  std::string bytes;
  size_t end = std::string::npos;  // just past the blank line, when kComplete
  int overflow_status = 0;         // 414 or 431, when kOverflow
  std::string failure;             // the system's words, when kFailed
};

int MillisecondsUntil(Clock::time_point when) {
  auto left = std::chrono::ceil<std::chrono::milliseconds>(when - Clock::now()).count();
  return left < 0 ? 0 : static_cast<int>(left);
}

// Why a head still arriving should stop being read now, before its own deadline: the server stops, or the
// head is overdue (busy_head_timeout_ms) while other connections wait for a worker.
std::optional<HeadEnd> CutReason(Clock::time_point busy_deadline, const HttpConnectionSignals& signals) {
  if (signals.stopping && signals.stopping()) return HeadEnd::kStopping;
  if (Clock::now() >= busy_deadline && signals.others_waiting && signals.others_waiting())
    return HeadEnd::kCutShort;
  return std::nullopt;  // read on
}

// Reads until the head ends or overflows, its one deadline for the whole head passes, or it is cut. Reads
// wait at most poll_ms each, so the deadline, the stop and waiting connections are looked at in between.
HeadEnd ReadRequestHead(TcpConnection& connection, const HttpServerOptions& options,
                        const HttpConnectionSignals& signals, ReceivedHead& head) {
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::milliseconds(options.head_timeout_ms);
  const auto busy_deadline = start + std::chrono::milliseconds(options.busy_head_timeout_ms);
  const size_t cap = options.limits.max_head_bytes + 1;  // one byte past the limit tells "too large"
  head.bytes.reserve(1024);
  char buffer[4096];
  for (;;) {
    if (Clock::now() >= deadline) return HeadEnd::kTimedOut;
    if (auto cut = CutReason(busy_deadline, signals)) return *cut;
    const auto slice_end = std::min(deadline, Clock::now() + std::chrono::milliseconds(options.poll_ms));
    size_t room = cap - head.bytes.size();
    auto n =
        connection.Read(buffer, room < sizeof buffer ? room : sizeof buffer, MillisecondsUntil(slice_end));
    // Nothing came in this slice (a poll may wake a little early): look at the deadlines again.
    if (!n.ok() && Clock::now() + std::chrono::milliseconds(10) >= slice_end) continue;
    if (!n.ok()) {
      head.failure = n.error().message;
      return HeadEnd::kFailed;
    }
    if (*n == 0) return HeadEnd::kPeerClosed;  // closed before a whole request: nothing to answer
    head.bytes.append(buffer, *n);
    head.end = FindHttpHeadEnd(head.bytes);
    if (head.end != std::string::npos) return HeadEnd::kComplete;
    head.overflow_status = HttpOverflowStatus(head.bytes, options.limits);
    if (head.overflow_status == 0 && head.bytes.size() >= cap) head.overflow_status = 431;
    if (head.overflow_status != 0) return HeadEnd::kOverflow;
  }
}

// A refused request may still be arriving (an oversized head, a body): closing with unread bytes makes the
// system reset the connection, and the client may lose the answer. Read a bounded rest first.
void DrainRefusedRequest(TcpConnection& connection) {
  char buffer[4096];
  size_t drained = 0;
  while (drained < kMaxDrainBytes) {
    auto n = connection.Read(buffer, sizeof buffer, kDrainWaitMs);
    if (!n.ok() || *n == 0) break;
    drained += *n;
  }
}

// The answer to a complete head or an overflowing one.
HttpResponse AnswerHead(const ReceivedHead& head, HeadEnd end, const HttpHandler& handler,
                        const HttpServerOptions& options, bool& head_only) {
  if (end == HeadEnd::kOverflow)
    return ErrorResponse(head.overflow_status,
                         head.overflow_status == 414 ? "request line too long" : "request head too large");
  HttpParseResult parsed =
      ParseHttpRequestHead(std::string_view(head.bytes).substr(0, head.end), options.limits);
  if (!parsed.request) return ErrorResponse(parsed.status, parsed.reason);
  head_only = parsed.request->method == "HEAD";
  return handler(*parsed.request);
}

}  // namespace

void ServeHttpConnection(TcpConnection& connection, const HttpHandler& handler,
                         const HttpServerOptions& options, const std::function<void(const std::string&)>& log,
                         const HttpConnectionSignals& signals) {
  ReceivedHead head;
  const HeadEnd end = ReadRequestHead(connection, options, signals, head);
  if (end == HeadEnd::kStopping || end == HeadEnd::kPeerClosed) return;
  if (end == HeadEnd::kFailed) {
    log(connection.PeerText() + ": " + head.failure);
    return;
  }
  if (end == HeadEnd::kTimedOut || end == HeadEnd::kCutShort) {
    // The client is slow or gone: a best effort at telling it, the log says what happened either way.
    (void)connection.WriteAll(
        FormatHttpResponse(ErrorResponse(408, "the request head did not arrive in time"), false),
        options.write_timeout_ms);
    log(connection.PeerText() +
        (end == HeadEnd::kTimedOut
             ? ": request head timed out"
             : ": request head cut short: not complete while other connections waited"));
    return;
  }
  bool head_only = false;
  HttpResponse response = AnswerHead(head, end, handler, options, head_only);
  if (auto st = connection.WriteAll(FormatHttpResponse(response, head_only), options.write_timeout_ms);
      !st.ok()) {
    log(connection.PeerText() + ": " + st.error().message);
    return;
  }
  if (response.status == 413 || response.status == 414 || response.status == 431)
    DrainRefusedRequest(connection);
}

Status ServeHttp(TcpListener& listener, const HttpHandler& handler, const HttpServerOptions& options,
                 const std::function<bool()>& should_stop,
                 const std::function<void(const std::string&)>& log) {
  HttpWorkerPool pool(
      options.max_workers, options.max_open_connections,
      [&](TcpConnection& connection, const HttpConnectionSignals& signals) {
        ServeHttpConnection(connection, handler, options, log, signals);
      },
      log);
  while (!should_stop()) {
    auto connection = listener.Accept(options.poll_ms);
    if (!connection.ok()) return connection.error();  // the pool stops as it goes out of scope
    if (!*connection) continue;
    if (auto refused = pool.Submit(std::move(*connection))) {
      // Full: refused at once (the answer fits the socket's buffer, so the write does not wait).
      (void)refused->WriteAll(FormatHttpResponse(BusyResponse(options.max_open_connections), false),
                              kRefusalWriteMs);
      log(refused->PeerText() + ": refused, " + std::to_string(options.max_open_connections) +
          " connections already open");
    }
  }
  pool.Stop();
  return Ok{};
}

}  // namespace gpudoctor
