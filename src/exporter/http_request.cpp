// The HTTP/1.1 request head parser (see http_request.h), after RFC 9112 sections 3 and 5: a request line of
// three parts separated by single spaces, header fields "name: value" with a token name, no obsolete line
// folding, Host required in HTTP/1.1.
#include "exporter/http_request.h"

#include <algorithm>

#include "core/strings.h"

namespace gpudoctor {
namespace {

bool IsTokenChar(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool IsToken(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsTokenChar(c)) return false;
  }
  return true;
}

// Visible ASCII only, as a request target must be (RFC 3986 characters, percent-encoded otherwise).
bool IsTargetText(std::string_view s) {
  for (char c : s) {
    if (c <= 0x20 || c >= 0x7f) return false;
  }
  return !s.empty();
}

bool IsFieldValueText(std::string_view s) {
  for (unsigned char c : s) {
    if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
  }
  return true;
}

HttpParseResult Fail(int status, std::string reason) {
  HttpParseResult r;
  r.status = status;
  r.reason = std::move(reason);
  return r;
}

// Splits the head into lines at LF, dropping one CR before each LF.
std::vector<std::string_view> HeadLines(std::string_view head) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < head.size()) {
    size_t end = head.find('\n', start);
    if (end == std::string_view::npos) end = head.size();
    std::string_view line = head.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

}  // namespace

const std::string* HttpRequest::Header(std::string_view lower_name) const {
  for (const auto& [name, value] : headers) {
    if (name == lower_name) return &value;
  }
  return nullptr;
}

size_t FindHttpHeadEnd(std::string_view received) {
  size_t crlf = received.find("\r\n\r\n");
  size_t lf = received.find("\n\n");
  size_t end = std::string_view::npos;
  if (crlf != std::string_view::npos) end = crlf + 4;
  if (lf != std::string_view::npos && (end == std::string_view::npos || lf + 2 < end)) end = lf + 2;
  return end;
}

int HttpOverflowStatus(std::string_view received, const HttpLimits& limits) {
  size_t line_end = received.find('\n');
  if ((line_end == std::string_view::npos && received.size() > limits.max_request_line_bytes) ||
      (line_end != std::string_view::npos && line_end > limits.max_request_line_bytes))
    return 414;
  if (received.size() > limits.max_head_bytes) return 431;
  return 0;
}

HttpParseResult ParseHttpRequestHead(std::string_view head, const HttpLimits& limits) {
  if (int status = HttpOverflowStatus(head, limits); status != 0)
    return Fail(status, status == 414 ? "request line too long" : "request head too large");
  std::vector<std::string_view> lines = HeadLines(head);
  // A client may send empty lines before the request line (RFC 9112 2.2); skip a few.
  size_t first = 0;
  while (first < lines.size() && first < 4 && lines[first].empty()) ++first;
  if (first >= lines.size() || lines[first].empty()) return Fail(400, "no request line");
  std::string_view line = lines[first];
  size_t sp1 = line.find(' ');
  size_t sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp2 == std::string_view::npos || line.find(' ', sp2 + 1) != std::string_view::npos)
    return Fail(400, "the request line is not METHOD TARGET VERSION");
  HttpRequest req;
  std::string_view method = line.substr(0, sp1);
  std::string_view target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  std::string_view version = line.substr(sp2 + 1);
  if (!IsToken(method)) return Fail(400, "malformed method");
  if (!IsTargetText(target)) return Fail(400, "malformed request target");
  if (!StartsWith(version, "HTTP/") || version.size() != 8 || version[6] != '.' || version[5] < '0' ||
      version[5] > '9' || version[7] < '0' || version[7] > '9')
    return Fail(400, "malformed HTTP version");
  if (version != "HTTP/1.1" && version != "HTTP/1.0")
    return Fail(505, "only HTTP/1.0 and HTTP/1.1 are served");
  req.method = std::string(method);
  req.target = std::string(target);
  req.version = std::string(version);
  // Origin form ("/metrics?x") or absolute form ("http://host:9400/metrics").
  std::string_view path = target;
  if (path.front() != '/') {
    size_t scheme = path.find("://");
    if (scheme == std::string_view::npos) {
      if (path != "*") return Fail(400, "request target is neither a path nor a URL");
      path = "*";
    } else {
      size_t slash = path.find('/', scheme + 3);
      path = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
    }
  }
  req.path = std::string(path.substr(0, path.find_first_of("?#")));

  for (size_t i = first + 1; i < lines.size(); ++i) {
    std::string_view field = lines[i];
    if (field.empty()) break;  // the blank line that ends the head
    if (req.headers.size() >= limits.max_header_fields) return Fail(431, "too many header fields");
    if (field.front() == ' ' || field.front() == '\t') return Fail(400, "obsolete line folding");
    size_t colon = field.find(':');
    if (colon == std::string_view::npos) return Fail(400, "a header field without a colon");
    std::string_view name = field.substr(0, colon);
    if (!IsToken(name)) return Fail(400, "malformed header field name");
    std::string_view value = Trim(field.substr(colon + 1));
    if (!IsFieldValueText(value)) return Fail(400, "control characters in a header field");
    req.headers.emplace_back(ToLower(name), std::string(value));
  }
  if (req.version == "HTTP/1.1" && !req.Header("host")) return Fail(400, "HTTP/1.1 request without Host");
  // RFC 9112 3.2: a server responds 400 to a request with more than one Host field (which one a proxy in
  // front of it read is anyone's guess).
  if (std::count_if(req.headers.begin(), req.headers.end(), [](const auto& h) { return h.first == "host"; }) >
      1)
    return Fail(400, "more than one Host header field");
  if (req.Header("transfer-encoding")) return Fail(413, "request bodies are not accepted");
  if (const std::string* length = req.Header("content-length")) {
    auto n = ParseU64(*length);
    if (!n) return Fail(400, "malformed Content-Length");
    if (*n > 0) return Fail(413, "request bodies are not accepted");
  }
  HttpParseResult ok;
  ok.request = std::move(req);
  return ok;
}

}  // namespace gpudoctor
