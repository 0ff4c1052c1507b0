// The exporter's server under slow and many clients (issue 35): connections are served at once by a bounded
// pool, so slow clients holding connections open (silent, or dribbling a byte at a time) cannot stop a real
// scrape; the head has one deadline in all, not one per read; past the pool's bound a heavy load is cut or
// refused at once. No timings are asserted here (bench/exporter_load.sh measures them): only that answers
// come, while the slow clients are still connected.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "exporter/http_server.h"
#include "http_test_util.h"
#include "platform/tcp_socket.h"

namespace gpudoctor {
namespace {

using testing::Exchange;
using testing::LoopbackServer;
using testing::StatusLine;

using Connections = std::vector<std::unique_ptr<TcpConnection>>;

// `count` clients that connect and then send `first_bytes` (maybe nothing) and no more.
Connections ConnectSlowClients(uint16_t port, int count, const std::string& first_bytes) {
  Connections slow;
  for (int i = 0; i < count; ++i) {
    auto c = TcpConnect("127.0.0.1", port, 2000);
    if (!c.ok()) break;
    if (!first_bytes.empty() && !(*c)->WriteAll(first_bytes, 1000).ok()) break;
    slow.push_back(std::move(c.value()));
  }
  return slow;
}

// Whether the server has neither answered nor closed `c` yet (nothing to read within a moment).
bool StillWaitingForItsHead(TcpConnection& c) {
  char byte;
  return !c.Read(&byte, 1, 20).ok();
}

// Everything the server sends `c` until it closes it (or 3 s pass without a byte).
std::string ReadToEnd(TcpConnection& c) {
  std::string out;
  char buf[1024];
  for (;;) {
    auto n = c.Read(buf, sizeof buf, 3000);
    if (!n.ok() || *n == 0) return out;
    out.append(buf, *n);
  }
}

TEST(HttpServerConcurrency, ScrapesAreAnsweredWhileSlowClientsHoldConnections) {
  HttpServerOptions options;
  options.head_timeout_ms = 30000;  // the slow clients are not cut by their deadline during the test
  LoopbackServer server(options);
  ASSERT_NE(server.port(), 0);
  Connections silent = ConnectSlowClients(server.port(), 20, "");
  Connections dribbling = ConnectSlowClients(server.port(), 20, "G");
  ASSERT_EQ(silent.size() + dribbling.size(), 40u);
  for (auto& c : dribbling) ASSERT_TRUE(c->WriteAll("E", 1000).ok());  // one more byte each
  // Before: one connection at a time, so the first silent client held the server for its 30 s.
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 200 OK");
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 200 OK");
  for (auto& c : silent) EXPECT_TRUE(StillWaitingForItsHead(*c));
  for (auto& c : dribbling) EXPECT_TRUE(StillWaitingForItsHead(*c));
}

TEST(HttpServerConcurrency, WithEveryWorkerHeldOverdueSlowHeadsAreCutForAWaitingScrape) {
  HttpServerOptions options;
  options.head_timeout_ms = 30000;
  options.busy_head_timeout_ms = 200;
  options.max_workers = 2;
  LoopbackServer server(options);
  ASSERT_NE(server.port(), 0);
  Connections slow = ConnectSlowClients(server.port(), 6, "GET /metrics HTTP/1.1\r\n");
  ASSERT_EQ(slow.size(), 6u);
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 200 OK");
  EXPECT_EQ(StatusLine(ReadToEnd(*slow.front())), "HTTP/1.1 408 Request Timeout");  // the oldest was cut
}

TEST(HttpServerConcurrency, ADribblingClientIsCutAtTheHeadDeadlineNotKeptAliveByEachByte) {
  HttpServerOptions options;
  options.head_timeout_ms = 500;
  LoopbackServer server(options);
  ASSERT_NE(server.port(), 0);
  auto c = TcpConnect("127.0.0.1", server.port(), 2000);
  ASSERT_TRUE(c.ok());
  const std::string head = "GET /metrics HTTP/1.1\r\nX-Slow: " + std::string(200, 'a') + "\r\n\r\n";
  std::string answer;
  size_t sent = 0;
  bool write_failed = false;
  char buf[1024];
  // A byte every 50 ms: the whole head would take over 10 s, each read waits far less than 500 ms.
  while (sent < head.size() && answer.empty() && !write_failed) {
    write_failed = !(*c)->WriteAll(std::string_view(head).substr(sent, 1), 1000).ok();
    if (!write_failed) ++sent;
    auto n = (*c)->Read(buf, sizeof buf, 50);
    if (n.ok() && *n > 0) answer.append(buf, *n);
    if (n.ok() && *n == 0) break;  // closed by the server
  }
  if (!answer.empty()) answer += ReadToEnd(**c);
  EXPECT_LT(sent, head.size()) << "the server waited for the whole dribbled head";
  if (!answer.empty()) {
    EXPECT_EQ(StatusLine(answer), "HTTP/1.1 408 Request Timeout");
  }
}

TEST(HttpServerConcurrency, PastTheMostOpenConnectionsANewOneIsRefusedAtOnce) {
  HttpServerOptions options;
  options.head_timeout_ms = 30000;
  options.busy_head_timeout_ms = 30000;  // the two slow clients keep their places
  options.max_workers = 1;
  options.max_open_connections = 2;
  LoopbackServer server(options);
  ASSERT_NE(server.port(), 0);
  Connections slow = ConnectSlowClients(server.port(), 2, "");
  ASSERT_EQ(slow.size(), 2u);
  std::string refused = Exchange(server.port(), "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(StatusLine(refused), "HTTP/1.1 503 Service Unavailable");
  EXPECT_NE(refused.find("Retry-After: 1\r\n"), std::string::npos);
  slow.clear();  // they leave: the server serves again (once it has seen them go)
  std::string again;
  for (int i = 0; i < 100 && StatusLine(again) != "HTTP/1.1 200 OK"; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    again = Exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
  }
  EXPECT_EQ(StatusLine(again), "HTTP/1.1 200 OK");
}

TEST(HttpServerConcurrency, HealthzAnswersWhileAScrapeIsStuckReadingTheGpus) {
  std::mutex mutex;
  std::condition_variable released_cv;
  bool released = false;
  std::atomic<bool> reading{false};
  auto stuck_metrics = [&] {  // a read that hangs, as on a FIFO under --sysroot
    reading = true;
    std::unique_lock<std::mutex> lock(mutex);
    released_cv.wait(lock, [&] { return released; });
    return std::string("gpudoctor_power_watts{gpu=\"0\"} 1\n");
  };
  LoopbackServer server(HttpServerOptions{}, stuck_metrics);
  ASSERT_NE(server.port(), 0);
  auto scrape = TcpConnect("127.0.0.1", server.port(), 2000);
  ASSERT_TRUE(scrape.ok());
  ASSERT_TRUE((*scrape)->WriteAll("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 1000).ok());
  for (int i = 0; i < 200 && !reading; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(reading);
  EXPECT_EQ(StatusLine(Exchange(server.port(), "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")),
            "HTTP/1.1 200 OK");
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
  }
  released_cv.notify_all();
  EXPECT_EQ(StatusLine(ReadToEnd(**scrape)), "HTTP/1.1 200 OK");
}

}  // namespace
}  // namespace gpudoctor
