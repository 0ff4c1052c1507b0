// libFuzzer target: the exporter's HTTP request head parser and the routes on arbitrary bytes, with small
// limits so the size checks are reached too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exporter/exporter_routes.h"
#include "exporter/http_request.h"
#include "exporter/http_server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpudoctor;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  for (const HttpLimits& limits : {HttpLimits{}, HttpLimits{64, 128, 4}}) {
    size_t end = FindHttpHeadEnd(bytes);
    if (end != std::string_view::npos && end > bytes.size()) __builtin_trap();
    int overflow = HttpOverflowStatus(bytes, limits);
    if (overflow != 0 && overflow != 414 && overflow != 431) __builtin_trap();
    HttpParseResult r =
        ParseHttpRequestHead(end == std::string_view::npos ? bytes : bytes.substr(0, end), limits);
    if (r.request.has_value() == (r.status != 0)) __builtin_trap();  // a request or a status, never both
    if (!r.request) continue;
    if (r.request->path.empty() && r.request->target != "*") __builtin_trap();
    if (r.request->headers.size() > limits.max_header_fields) __builtin_trap();
    HttpResponse response = RouteExporterRequest(*r.request, [] { return std::string("m 1\n"); });
    std::string text = FormatHttpResponse(response, r.request->method == "HEAD");
    if (text.rfind("HTTP/1.1 ", 0) != 0) __builtin_trap();
  }
  return 0;
}
