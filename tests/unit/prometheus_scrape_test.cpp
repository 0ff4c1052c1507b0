// A real Prometheus scrapes `gpudoctor serve --prometheus` (issue 18, "Done when"): Debian's prometheus
// binary started here on loopback with a 1 s scrape interval and a temporary storage folder, the exporter
// serving a recorded machine, then Prometheus' query API must return our metrics with their labels. Skipped,
// saying why, where the prometheus binary is missing.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "platform/process.h"
#include "platform/tcp_socket.h"
#include "test_common.h"

namespace gpudoctor {
namespace {

namespace stdfs = std::filesystem;
using testing::kFixtures;

std::string FindPrometheus() {
  for (const char* p : {"/usr/bin/prometheus", "/usr/local/bin/prometheus"}) {
    std::error_code ec;
    if (stdfs::is_regular_file(p, ec)) return p;
  }
  return "";
}

uint16_t FreeLoopbackPort() {
  auto l = TcpListener::Listen("127.0.0.1", 0);
  return l.ok() ? (*l)->port() : 0;
}

// GET `target` from 127.0.0.1:port (one request, HTTP/1.0); the body, or "" on any failure.
std::string HttpGet(uint16_t port, const std::string& target, const std::string& method = "GET") {
  auto c = TcpConnect("127.0.0.1", port, 1000);
  if (!c.ok()) return "";
  if (!(*c)->WriteAll(method + " " + target + " HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", 1000).ok()) return "";
  std::string out;
  char buf[8192];
  for (;;) {
    auto n = (*c)->Read(buf, sizeof buf, 3000);
    if (!n.ok() || *n == 0) break;
    out.append(buf, *n);
  }
  size_t body = out.find("\r\n\r\n");
  return body == std::string::npos ? "" : out.substr(body + 4);
}

// The series of an instant query, or an empty array until Prometheus has them.
nlohmann::json Query(uint16_t port, const std::string& promql) {
  auto doc = nlohmann::json::parse(HttpGet(port, "/api/v1/query?query=" + promql), nullptr, false);
  if (doc.is_discarded() || doc.value("status", "") != "success") return nlohmann::json::array();
  return doc["data"]["result"];
}

TEST(PrometheusScrape, RealPrometheusReadsTheExporterWithLabels) {
#ifdef _WIN32
  GTEST_SKIP() << "the scrape test runs Debian's prometheus on Linux; it does not apply to the Windows build";
#endif
  const std::string prometheus = FindPrometheus();
  if (prometheus.empty())
    GTEST_SKIP() << "no prometheus binary (Debian: apt-get install --no-install-recommends prometheus)";
  const uint16_t exporter_port = FreeLoopbackPort();
  const uint16_t prometheus_port = FreeLoopbackPort();
  ASSERT_NE(exporter_port, 0);
  ASSERT_NE(prometheus_port, 0);
  const stdfs::path dir =
      stdfs::temp_directory_path() /
      ("gpudoctor-prometheus-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  stdfs::create_directories(dir / "data");
  {
    std::ofstream config(dir / "prometheus.yml");
    config << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
           << "scrape_configs:\n  - job_name: gpudoctor\n    static_configs:\n"
           << "      - targets: ['127.0.0.1:" << exporter_port << "']\n";
  }
  // Both run under a time limit that ends them in any case; Prometheus is asked to quit as soon as the
  // query answers (--web.enable-lifecycle), the exporter is ended by its limit.
  ProcessResult exporter_result, prometheus_result;
  std::thread exporter([&] {
    ProcessRequest req;
    req.argv = {GPUDOCTOR_BINARY_PATH, "serve",
                "--prometheus",        "127.0.0.1:" + std::to_string(exporter_port),
                "--sysroot",           kFixtures + "h100-sxm-server"};
    req.timeout = std::chrono::milliseconds(12000);
    if (auto r = RunProcess(req); r.ok()) exporter_result = *r;
  });
  std::thread server([&] {
    ProcessRequest req;
    req.argv = {prometheus,
                "--config.file=" + (dir / "prometheus.yml").string(),
                "--storage.tsdb.path=" + (dir / "data").string(),
                "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port),
                "--web.enable-lifecycle",
                "--log.level=warn"};
    req.timeout = std::chrono::milliseconds(14000);
    if (auto r = RunProcess(req); r.ok()) prometheus_result = *r;
  });

  nlohmann::json power = nlohmann::json::array();
  nlohmann::json up = nlohmann::json::array();
  auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(11);
  while (std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    power = Query(prometheus_port, "gpudoctor_power_watts");
    if (power.size() == 8) break;
  }
  up = Query(prometheus_port, "up%7Bjob%3D%22gpudoctor%22%7D");  // up{job="gpudoctor"}
  nlohmann::json processes = Query(prometheus_port, "gpudoctor_process_memory_used_bytes");
  HttpGet(prometheus_port, "/-/quit", "POST");
  server.join();
  exporter.join();
  std::error_code ec;
  stdfs::remove_all(dir, ec);

  ASSERT_EQ(power.size(), 8u) << "Prometheus did not get the exporter's series.\nexporter stderr:\n"
                              << exporter_result.stderr_text << "\nprometheus stderr:\n"
                              << prometheus_result.stderr_text;
  bool found_gpu0 = false;
  for (const auto& series : power) {
    const auto& m = series["metric"];
    EXPECT_EQ(m["job"], "gpudoctor");
    EXPECT_EQ(m["vendor"], "nvidia");
    EXPECT_EQ(m["name"], "NVIDIA H100 80GB HBM3");
    EXPECT_TRUE(m.contains("pci_bus_id"));
    EXPECT_TRUE(m.contains("uuid"));
    if (m["gpu"] == "0") {
      found_gpu0 = true;
      EXPECT_EQ(m["pci_bus_id"], "0000:18:00.0");
      EXPECT_EQ(m["uuid"], "GPU-6f1d8a52-3c7e-4b19-9a0d-2e5c7b18f403");
      EXPECT_EQ(series["value"][1], "612.418");
    }
  }
  EXPECT_TRUE(found_gpu0);
  ASSERT_EQ(up.size(), 1u);
  EXPECT_EQ(up[0]["value"][1], "1");
  ASSERT_EQ(processes.size(), 1u);
  EXPECT_EQ(processes[0]["metric"]["pid"], "48213");
}

}  // namespace
}  // namespace gpudoctor
