// The request side of the exporter's HTTP/1.1 server, as pure functions over the bytes received (no I/O), so
// the parser is unit-tested and fuzzed on its own. Only what a metrics endpoint needs: a request line, header
// fields, no body (a request announcing one is refused with 413).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpudoctor {

struct HttpLimits {
  size_t max_request_line_bytes = 8192;  // longer: 414
  size_t max_head_bytes = 8192;          // request line and header fields together; more: 431
  size_t max_header_fields = 100;        // more: 431
};

struct HttpRequest {
  std::string method;                                        // "GET"
  std::string target;                                        // "/metrics?x=1"
  std::string path;                                          // "/metrics"
  std::string version;                                       // "HTTP/1.1"
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  const std::string* Header(std::string_view lower_name) const;
};

// What parsing a head gives: a request, or the status to answer (400, 413, 414, 431, 505) and why.
struct HttpParseResult {
  std::optional<HttpRequest> request;
  int status = 0;
  std::string reason;
};

// Where the head ends in the bytes received so far: the offset just past the blank line ("\r\n\r\n", or
// "\n\n" from a lenient client); npos while it has not arrived.
size_t FindHttpHeadEnd(std::string_view received);

// What to answer when `received` has no end of head yet and can take no more bytes: 414 when the request
// line alone is over its limit, else 431. 0 while more bytes may still come.
int HttpOverflowStatus(std::string_view received, const HttpLimits& limits);

// Parses a complete head (through its blank line).
HttpParseResult ParseHttpRequestHead(std::string_view head, const HttpLimits& limits);

}  // namespace gpudoctor
