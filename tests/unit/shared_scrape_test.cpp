// Scrapes that arrive together share one GPU read (issue 35): with 1,000 concurrent scrapes served one read
// each, one at a time, the last waited for 999 reads. Each scrape must still get values read after it came.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "exporter/shared_scrape.h"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;

TEST(SharedScrape, ConcurrentScrapesShareReadsThatStartedAfterEachCame) {
  std::atomic<int> reads{0};
  // Each page is the time its read started, in nanoseconds since the clock's epoch.
  SharedScrape shared([&] {
    ++reads;
    auto started = Clock::now().time_since_epoch().count();
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    return std::to_string(started);
  });
  constexpr int kScrapes = 16;
  std::vector<std::thread> scrapes;
  std::atomic<int> fresh{0}, answered{0};
  for (int i = 0; i < kScrapes; ++i) {
    scrapes.emplace_back([&] {
      auto came = Clock::now().time_since_epoch().count();
      auto page = shared.Page(std::chrono::milliseconds(10000));
      if (!page.ok()) return;
      ++answered;
      if (std::stoll(*page) >= came) ++fresh;
    });
  }
  for (auto& t : scrapes) t.join();
  EXPECT_EQ(answered, kScrapes);
  EXPECT_EQ(fresh, kScrapes);  // no scrape got a read that started before it came
  EXPECT_LT(reads, kScrapes);  // they shared
}

TEST(SharedScrape, AScrapeWaitingOnAHangingReadGetsAnErrorAndTheReadLaterServesAgain) {
  std::mutex mutex;
  std::condition_variable released_cv;
  bool released = false;
  SharedScrape shared([&] {
    std::unique_lock<std::mutex> lock(mutex);
    released_cv.wait(lock, [&] { return released; });
    return std::string("page\n");
  });
  std::thread stuck([&] { EXPECT_TRUE(shared.Page(std::chrono::milliseconds(60000)).ok()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the stuck read has started
  auto waited = shared.Page(std::chrono::milliseconds(100));
  EXPECT_FALSE(waited.ok());
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
  }
  released_cv.notify_all();
  stuck.join();
  auto again = shared.Page(std::chrono::milliseconds(1000));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, "page\n");
}

}  // namespace
}  // namespace gpudoctor
