// The exporter's pool of connection workers (see http_worker_pool.h).
#include "exporter/http_worker_pool.h"

#include <system_error>
#include <utility>

namespace gpudoctor {

HttpWorkerPool::HttpWorkerPool(size_t max_workers, size_t max_open, ServeConnection serve, Log log)
    : max_workers_(max_workers == 0 ? 1 : max_workers),
      max_open_(max_open == 0 ? 1 : max_open),
      serve_(std::move(serve)),
      log_(std::move(log)),
      signals_{[this] {
                 std::lock_guard<std::mutex> lock(mutex_);
                 return stopping_;
               },
               [this] { return OthersWaiting(); }} {}

HttpWorkerPool::~HttpWorkerPool() {
  Stop();
}

std::unique_ptr<TcpConnection> HttpWorkerPool::Submit(std::unique_ptr<TcpConnection> connection) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_ || open_connections_ >= max_open_) return connection;
  waiting_.push_back(std::move(connection));
  ++open_connections_;
  if (idle_workers_ < waiting_.size() && workers_.size() < max_workers_ && !StartWorker() &&
      workers_.empty()) {
    // Not one thread could be started: refuse rather than queue a connection nobody will serve.
    connection = std::move(waiting_.back());
    waiting_.pop_back();
    --open_connections_;
    return connection;
  }
  work_arrived_.notify_one();
  return nullptr;
}

bool HttpWorkerPool::OthersWaiting() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return waiting_.size() > idle_workers_ && workers_.size() >= max_workers_;
}

void HttpWorkerPool::Stop() {
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    open_connections_ -= waiting_.size();
    waiting_.clear();  // never served: closed
    workers.swap(workers_);
  }
  work_arrived_.notify_all();
  for (auto& worker : workers) worker.join();
}

// Called with mutex_ held. A thread the system will not start (out of threads) is one line to the log; the
// workers already running go on serving.
bool HttpWorkerPool::StartWorker() {
  try {
    workers_.emplace_back([this] { ServeUntilStopped(); });
    return true;
  } catch (const std::system_error& e) {
    log_(std::string("cannot start a connection worker: ") + e.what());
    return false;
  }
}

void HttpWorkerPool::ServeUntilStopped() {
  for (;;) {
    std::unique_ptr<TcpConnection> connection;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      ++idle_workers_;
      work_arrived_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
      --idle_workers_;
      if (stopping_) return;
      connection = std::move(waiting_.front());
      waiting_.pop_front();
    }
    serve_(*connection, signals_);
    connection.reset();  // closed before it stops counting as open
    std::lock_guard<std::mutex> lock(mutex_);
    --open_connections_;
  }
}

}  // namespace gpudoctor
