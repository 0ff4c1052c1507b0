// The exporter of `gpudoctor serve` (issue 18): the HTTP request parser, the routes, the Prometheus text, and
// the server over loopback with well-formed, malformed, oversized and slow requests.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "exporter/exporter_routes.h"
#include "exporter/http_request.h"
#include "exporter/http_server.h"
#include "exporter/prometheus_text.h"
#include "http_test_util.h"
#include "platform/tcp_socket.h"

namespace gpudoctor {
namespace {

using testing::Exchange;
using testing::LoopbackServer;
using testing::StatusLine;

HttpParseResult ParseHead(std::string_view head) {
  return ParseHttpRequestHead(head, HttpLimits{});
}

TEST(HttpRequestParse, PrometheusScrapeRequest) {
  auto r = ParseHead(
      "GET /metrics?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9400\r\nUser-Agent: Prometheus/2.42.0\r\n"
      "X-Prometheus-Scrape-Timeout-Seconds:  10 \r\n\r\n");
  ASSERT_TRUE(r.request) << r.reason;
  EXPECT_EQ(r.request->method, "GET");
  EXPECT_EQ(r.request->path, "/metrics");
  EXPECT_EQ(r.request->target, "/metrics?x=1");
  ASSERT_NE(r.request->Header("x-prometheus-scrape-timeout-seconds"), nullptr);
  EXPECT_EQ(*r.request->Header("x-prometheus-scrape-timeout-seconds"), "10");
  auto absolute = ParseHead("GET http://host:9400/healthz HTTP/1.0\n\n");  // bare LF, HTTP/1.0 without Host
  ASSERT_TRUE(absolute.request) << absolute.reason;
  EXPECT_EQ(absolute.request->path, "/healthz");
}

TEST(HttpRequestParse, MalformedAndRefusedRequests) {
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\n\r\n").status, 400);  // no Host
  // Two Host fields (issue 35, attempt #79): 400, as RFC 9112 3.2 asks; in HTTP/1.0 too.
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.0\r\nhost: a\r\nHOST: a\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET  /metrics HTTP/1.1\r\nHost: a\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("G(T /metrics HTTP/1.1\r\nHost: a\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /met\x01rics HTTP/1.1\r\nHost: a\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/2.0\r\nHost: a\r\n\r\n").status, 505);
  EXPECT_EQ(ParseHead("GET /metrics HTTX/1.1\r\nHost: a\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost a\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\x7f\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\n").status, 413);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n").status, 400);
  EXPECT_EQ(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n").status, 413);
  EXPECT_TRUE(ParseHead("GET /metrics HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n").request);
  std::string many = "GET / HTTP/1.1\r\nHost: a\r\n";
  for (int i = 0; i < 120; ++i) many += "X-" + std::to_string(i) + ": y\r\n";
  EXPECT_EQ(ParseHead(many + "\r\n").status, 431);
  EXPECT_EQ(ParseHead("GET /" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: a\r\n\r\n").status, 414);
  EXPECT_EQ(ParseHead("GET / HTTP/1.1\r\nHost: a\r\nX: " + std::string(9000, 'a') + "\r\n\r\n").status, 431);
  EXPECT_EQ(ParseHead("").status, 400);
}

TEST(HttpRequestParse, HeadEndAndOverflow) {
  EXPECT_EQ(FindHttpHeadEnd("GET / HTTP/1.1\r\nHost: a\r\n\r\nrest"), 27u);
  EXPECT_EQ(FindHttpHeadEnd("GET / HTTP/1.1\r\nHost: a\r\n"), std::string_view::npos);
  HttpLimits small{16, 32, 4};
  EXPECT_EQ(HttpOverflowStatus("GET /aaaaaaaaaaaaaaaaaaaa", small), 414);
  EXPECT_EQ(HttpOverflowStatus("GET / HTTP/1.1\r\nX: aaaaaaaaaaaaaaaaaaaaaaaaaa", small), 431);
  EXPECT_EQ(HttpOverflowStatus("GET / HTTP/1.1\r\n", small), 0);
}

TEST(ExporterRoutes, PathsAndMethods) {
  int scrapes = 0;
  auto metrics = [&] {
    ++scrapes;
    return std::string("gpudoctor_power_watts{gpu=\"0\"} 1\n");
  };
  HttpRequest get{"GET", "/metrics", "/metrics", "HTTP/1.1", {}};
  HttpResponse m = RouteExporterRequest(get, metrics);
  EXPECT_EQ(m.status, 200);
  EXPECT_EQ(m.content_type, kPrometheusContentType);
  EXPECT_EQ(scrapes, 1);
  get.path = "/healthz";
  EXPECT_EQ(RouteExporterRequest(get, metrics).body, "ok\n");
  get.path = "/nope";
  EXPECT_EQ(RouteExporterRequest(get, metrics).status, 404);
  HttpRequest post{"POST", "/metrics", "/metrics", "HTTP/1.1", {}};
  HttpResponse refused = RouteExporterRequest(post, metrics);
  EXPECT_EQ(refused.status, 405);
  ASSERT_EQ(refused.headers.size(), 1u);
  EXPECT_EQ(refused.headers[0].second, "GET, HEAD");
  EXPECT_EQ(scrapes, 1);  // only a GET /metrics reads the GPUs
  std::string head = FormatHttpResponse(m, /*head_only=*/true);
  EXPECT_NE(head.find("Content-Length: " + std::to_string(m.body.size())), std::string::npos);
  EXPECT_EQ(head.find("gpudoctor_power_watts"), std::string::npos);
}

TEST(PrometheusText, SeriesLabelsAndMissingMetrics) {
  TelemetrySample nv;
  nv.device = {0, "nvidia", "NVIDIA H100 80GB HBM3", "0000:18:00.0", "GPU-6f1d"};
  nv.source = "nvml";
  nv.power_watts = 612.418;
  nv.memory_total_bytes = 85520809984ull;
  nv.throttle_reasons_mask = 1;
  nv.processes.push_back({48213, 66920710144ull});
  TelemetrySample amd;
  amd.device = {0, "amd", "Radeon \"RX\" 6700 XT\\", "0000:03:00.0", ""};
  amd.source = "sysfs";
  amd.power_watts = 9;
  std::string text = RenderPrometheusText({nv, amd}, 2, 0.00125);
  EXPECT_NE(text.find("# HELP gpudoctor_power_watts "), std::string::npos);
  EXPECT_NE(text.find("# TYPE gpudoctor_power_watts gauge\n"), std::string::npos);
  EXPECT_NE(
      text.find(
          "gpudoctor_power_watts{gpu=\"0\",vendor=\"nvidia\",pci_bus_id=\"0000:18:00.0\",uuid=\"GPU-6f1d\","
          "name=\"NVIDIA H100 80GB HBM3\"} 612.418\n"),
      std::string::npos)
      << text;
  // No uuid label where none is known; quotes and backslashes escaped.
  EXPECT_NE(text.find("gpudoctor_power_watts{gpu=\"0\",vendor=\"amd\",pci_bus_id=\"0000:03:00.0\","
                      "name=\"Radeon \\\"RX\\\" 6700 XT\\\\\"} 9\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("gpudoctor_memory_total_bytes{gpu=\"0\",vendor=\"nvidia\""), std::string::npos);
  EXPECT_NE(text.find("} 85520809984\n"), std::string::npos);
  EXPECT_EQ(text.find("gpudoctor_temperature_celsius"),
            std::string::npos);  // nobody has it: no family at all
  EXPECT_NE(
      text.find("gpudoctor_process_memory_used_bytes{gpu=\"0\",vendor=\"nvidia\",pci_bus_id=\"0000:18:00.0\","
                "uuid=\"GPU-6f1d\",name=\"NVIDIA H100 80GB HBM3\",pid=\"48213\"} 66920710144\n"),
      std::string::npos);
  EXPECT_NE(text.find("gpudoctor_scrape_warnings 2\n"), std::string::npos);
  EXPECT_NE(text.find("gpudoctor_gpu_info{gpu=\"0\",vendor=\"amd\""), std::string::npos);
  // Each family's HELP/TYPE comes once, before its series.
  EXPECT_EQ(text.find("# TYPE gpudoctor_power_watts"), text.rfind("# TYPE gpudoctor_power_watts"));
  EXPECT_EQ(PrometheusNumber(0.5), "0.5");
  EXPECT_EQ(PrometheusNumber(1e300), "1e+300");
  EXPECT_EQ(EscapePrometheusLabel("a\nb"), "a\\nb");
}

TEST(HttpServerLoopback, AnswersEachRequestAndRefusesBadOnesCleanly) {
  LoopbackServer server;
  ASSERT_NE(server.port(), 0) << "no loopback listener";
  std::string ok = Exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(ok), "HTTP/1.1 200 OK");
  EXPECT_NE(ok.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(ok.find("\r\n\r\ngpudoctor_power_watts{gpu=\"0\"} 1\n"), std::string::npos);
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /healthz HTTP/1.0\r\n\r\n")), "HTTP/1.1 200 OK");
  std::string head = Exchange(server.port(), "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(head.substr(head.size() - 4), "\r\n\r\n");  // headers only
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /x HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 404 Not Found");
  EXPECT_EQ(StatusLine(Exchange(server.port(), "DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 405 Method Not Allowed");
  EXPECT_EQ(StatusLine(
                Exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody")),
            "HTTP/1.1 413 Content Too Large");
  EXPECT_EQ(StatusLine(Exchange(server.port(), "\x16\x03\x01\x02\x05\x01\x07\x01\xfc\x03\x03\r\n\r\n")),
            "HTTP/1.1 400 Bad Request");  // a TLS hello sent to the plain-text port
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /" + std::string(20000, 'a') + " HTTP/1.1\r\n\r\n")),
            "HTTP/1.1 414 URI Too Long");
  EXPECT_EQ(
      StatusLine(Exchange(server.port(), "GET / HTTP/1.1\r\nX: " + std::string(20000, 'b') + "\r\n\r\n")),
      "HTTP/1.1 431 Request Header Fields Too Large");
  // A client that connects and leaves costs nothing; the next one is served.
  { auto gone = TcpConnect("127.0.0.1", server.port(), 2000); }
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 200 OK");
  EXPECT_EQ(server.requests(), 6);  // only well-formed requests reach the handler (the 404 and 405 do)
}

TEST(HttpServerLoopback, ASlowClientTimesOutWithoutStoppingTheServer) {
  HttpServerOptions options;
  options.head_timeout_ms = 300;
  LoopbackServer server(options);
  ASSERT_NE(server.port(), 0);
  auto slow = TcpConnect("127.0.0.1", server.port(), 2000);
  ASSERT_TRUE(slow.ok());
  ASSERT_TRUE((*slow)->WriteAll("GET /metrics HTTP/1.1\r\nHo", 1000).ok());
  std::string answer;
  char buf[1024];
  for (;;) {
    auto n = (*slow)->Read(buf, sizeof buf, 3000);
    if (!n.ok() || *n == 0) break;
    answer.append(buf, *n);
  }
  EXPECT_EQ(StatusLine(answer), "HTTP/1.1 408 Request Timeout");
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 200 OK");
}

TEST(HttpServerLoopback, AnAddressInUseIsAnErrorThatSaysSo) {
  auto first = TcpListener::Listen("127.0.0.1", 0);
  ASSERT_TRUE(first.ok());
  auto second = TcpListener::Listen("127.0.0.1", (*first)->port());
  ASSERT_FALSE(second.ok());
  EXPECT_NE(second.error().message.find("127.0.0.1:" + std::to_string((*first)->port())), std::string::npos);
}

}  // namespace
}  // namespace gpudoctor
