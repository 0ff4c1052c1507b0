// The exporter's bounded pool of connection workers (see http_server.h): the accept loop hands over each
// connection it accepts, a worker thread serves it. At most `max_workers` threads serve at once (started as
// the load needs them, kept until the pool stops) and at most `max_open` connections are open, served or
// waiting; past that a connection is given back for the caller to refuse at once. No state outside the pool
// object: every server owns its own.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "platform/tcp_socket.h"

namespace gpudoctor {

// What a connection being served can ask its pool while it waits for a slow client.
struct HttpConnectionSignals {
  std::function<bool()> stopping;        // the server is shutting down: close now
  std::function<bool()> others_waiting;  // every worker is busy and connections wait: hurry
};

class HttpWorkerPool {
 public:
  using ServeConnection = std::function<void(TcpConnection&, const HttpConnectionSignals&)>;
  using Log = std::function<void(const std::string&)>;

  HttpWorkerPool(size_t max_workers, size_t max_open, ServeConnection serve, Log log);
  ~HttpWorkerPool();
  HttpWorkerPool(const HttpWorkerPool&) = delete;
  HttpWorkerPool& operator=(const HttpWorkerPool&) = delete;

  // Queues `connection` for the next free worker, starting one while fewer than max_workers run. Gives the
  // connection back (for the caller to refuse) when max_open are already open or the pool is stopping;
  // nullptr when it was taken.
  std::unique_ptr<TcpConnection> Submit(std::unique_ptr<TcpConnection> connection);
  // Whether connections wait with every worker busy (a slow client's head is then cut short).
  bool OthersWaiting() const;
  // Takes no more connections, closes those still waiting, tells the workers to finish and waits for them.
  void Stop();

 private:
  void ServeUntilStopped();
  bool StartWorker();

  const size_t max_workers_;
  const size_t max_open_;
  const ServeConnection serve_;
  const Log log_;
  const HttpConnectionSignals signals_;
  mutable std::mutex mutex_;
  std::condition_variable work_arrived_;
  std::deque<std::unique_ptr<TcpConnection>> waiting_;
  std::vector<std::thread> workers_;
  size_t idle_workers_ = 0;
  size_t open_connections_ = 0;  // waiting and being served
  bool stopping_ = false;
};

}  // namespace gpudoctor
