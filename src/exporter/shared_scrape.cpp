// One GPU read shared by concurrent scrapes (see shared_scrape.h).
#include "exporter/shared_scrape.h"

#include <utility>

namespace gpudoctor {

SharedScrape::SharedScrape(std::function<std::string()> read) : read_(std::move(read)) {}

Result<std::string> SharedScrape::Page(std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  std::unique_lock<std::mutex> lock(mutex_);
  // A read already running started before this scrape: its values may be older than asked. The next one.
  const uint64_t wanted = reads_started_ + 1;
  while (reads_finished_ < wanted) {
    if (!reading_) {
      reading_ = true;
      const uint64_t mine = ++reads_started_;
      lock.unlock();
      std::string page = read_();
      lock.lock();
      latest_page_ = std::move(page);
      reads_finished_ = mine;
      reading_ = false;
      read_finished_.notify_all();
      continue;
    }
    if (read_finished_.wait_until(lock, deadline) == std::cv_status::timeout && reads_finished_ < wanted)
      return EnvError("no GPU read finished within " + std::to_string(wait.count()) + " ms",
                      "a read of the GPUs hangs: look for a FIFO or a stuck device under the machine read");
  }
  return latest_page_;
}

}  // namespace gpudoctor
