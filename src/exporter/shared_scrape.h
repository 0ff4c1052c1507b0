// One GPU read shared by the scrapes that arrive together. The exporter's readers are not thread-safe and a
// read takes milliseconds, so reading once per scrape, one at a time, makes the thousandth of 1,000
// concurrent scrapes wait for 999 reads. Instead each scrape waits for the first read that starts after it
// arrived (the values are as fresh as its own read would be) and every scrape waiting for that read gets its
// page: at most one read runs at a time, and a scrape waits for at most two.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "core/result.h"

namespace gpudoctor {

class SharedScrape {
 public:
  explicit SharedScrape(std::function<std::string()> read);
  SharedScrape(const SharedScrape&) = delete;
  SharedScrape& operator=(const SharedScrape&) = delete;

  // The page of a read that started after this call, made by this thread or shared with another. An error
  // when no such read has finished within `wait` (a read that hangs: a FIFO under --sysroot).
  Result<std::string> Page(std::chrono::milliseconds wait);

 private:
  const std::function<std::string()> read_;
  std::mutex mutex_;
  std::condition_variable read_finished_;
  uint64_t reads_started_ = 0;
  uint64_t reads_finished_ = 0;  // the latest page is read number reads_finished_
  bool reading_ = false;
  std::string latest_page_;
};

}  // namespace gpudoctor
