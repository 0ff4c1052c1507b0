// Files the user names are read within bounds (issue 35 item 1): a FIFO or a device is refused before
// it is opened (a FIFO with no writer blocked `--from`, `report --verify`, `targets`, `--wheel-toml`
// for ever), and `explain --file` waits a bounded time on a FIFO.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "binfmt/byte_source.h"
#include "platform/terminal.h"
#include "platform/user_file.h"
#include "unique_temp_dir.h"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace gpudoctor {
namespace {

namespace fs = std::filesystem;

#ifndef _WIN32
class FifoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::UniqueTempDir("gpudoctor_fifo");
    ASSERT_FALSE(dir_.empty());
    fifo_ = (dir_ / "log.fifo").string();
    ASSERT_EQ(::mkfifo(fifo_.c_str(), 0600), 0);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
  std::string fifo_;
};

TEST_F(FifoTest, UserFileThatIsAFifoIsRefusedNotWaitedOn) {
  auto text = ReadUserFile(fifo_);
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.error().message.find("a FIFO (named pipe), not a regular file"), std::string::npos)
      << text.error().message;
  auto device = ReadUserFile("/dev/zero");
  ASSERT_FALSE(device.ok());
  EXPECT_NE(device.error().message.find("a device"), std::string::npos) << device.error().message;
}

TEST_F(FifoTest, BinaryOrWheelThatIsAFifoIsRefusedNotWaitedOn) {
  auto source = OpenFileByteSource(fifo_);  // `targets FILE`, `targets --wheel-toml FILE`
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.error().message.find("FIFO"), std::string::npos) << source.error().message;
}

TEST_F(FifoTest, ExplainFifoNobodyWritesIsAnErrorAfterItsWait) {
  auto stream = OpenUserStream(fifo_, std::chrono::milliseconds(200));
  ASSERT_FALSE(stream.ok());
  EXPECT_NE(stream.error().message.find("nothing was written to this FIFO"), std::string::npos)
      << stream.error().message;
}

TEST_F(FifoTest, ExplainFifoWithAWriterIsRead) {
  std::thread writer([this] {
    std::FILE* out = std::fopen(fifo_.c_str(), "wb");  // blocks until the reader opened it
    if (!out) return;
    std::fputs("line one\nline two\n", out);
    std::fclose(out);
  });
  auto stream = OpenUserStream(fifo_, std::chrono::seconds(60));
  std::string read;
  if (stream.ok()) {
    char buffer[64];
    size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, *stream)) > 0) read.append(buffer, n);
    std::fclose(*stream);
  } else {
    // Unblock the writer's open so the thread ends.
    const int fd = ::open(fifo_.c_str(), O_RDONLY | O_NONBLOCK);
    writer.join();
    if (fd >= 0) ::close(fd);
    FAIL() << stream.error().message;
  }
  writer.join();
  EXPECT_EQ(read, "line one\nline two\n");
}
#endif

}  // namespace
}  // namespace gpudoctor
